/* libsesame against the real sesamed and sesame-emulator: a token, typed errors, the snapshot
 * then changes, a daemon restart mid-stream (nothing stale or twice), a guest upgraded, and a
 * merge acknowledged. Usage: test-e2e BIN_DIR */
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "examples.h"
#include "sesame.h"

static const char *bin_dir;
static emulator emu;

/* What the callbacks received, copied (their pointers live only during the call). */
typedef struct seen_state {
    long long sequence;
    char reason[48], status[24], uid[160];
    bool anonymous;
    size_t pending_merges;
} seen_state;

typedef struct recorder {
    seen_state states[64];
    int count;
    char merge_ids[8][160];
    int merges;
    int errors;
} recorder;

static void on_state(const sesame_state *state, void *user_data) {
    recorder *r = user_data;
    if (r->count == 64) return;
    seen_state *s = &r->states[r->count++];
    s->sequence = state->sequence;
    snprintf(s->reason, sizeof s->reason, "%s", state->reason ? state->reason : "");
    snprintf(s->status, sizeof s->status, "%s", state->status ? state->status : "");
    snprintf(s->uid, sizeof s->uid, "%s", state->user && state->user->uid ? state->user->uid : "");
    s->anonymous = state->user && state->user->is_anonymous;
    s->pending_merges = state->pending_merge_count;
}

static void on_merge(const sesame_merge *merge, void *user_data) {
    recorder *r = user_data;
    if (r->merges < 8) snprintf(r->merge_ids[r->merges++], sizeof r->merge_ids[0], "%s", merge->merge_id);
}

static void on_error(const sesame_error *error, void *user_data) {
    (void)error;
    ((recorder *)user_data)->errors++;
}

static const sesame_callbacks CALLBACKS = {.on_state = on_state, .on_merge = on_merge, .on_error = on_error};

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Runs the subscription as an event loop would (poll, then dispatch) until `done` holds. */
static bool pump(sesame_subscription_t *subscription, recorder *r, bool (*done)(const recorder *, const void *),
                 const void *argument) {
    long long deadline = now_ms() + 30000;
    while (!done(r, argument)) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            fprintf(stderr, "timed out; states so far:");
            for (int i = 0; i < r->count; i++) fprintf(stderr, " %lld:%s", r->states[i].sequence, r->states[i].reason);
            fprintf(stderr, "\n");
            return false;
        }
        struct pollfd ready = {.fd = sesame_subscription_fd(subscription), .events = POLLIN};
        if (poll(&ready, 1, (int)left) > 0 && sesame_dispatch(subscription) < 0) return false;
    }
    return true;
}

static bool has_count(const recorder *r, const void *count) {
    return r->count >= *(const int *)count;
}

static bool has_reason(const recorder *r, const void *reason) {
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->states[i].reason, reason) == 0) return true;
    return false;
}

static bool has_merge(const recorder *r, const void *unused) {
    (void)unused;
    return r->merges > 0;
}

static void a_token_and_the_greeting(void) {
    daemon_process d;
    CHECK(daemon_start(&d, &emu, bin_dir) == 0);
    sesame_t *sesame = NULL;
    sesame_error error;
    CHECK(sesame_connect(d.socket_path, &sesame, &error) == 0);
    sesame_hello *hello = NULL;
    sesame_state *state = NULL;
    sesame_token *token = NULL;
    CHECK(sesame_rpc_hello(sesame, "libsesame-test", &hello, &error) == 0);
    CHECK_STR(hello->server, "sesamed");
    CHECK_STR(hello->role, "manager");
    CHECK(hello->protocol == 1 && hello->instance != NULL && hello->has_peer && hello->peer_pid == getpid());
    CHECK(sesame_rpc_get_state(sesame, &state, &error) == 0);
    CHECK_STR(state->status, "anonymous");
    char *text = sesame_get_id_token(sesame, 60, &error);
    CHECK(text != NULL && strchr(text, '.') != strrchr(text, '.'));
    CHECK(sesame_rpc_get_id_token(sesame, true, SESAME_OMIT, NULL, &token, &error) == 0);
    CHECK_STR(token->uid, state->user->uid);
    CHECK(sesame_time_ms(token->expires_at) > sesame_time_ms(token->issued_at));
    /* Without a handle: connect, ask, close ($SESAME_SOCKET names the socket). */
    setenv("SESAME_SOCKET", d.socket_path, 1);
    char *again = sesame_get_id_token(NULL, 0, &error);
    CHECK(again != NULL);
    unsetenv("SESAME_SOCKET");
    free(again);
    free(text);
    sesame_free(token);
    sesame_free(state);
    sesame_free(hello);
    sesame_close(sesame);
    daemon_stop(&d);
}

