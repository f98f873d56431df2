/* Unit tests of libsesame's pure parts (times, reasons, discovery, errors, objects, framing,
 * tracker-free request building) and of the calls' wire behaviour against a scripted fake
 * daemon in a child process (params as sent, client-side rules, errors, a retried read). */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "internal.h"

static void times_are_read_as_rfc3339(void) {
    CHECK(sesame_time_ms("1970-01-01T00:00:00Z") == 0);
    CHECK(sesame_time_ms("2026-11-21T10:00:00Z") == 1795255200000LL);
    CHECK(sesame_time_ms("2026-11-21T10:00:00.250Z") == 1795255200250LL);
    CHECK(sesame_time_ms("2026-11-21T11:00:00+01:00") == 1795255200000LL);
    CHECK(sesame_time_ms("2026-11-21 10:00:00Z") == 1795255200000LL);
    CHECK(sesame_time_ms("2026-11-21T10:00:00") == -1);
    CHECK(sesame_time_ms("yesterday") == -1);
    CHECK(sesame_time_ms(NULL) == -1);
}

static void reasons_come_from_the_protocol_table(void) {
    CHECK(sesame_reason_from_name("email-already-in-use") == SESAME_REASON_EMAIL_ALREADY_IN_USE);
    CHECK(sesame_reason_code(SESAME_REASON_EMAIL_ALREADY_IN_USE) == 1000);
    CHECK(sesame_reason_code(SESAME_REASON_PARSE_ERROR) == -32700);
    CHECK(sesame_reason_code(SESAME_REASON_TOO_MANY_REQUESTS) == 2000);
    CHECK(sesame_reason_code(SESAME_REASON_PERMISSION_DENIED) == 3000);
    CHECK(sesame_reason_code(SESAME_REASON_REQUIRES_RESET_CONFIRMATION) == 4000);
    CHECK(sesame_reason_code(SESAME_REASON_DAEMON_UNAVAILABLE) == SESAME_CLIENT_ERROR);
    CHECK(sesame_reason_from_name("a-reason-from-the-future") == SESAME_REASON_UNKNOWN);
    CHECK(sesame_reason_name(SESAME_REASON_UNKNOWN) == NULL);
    for (int r = 1; r < SESAME_REASON_COUNT_; r++)
        CHECK(sesame_reason_from_name(sesame_reason_name((sesame_reason)r)) == (sesame_reason)r);
}

static void discovery_follows_the_other_clients(void) {
    char path[256], directory[] = "/tmp/sesame-unit-XXXXXX", socket_path[300];
    CHECK(mkdtemp(directory) != NULL);
    setenv("SESAME_SOCKET", "/tmp/explicit.sock", 1);
    setenv("XDG_RUNTIME_DIR", directory, 1);
    CHECK(sesame_resolve_socket_path(path, sizeof path) == 0);
    CHECK_STR(path, "/tmp/explicit.sock");
    setenv("SESAME_SOCKET", "", 1); /* empty counts as unset */
    CHECK(sesame_resolve_socket_path(path, sizeof path) == 0);
    CHECK_STR(path, "/run/sesame/sesamed.sock"); /* the user socket does not exist */
    snprintf(socket_path, sizeof socket_path, "%s/sesame", directory);
    mkdir(socket_path, 0700);
    snprintf(socket_path, sizeof socket_path, "%s/sesame/sesamed.sock", directory);
    fclose(fopen(socket_path, "w"));
    CHECK(sesame_resolve_socket_path(path, sizeof path) == 0);
    CHECK_STR(path, socket_path);
    unsetenv("SESAME_SOCKET");
    CHECK(sesame_resolve_socket_path(path, sizeof path) == 0);
    CHECK_STR(path, socket_path);
    unsetenv("XDG_RUNTIME_DIR");
    CHECK(sesame_resolve_socket_path(path, sizeof path) == 0);
    CHECK_STR(path, "/run/sesame/sesamed.sock");
    CHECK(sesame_resolve_socket_path(path, 4) == -1);
    unlink(socket_path);
    snprintf(socket_path, sizeof socket_path, "%s/sesame", directory);
    rmdir(socket_path);
    rmdir(directory);
}

