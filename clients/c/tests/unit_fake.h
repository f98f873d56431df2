/* A scripted fake daemon in a child process, for the calls' wire behaviour: it answers most
 * methods with an error whose data holds the params it received, closes the connection on the
 * first getIdToken (a read the client sends once more) and on signOut (a change it must not). */

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