static void errors_arrive_with_their_reasons(void) {
    daemon_process d;
    CHECK(daemon_start(&d, &emu, bin_dir) == 0);
    sesame_t *sesame = NULL;
    sesame_error error;
    char email[128];
    unique_email(email, sizeof email, "c-errors");
    CHECK(sesame_connect(d.socket_path, &sesame, &error) == 0);
    CHECK(sesame_rpc_sign_out(sesame, false, NULL, NULL, &error) == -1);
    CHECK(error.code == 4000 && error.reason == SESAME_REASON_REQUIRES_RESET_CONFIRMATION);
    CHECK(sesame_rpc_create_account(sesame, email, "correct horse battery", NULL, NULL, &error) == 0);
    sesame_state *state = NULL;
    CHECK(sesame_rpc_sign_out(sesame, false, NULL, &state, &error) == 0); /* an account: a new guest */
    CHECK(state != NULL && strcmp(state->status, "anonymous") == 0);
    sesame_free(state);
    CHECK(sesame_rpc_create_account(sesame, email, "another horse battery", NULL, NULL, &error) == -1);
    CHECK(error.code == 1000 && error.reason == SESAME_REASON_EMAIL_ALREADY_IN_USE);
    CHECK(strstr(error.data, email) != NULL && strstr(error.message, "horse") == NULL);
    CHECK(sesame_call(sesame, "noSuchMethod", NULL, NULL, &error) == -1);
    CHECK(error.code == -32601 && error.reason == SESAME_REASON_METHOD_NOT_FOUND);
    CHECK(sesame_call(sesame, "signIn", "{\"identifier\":42}", NULL, &error) == -1);
    CHECK(error.code == -32602 && error.reason == SESAME_REASON_INVALID_PARAMS);
    sesame_close(sesame);
    daemon_stop(&d);
}

static void the_snapshot_then_each_change_and_a_guest_upgraded(void) {
    daemon_process d;
    CHECK(daemon_start(&d, &emu, bin_dir) == 0);
    recorder r = {0};
    sesame_subscription_t *subscription = NULL;
    sesame_t *sesame = NULL;
    char email[128];
    unique_email(email, sizeof email, "c-upgrade");
    CHECK(sesame_subscribe(d.socket_path, 0, &CALLBACKS, &r, &subscription, NULL) == 0);
    CHECK(sesame_connect(d.socket_path, &sesame, NULL) == 0);
    int one = 1;
    CHECK(pump(subscription, &r, has_count, &one));
    CHECK_STR(r.states[0].reason, "snapshot");
    CHECK(r.states[0].anonymous);
    CHECK(sesame_subscription_state(subscription)->sequence == r.states[0].sequence);
    CHECK(sesame_rpc_create_account(sesame, email, "correct horse battery", NULL, NULL, NULL) == 0);
    CHECK(pump(subscription, &r, has_reason, "linked"));
    const seen_state *linked = &r.states[1];
    CHECK_STR(linked->reason, "linked"); /* the change right after the snapshot (a new token may follow) */
    CHECK_STR(linked->uid, r.states[0].uid); /* the guest's uid and data are kept */
    CHECK(!linked->anonymous && strcmp(linked->status, "authenticated") == 0);
    for (int i = 1; i < r.count; i++) CHECK(r.states[i].sequence == r.states[i - 1].sequence + 1);
    CHECK(r.errors == 0);
    sesame_unsubscribe(subscription);
    sesame_close(sesame);
    daemon_stop(&d);
}

static void a_daemon_restart_mid_stream_gives_nothing_stale_or_twice(void) {
    daemon_process d;
    CHECK(daemon_start(&d, &emu, bin_dir) == 0);
    recorder r = {0};
    sesame_subscription_t *subscription = NULL;
    sesame_t *sesame = NULL;
    CHECK(sesame_subscribe(d.socket_path, 0, &CALLBACKS, &r, &subscription, NULL) == 0);
    CHECK(sesame_connect(d.socket_path, &sesame, NULL) == 0);
    int one = 1, two = 2;
    CHECK(pump(subscription, &r, has_count, &one));
    sesame_hello *before = NULL, *after = NULL;
    CHECK(sesame_rpc_hello(sesame, NULL, &before, NULL) == 0);
    CHECK(daemon_restart(&d) == 0);
    sesame_error error;
    CHECK(sesame_rpc_hello(sesame, NULL, &after, &error) == 0); /* the handle reconnects by itself */
    CHECK(before && after && strcmp(before->instance, after->instance) != 0);
    CHECK(pump(subscription, &r, has_count, &two));
    CHECK_STR(r.states[1].reason, "snapshot");
    CHECK_STR(r.states[1].uid, r.states[0].uid); /* the keyring kept the session */
    CHECK(r.errors >= 1);                        /* the lost connection was reported */
    CHECK(sesame_rpc_sign_out(sesame, true, NULL, NULL, &error) == 0);
    CHECK(pump(subscription, &r, has_reason, "anonymous-created"));
    CHECK(has_reason(&r, "reset"));
    for (int i = 2; i < r.count; i++) CHECK(r.states[i].sequence == r.states[i - 1].sequence + 1);
    CHECK(strcmp(r.states[r.count - 1].uid, r.states[0].uid) != 0);
    sesame_free(before);
    sesame_free(after);
    sesame_unsubscribe(subscription);
    sesame_close(sesame);
    daemon_stop(&d);
}