static void wire_errors_keep_code_reason_and_data(void) {
    sesame_error error;
    json_object *wire = json_tokener_parse(
        "{\"code\":2000,\"message\":\"Try again later.\",\"data\":{\"reason\":\"too-many-requests\",\"retryAfterMs\":1500}}");
    sesame__error_from_wire(&error, wire);
    CHECK(error.code == 2000);
    CHECK(error.reason == SESAME_REASON_TOO_MANY_REQUESTS);
    CHECK_STR(error.reason_text, "too-many-requests");
    CHECK_STR(error.message, "Try again later.");
    CHECK(error.retry_after_ms == 1500);
    CHECK(strstr(error.data, "\"retryAfterMs\":1500") != NULL);
    json_object_put(wire);
    wire = json_tokener_parse("{\"code\":1000,\"message\":\"m\",\"data\":{\"reason\":\"brand-new\"}}");
    sesame__error_from_wire(&error, wire);
    CHECK(error.reason == SESAME_REASON_UNKNOWN);
    CHECK_STR(error.reason_text, "brand-new");
    CHECK(error.retry_after_ms == -1);
    json_object_put(wire);
}

static const char STATE[] =
    "{\"status\":\"authenticated\",\"user\":{\"uid\":\"u1\",\"isAnonymous\":false,\"email\":\"ann@example.com\","
    "\"emailVerified\":true,\"displayName\":null,\"username\":\"Ann.Lee\",\"providers\":[\"password\",\"google.com\"],"
    "\"createdAt\":\"2026-11-21T10:00:00Z\",\"factors\":[{\"factorId\":\"f1\",\"type\":\"totp\",\"displayName\":\"Phone\"}]},"
    "\"token\":{\"expiresAt\":\"2026-11-21T11:05:00Z\"},\"connectivity\":\"rate-limited\",\"needsUsername\":false,"
    "\"pendingMerges\":[{\"mergeId\":\"m1\",\"fromUid\":\"g1\",\"toUid\":\"u1\",\"createdAt\":\"2026-11-21T10:00:00Z\"}],"
    "\"rateLimit\":{\"operation\":\"refresh\",\"retryAt\":\"2026-11-21T10:30:00Z\"},"
    "\"signInPrompt\":{\"flowId\":\"fl\",\"providerId\":\"google.com\",\"flow\":\"device\",\"userCode\":\"WDJB-MJHT\"},"
    "\"sequence\":42,\"futureField\":7}";

static void states_are_read_whole(void) {
    json_object *json = json_tokener_parse(STATE);
    sesame_state *state = sesame__state_new(json, "snapshot");
    CHECK(state != NULL);
    CHECK_STR(state->status, "authenticated");
    CHECK_STR(state->user->uid, "u1");
    CHECK(!state->user->is_anonymous && state->user->email_verified);
    CHECK(state->user->display_name == NULL);
    CHECK(state->user->provider_count == 2);
    CHECK_STR(state->user->providers[1], "google.com");
    CHECK(state->user->factor_count == 1);
    CHECK_STR(state->user->factors[0].display_name, "Phone");
    CHECK_STR(state->token_expires_at, "2026-11-21T11:05:00Z");
    CHECK(state->pending_merge_count == 1);
    CHECK_STR(state->pending_merges[0].from_uid, "g1");
    CHECK_STR(state->rate_limit->operation, "refresh");
    CHECK_STR(state->sign_in_prompt->user_code, "WDJB-MJHT");
    CHECK(state->second_factor == NULL);
    CHECK(state->sequence == 42);
    CHECK_STR(state->reason, "snapshot");
    CHECK(strstr(state->json, "\"futureField\":7") != NULL); /* what this library does not know survives */
    sesame_free(state);
    json_object_put(json);
}

