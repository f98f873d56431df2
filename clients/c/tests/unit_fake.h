/* A scripted fake daemon in a child process, for the calls' wire behaviour: it answers most
 * methods with an error whose data holds the params it received, closes the connection on the
 * first getIdToken (a read the client sends once more) and on signOut (a change it must not).
 * For subscriptions it greets, answers subscribe with a state of sequence 1 followed by a
 * notification of sequence 3 (a gap), answers getState with sequence 3, and refuses a
 * migrator subscription (permission-denied). */

static const char FAKE_STATE[] = "{\"status\":\"anonymous\",\"user\":{\"uid\":\"g1\",\"isAnonymous\":true},"
                                 "\"connectivity\":\"%s\",\"pendingMerges\":[],\"sequence\":%d}";

static void fake_serve(int listener) {
    int closed_token = 0;
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) _exit(0);
        sesame__lines lines = {0};
        bool open = true, overflow;
        while (open && sesame__lines_read(&lines, fd) > 0) {
            char *line;
            while (open && (line = sesame__lines_next(&lines, &overflow)) != NULL) {
                json_object *request = json_tokener_parse(line);
                const char *method = json_object_get_string(json_object_object_get(request, "method"));
                long long id = json_object_get_int64(json_object_object_get(request, "id"));
                json_object *params = json_object_object_get(request, "params");
                char answer[8192];
                if ((strcmp(method, "getIdToken") == 0 && !closed_token++) || strcmp(method, "signOut") == 0) {
                    open = false;
                } else if (strcmp(method, "getIdToken") == 0) {
                    snprintf(answer, sizeof answer, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{\"token\":\"a.b.c\",\"uid\":\"u\"}}\n", id);
                } else if (strcmp(method, "hello") == 0) {
                    snprintf(answer, sizeof answer, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{\"server\":\"fake\",\"instance\":\"i1\"}}\n", id);
                } else if (strcmp(method, "subscribe") == 0 && params && json_object_object_get(params, "migrator")) {
                    snprintf(answer, sizeof answer,
                             "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"error\":{\"code\":3000,\"message\":\"needs manager\",\"data\":{\"reason\":\"permission-denied\",\"requiredRole\":\"manager\"}}}\n", id);
                } else if (strcmp(method, "subscribe") == 0) {
                    char state[512], later[512];
                    snprintf(state, sizeof state, FAKE_STATE, "online", 1);
                    snprintf(later, sizeof later, "{\"jsonrpc\":\"2.0\",\"method\":\"connectivityChanged\",\"params\":{\"connectivity\":\"offline\",\"sequence\":3}}");
                    snprintf(answer, sizeof answer, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{\"subscription\":1,\"state\":%s}}\n%s\n", id, state, later);
                } else if (strcmp(method, "getState") == 0) {
                    char state[512];
                    snprintf(state, sizeof state, FAKE_STATE, "offline", 3);
                    snprintf(answer, sizeof answer, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":%s}\n", id, state);
                } else if (strcmp(method, "sendSignInLink") == 0) {
                    snprintf(answer, sizeof answer, "{\"jsonrpc\":\"2.0\",\"method\":\"note\"}\n{\"jsonrpc\":\"2.0\",\"id\":%lld,\"result\":{}}\n", id);
                } else {
                    snprintf(answer, sizeof answer,
                             "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"error\":{\"code\":-32601,\"message\":\"echo\",\"data\":{\"reason\":\"method-not-found\",\"method\":\"%s\",\"params\":%s}}}\n",
                             id, method, params ? sesame__json_text(params) : "null");
                }
                json_object_put(request);
                if (open && write(fd, answer, strlen(answer)) < 0) open = false;
            }
        }
        sesame__lines_free(&lines);
        close(fd);
    }
}

struct fake_seen {
    long long sequences[8];
    char reasons[8][32];
    int states, errors;
    sesame_reason error;
};

static void fake_on_state(const sesame_state *state, void *data) {
    struct fake_seen *seen = data;
    if (seen->states < 8) {
        seen->sequences[seen->states] = state->sequence;
        snprintf(seen->reasons[seen->states++], sizeof seen->reasons[0], "%s", state->reason);
    }
}

static void fake_on_error(const sesame_error *error, void *data) {
    struct fake_seen *seen = data;
    seen->errors++;
    seen->error = error->reason;
}

/* Dispatches as an event loop would until `states` states came or the subscription ended. */
static int fake_pump(sesame_subscription_t *subscription, struct fake_seen *seen, int states) {
    for (int rounds = 0; rounds < 200 && seen->states < states; rounds++) {
        struct pollfd ready = {.fd = sesame_subscription_fd(subscription), .events = POLLIN};
        if (poll(&ready, 1, 5000) <= 0) return 0;
        if (sesame_dispatch(subscription) < 0) return -1;
    }
    return 1;
}

static void subscriptions_against_a_fake_daemon(const char *path) {
    struct fake_seen seen = {0};
    sesame_callbacks callbacks = {.on_state = fake_on_state, .on_error = fake_on_error};
    sesame_subscription_t *subscription = NULL;
    CHECK(sesame_subscribe(path, 0, &callbacks, &seen, &subscription, NULL) == 0);
    CHECK(sesame_subscription_state(subscription) == NULL);
    CHECK(fake_pump(subscription, &seen, 2) == 1);
    /* The snapshot, then the gap repaired by getState (the held notification is stale then). */
    CHECK(seen.states == 2 && seen.sequences[0] == 1 && seen.sequences[1] == 3);
    CHECK_STR(seen.reasons[0], "snapshot");
    CHECK_STR(seen.reasons[1], "resynchronized");
    CHECK_STR(sesame_subscription_state(subscription)->connectivity, "offline");
    CHECK(seen.errors == 0);
    sesame_unsubscribe(subscription);

    /* A refused subscription ends: on_error says why, dispatch returns -1. */
    struct fake_seen refused = {0};
    CHECK(sesame_subscribe(path, SESAME_SUBSCRIBE_MIGRATOR, &callbacks, &refused, &subscription, NULL) == 0);
    CHECK(fake_pump(subscription, &refused, 1) == -1);
    CHECK(refused.states == 0 && refused.errors == 1 && refused.error == SESAME_REASON_PERMISSION_DENIED);
    CHECK(sesame_dispatch(subscription) == -1);
    sesame_unsubscribe(subscription);
}

/* The params the fake received for the last call (from the error's data). */
static const char *sent(const sesame_error *error) {
    const char *params = strstr(error->data, "\"params\":");
    return params ? params + 9 : "";
}

static void run_fake_daemon_tests(void) {
    char directory[] = "/tmp/sesame-fake-XXXXXX", path[256];
    mkdtemp(directory);
    snprintf(path, sizeof path, "%s/s.sock", directory);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, path);
    CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0 && listen(listener, 8) == 0);
    pid_t child = fork();
    if (child == 0) fake_serve(listener);
    close(listener);

    sesame_t *sesame = NULL;
    sesame_error error;
    CHECK(sesame_connect(path, &sesame, &error) == 0);
    int before = check_failures;

    /* Params as the description says: optional ones left out, flags only when true, null sent. */
    CHECK(sesame_rpc_update_profile(sesame, SESAME_NULL, NULL, &error) == -1);
    CHECK(error.code == -32601 && error.reason == SESAME_REASON_METHOD_NOT_FOUND);
    CHECK_STR(sent(&error), "{\"displayName\":null}}");
    sesame_rpc_sign_in_anonymously(sesame, NULL, &error);
    CHECK_STR(sent(&error), "{}}");
    sesame_rpc_create_account(sesame, "ann@example.com", "pw", NULL, NULL, &error);
    CHECK_STR(sent(&error), "{\"email\":\"ann@example.com\",\"password\":\"pw\"}}");
    sesame_rpc_await_sign_in(sesame, "f1", 2.5, NULL, &error);
    CHECK_STR(sent(&error), "{\"flowId\":\"f1\",\"timeout\":2.5}}");
    sesame_rpc_check_username(sesame, "ann", NULL, &error);
    CHECK_STR(sent(&error), "{\"username\":\"ann\"}}");
    sesame_credential credential = {.provider_id = "password", .email = "a@example.com", .password = "pw"};
    sesame_rpc_link_credential(sesame, &credential, NULL, &error);
    CHECK_STR(sent(&error), "{\"credential\":{\"providerId\":\"password\",\"email\":\"a@example.com\",\"password\":\"pw\"}}}");

    /* Rules are checked before sending; a missing required argument never reaches the wire. */
    CHECK(sesame_rpc_confirm_password_reset(sesame, "link", "code", NULL, "new", NULL, &error) == -1);
    CHECK(error.code == -32602 && error.reason == SESAME_REASON_INVALID_PARAMS);
    CHECK(sesame_rpc_confirm_password_reset(sesame, NULL, "code", NULL, "new", NULL, &error) == -1);
    CHECK(strstr(error.message, "email") != NULL);
    CHECK(sesame_rpc_reauthenticate(sesame, "pw", "123456", NULL, &error) == -1);
    CHECK(error.reason == SESAME_REASON_INVALID_PARAMS);
    CHECK(sesame_rpc_set_username(sesame, NULL, NULL, &error) == -1);
    CHECK(error.reason == SESAME_REASON_INVALID_ARGUMENT && error.code == SESAME_CLIENT_ERROR);

    /* A String result falls back to the param; notifications between answers are skipped. */
    char *email = NULL;
    CHECK(sesame_rpc_send_sign_in_link(sesame, "ann@example.com", NULL, &email, &error) == 0);
    CHECK_STR(email, "ann@example.com");
    free(email);

    /* A read whose connection closed before its answer is sent once more. */
    char *token = sesame_get_id_token(sesame, 0, &error);
    CHECK_STR(token, "a.b.c");
    free(token);
    /* A change is not: the caller learns the connection was lost. */
    CHECK(sesame_rpc_sign_out(sesame, true, NULL, NULL, &error) == -1);
    CHECK(error.reason == SESAME_REASON_CONNECTION_LOST && error.code == SESAME_CLIENT_ERROR);
    /* And the next call reconnects. */
    char *raw = NULL;
    CHECK(sesame_call(sesame, "reload", "{\"x\":[1,2]}", &raw, &error) == -1);
    CHECK_STR(sent(&error), "{\"x\":[1,2]}}");
    CHECK(sesame_call(sesame, "reload", "[1]", &raw, &error) == -1 && error.reason == SESAME_REASON_INVALID_ARGUMENT);
    printf("%s calls against a fake daemon\n", check_failures == before ? "ok  " : "FAIL");
    sesame_close(sesame);
    before = check_failures;
    subscriptions_against_a_fake_daemon(path);
    printf("%s subscriptions against a fake daemon (snapshot, gap repaired, refusal)\n",
           check_failures == before ? "ok  " : "FAIL");

    kill(child, SIGTERM);
    waitpid(child, NULL, 0);
    unlink(path);
    rmdir(directory);

    /* Nothing listens: daemon-unavailable, with the path and what to do. */
    CHECK(sesame_connect(path, &sesame, &error) == -1);
    CHECK(sesame == NULL && error.reason == SESAME_REASON_DAEMON_UNAVAILABLE);
    CHECK(strstr(error.message, "not running") != NULL);
    CHECK(sesame_get_id_token(NULL, 0, &error) == NULL || getenv("SESAME_SOCKET") != NULL);
}