static void a_merge_is_given_to_the_migrator_and_acknowledged(void) {
    daemon_process d;
    CHECK(daemon_start(&d, &emu, bin_dir) == 0);
    sesame_t *sesame = NULL;
    sesame_error error;
    char email[128];
    unique_email(email, sizeof email, "c-merge");
    CHECK(sesame_connect(d.socket_path, &sesame, &error) == 0);
    /* An account exists; the machine is back to a guest that then signs in to it. */
    CHECK(sesame_rpc_create_account(sesame, email, "correct horse battery", NULL, NULL, &error) == 0);
    CHECK(sesame_rpc_sign_out(sesame, false, NULL, NULL, &error) == 0);
    recorder r = {0};
    sesame_subscription_t *subscription = NULL;
    CHECK(sesame_subscribe(d.socket_path, SESAME_SUBSCRIBE_MIGRATOR, &CALLBACKS, &r, &subscription, NULL) == 0);
    int one = 1;
    CHECK(pump(subscription, &r, has_count, &one));
    const char *guest = r.states[0].uid;
    sesame_sign_in_result *result = NULL;
    CHECK(sesame_rpc_sign_in(sesame, email, "correct horse battery", &result, &error) == 0);
    CHECK(result != NULL && result->merge != NULL && strcmp(result->state->status, "authenticated") == 0);
    CHECK(result && result->merge && strcmp(result->merge->from_uid, guest) == 0);
    CHECK(pump(subscription, &r, has_merge, NULL));
    CHECK(pump(subscription, &r, has_reason, "merged"));
    CHECK(r.merges == 1 && result && result->merge && strcmp(r.merge_ids[0], result->merge->merge_id) == 0);
    sesame_state *state = NULL;
    CHECK(sesame_rpc_complete_merge(sesame, r.merge_ids[0], &state, &error) == 0);
    CHECK(state != NULL && state->pending_merge_count == 0);
    CHECK(sesame_rpc_complete_merge(sesame, r.merge_ids[0], NULL, &error) == -1);
    CHECK(error.code == 4000 && error.reason == SESAME_REASON_NO_SUCH_MERGE);
    sesame_free(state);
    sesame_free(result);
    sesame_unsubscribe(subscription);
    sesame_close(sesame);
    daemon_stop(&d);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BIN_DIR [EXAMPLE...]\n", argv[0]);
        return 2;
    }
    bin_dir = argv[1];
    if (emulator_start(&emu, bin_dir) != 0) return 1;
    RUN(a_token_and_the_greeting);
    RUN(errors_arrive_with_their_reasons);
    RUN(the_snapshot_then_each_change_and_a_guest_upgraded);
    RUN(a_daemon_restart_mid_stream_gives_nothing_stale_or_twice);
    RUN(a_merge_is_given_to_the_migrator_and_acknowledged);
    char *token_examples[8];
    int token_count = 0;
    for (int i = 2; i < argc; i++) {
        if (strstr(argv[i], "glib-watch") != NULL) {
            int before = check_failures;
            check_failures += the_glib_example_watches_the_state(&emu, bin_dir, argv[i]);
            printf("%s the_glib_example_watches_the_state\n", check_failures == before ? "ok  " : "FAIL");
        } else if (token_count < 8) {
            token_examples[token_count++] = argv[i];
        }
    }
    if (token_count > 0) {
        int before = check_failures;
        check_failures += examples_print_a_token(&emu, bin_dir, token_count, token_examples);
        printf("%s examples_print_a_token\n", check_failures == before ? "ok  " : "FAIL");
    }
    emulator_stop(&emu);
    printf("%d failures\n", check_failures);
    return check_failures ? 1 : 0;
}