static void results_are_typed(void) {
    json_object *answer = json_tokener_parse("{\"state\":{\"status\":\"anonymous\",\"sequence\":3},\"merge\":null}");
    sesame_sign_in_result *result = NULL;
    CHECK(sesame__typed_result(answer, sesame__parse_sign_in_result, (void **)&result, NULL) == 0);
    CHECK(result != NULL && result->merge == NULL && result->state->sequence == 3 && result->state->user == NULL);
    sesame_free(result);
    sesame_error error;
    sesame_token *token = NULL;
    CHECK(sesame__typed_result(json_tokener_parse("{\"uid\":\"u\"}"), sesame__parse_token, (void **)&token, &error) == -1);
    CHECK(error.reason == SESAME_REASON_BAD_RESPONSE);
    char *email = NULL;
    CHECK(sesame__string_result(json_tokener_parse("{}"), "email", "fallback@example.com", &email, NULL) == 0);
    CHECK_STR(email, "fallback@example.com");
    free(email);
}

static void lines_are_split_and_blank_ones_skipped(void) {
    int pair[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
    const char data[] = "{\"a\":1}\n\n{\"b\":2}\r\n{\"c\"";
    CHECK(write(pair[1], data, sizeof data - 1) == (ssize_t)(sizeof data - 1));
    sesame__lines lines = {0};
    bool overflow;
    CHECK(sesame__lines_read(&lines, pair[0]) > 0);
    CHECK_STR(sesame__lines_next(&lines, &overflow), "{\"a\":1}");
    CHECK_STR(sesame__lines_next(&lines, &overflow), "{\"b\":2}");
    CHECK(sesame__lines_next(&lines, &overflow) == NULL && !overflow);
    CHECK(write(pair[1], ":3}\n", 4) == 4);
    CHECK(sesame__lines_read(&lines, pair[0]) > 0);
    CHECK_STR(sesame__lines_next(&lines, &overflow), "{\"c\":3}");
    sesame__lines_free(&lines);
    close(pair[0]);
    close(pair[1]);
}

static void answers_are_scanned_in_place(void) {
    const char line[] = "{\"jsonrpc\":\"2.0\", \"id\" : 7,\"result\":{\"a\":[1,{\"b\":\"}\"}],\"token\":\"x\\\"y\\u00e9\\ud83d\\ude00\\n\",\"n\":-1.5e3,\"t\":true}}";
    const char *end = line + strlen(line), *value, *value_end;
    static const char *const KEYS[] = {"id", "result", "error"};
    sesame__span spans[3];
    CHECK(sesame__scan_members(line, end, KEYS, 3, spans) == 2);
    long long id = 0;
    CHECK(sesame__scan_integer(spans[0].start, spans[0].end, &id) && id == 7);
    CHECK(spans[2].start == NULL);
    CHECK(sesame__scan_member(spans[1].start, spans[1].end, "token", &value, &value_end));
    char *token = sesame__scan_string(value, value_end);
    CHECK_STR(token, "x\"y\xc3\xa9\xf0\x9f\x98\x80\n");
    free(token);
    CHECK(sesame__scan_member(spans[1].start, spans[1].end, "t", &value, &value_end) && value_end - value == 4);
    CHECK(!sesame__scan_member(spans[1].start, spans[1].end, "b", &value, &value_end)); /* only the top level */
    /* Broken text is never an answer. */
    const char *broken[] = {"{\"id\":7,", "{\"id\":7 \"result\":{}}", "{\"id\":\"7}", "[1]", "{\"id\":tru}", "{\"id\":-}"};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++)
        CHECK(sesame__scan_members(broken[i], broken[i] + strlen(broken[i]), KEYS, 3, spans) == -1);
    CHECK(!sesame__scan_integer("7.5", "7.5" + 3, &id));
    CHECK(sesame__scan_string("\"\\x\"", "\"\\x\"" + 4) == NULL);
}

#include "unit_fake.h"

int main(void) {
    RUN(times_are_read_as_rfc3339);
    RUN(reasons_come_from_the_protocol_table);
    RUN(discovery_follows_the_other_clients);
    RUN(wire_errors_keep_code_reason_and_data);
    RUN(states_are_read_whole);
    RUN(results_are_typed);
    RUN(lines_are_split_and_blank_ones_skipped);
    RUN(answers_are_scanned_in_place);
    run_fake_daemon_tests();
    printf("%d failures\n", check_failures);
    return check_failures ? 1 : 0;
}
