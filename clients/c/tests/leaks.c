/* Run under Valgrind by run-tests.sh: 1,000 calls of sesame_get_id_token on one handle (and
 * some through a handle of their own, and a subscription's snapshot) must leak nothing.
 * Usage: test-leaks BIN_DIR */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sesame.h"

static void count_state(const sesame_state *state, void *user_data) {
    (void)state;
    (*(int *)user_data)++;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    emulator emu;
    daemon_process d;
    if (emulator_start(&emu, argv[1]) != 0 || daemon_start(&d, &emu, argv[1]) != 0) return 1;
    int failures = 0;
    sesame_error error;
    sesame_t *sesame = NULL;
    if (sesame_connect(d.socket_path, &sesame, &error) != 0) return 1;
    for (int i = 0; i < 1000; i++) {
        char *token = sesame_get_id_token(sesame, 0, &error);
        if (token == NULL) {
            fprintf(stderr, "call %d failed: %s\n", i, error.message);
            failures++;
        }
        free(token);
    }
    setenv("SESAME_SOCKET", d.socket_path, 1);
    for (int i = 0; i < 20; i++) free(sesame_get_id_token(NULL, 0, &error));
    sesame_state *state = NULL;
    if (sesame_rpc_get_state(sesame, &state, &error) != 0) failures++;
    sesame_free(state);
    if (sesame_rpc_sign_out(sesame, false, NULL, NULL, &error) != -1) failures++; /* an error path */
    int states = 0;
    sesame_subscription_t *subscription = NULL;
    sesame_callbacks callbacks = {.on_state = count_state};
    if (sesame_subscribe(NULL, 0, &callbacks, &states, &subscription, &error) != 0) return 1;
    while (states == 0) {
        struct pollfd ready = {.fd = sesame_subscription_fd(subscription), .events = POLLIN};
        if (poll(&ready, 1, 30000) <= 0 || sesame_dispatch(subscription) < 0) {
            failures++;
            break;
        }
    }
    sesame_unsubscribe(subscription);
    sesame_close(sesame);
    daemon_stop(&d);
    emulator_stop(&emu);
    printf("%s 1,000 sesame_get_id_token calls (%d failures)\n", failures ? "FAIL" : "ok  ", failures);
    return failures ? 1 : 0;
}
