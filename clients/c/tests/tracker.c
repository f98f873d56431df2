/* The shared tracker table (tests/fixtures/stream-tracker.json) run against libsesame's tracker:
 * the same rows the Node, Python and Swift clients' trackers run, so the clients cannot drift.
 * Usage: test-tracker FIXTURE */
#include <stdlib.h>

#include "check.h"
#include "internal.h"

struct given {
    sesame_state *states[16];
    int count;
};

static void collect(void *context, json_object *state, const char *reason) {
    struct given *given = context;
    if (given->count < 16) given->states[given->count++] = sesame__state_new(state, reason);
}

/* base, then the step's fields (a shallow merge), as the table says. */
static json_object *full_state(json_object *base, json_object *partial) {
    if (partial == NULL || json_object_is_type(partial, json_type_null)) return NULL;
    json_object *state = NULL;
    json_object_deep_copy(base, &state, NULL);
    json_object_object_foreach(partial, key, value) json_object_object_add(state, key, json_object_get(value));
    return state;
}

static const char *text(json_object *value) {
    return value == NULL || json_object_is_type(value, json_type_null) ? NULL : json_object_get_string(value);
}

static bool matches(const sesame_state *state, json_object *wanted, const char *where) {
    bool ok = true;
    json_object_object_foreach(wanted, key, value) {
        const char *actual = NULL;
        char number[32];
        if (strcmp(key, "sequence") == 0) {
            snprintf(number, sizeof number, "%lld", state->sequence);
            actual = number;
        } else if (strcmp(key, "reason") == 0) {
            actual = state->reason;
        } else if (strcmp(key, "status") == 0) {
            actual = state->status;
        } else if (strcmp(key, "uid") == 0) {
            actual = state->user ? state->user->uid : NULL;
        } else if (strcmp(key, "connectivity") == 0) {
            actual = state->connectivity;
        } else if (strcmp(key, "tokenExpiresAt") == 0) {
            actual = state->token_expires_at;
        } else if (strcmp(key, "rateLimitOperation") == 0) {
            actual = state->rate_limit ? state->rate_limit->operation : NULL;
        } else {
            fprintf(stderr, "%s: the table names a field this test does not know: %s\n", where, key);
            return false;
        }
        const char *expected = text(value);
        if ((actual == NULL) != (expected == NULL) || (actual && strcmp(actual, expected) != 0)) {
            fprintf(stderr, "%s: %s is %s, expected %s\n", where, key, actual ? actual : "null", expected ? expected : "null");
            ok = false;
        }
    }
    return ok;
}

static int run_case(json_object *base, json_object *test) {
    struct given given = {0};
    sesame__tracker *tracker = sesame__tracker_new(false, (sesame__tracker_sink){.state = collect, .context = &given});
    json_object *steps = json_object_object_get(test, "steps");
    const char *name = json_object_get_string(json_object_object_get(test, "name"));
    int failures = 0;
    for (size_t i = 0; i < json_object_array_length(steps); i++) {
        json_object *step = json_object_array_get_idx(steps, i);
        const char *op = json_object_get_string(json_object_object_get(step, "op"));
        char where[512];
        snprintf(where, sizeof where, "%s, step %zu (%s)", name, i, op);
        bool resync = false;
        given.count = 0;
        if (strcmp(op, "connect") == 0) {
            sesame__tracker_connected(tracker, text(json_object_object_get(step, "instance")));
        } else if (strcmp(op, "snapshot") == 0 || strcmp(op, "resynced") == 0) {
            json_object *state = full_state(base, json_object_object_get(step, "state"));
            if (op[0] == 's')
                sesame__tracker_snapshot(tracker, state, "snapshot");
            else
                resync = sesame__tracker_resynced(tracker, state);
            json_object_put(state);
        } else {
            json_object *params = NULL;
            json_object_deep_copy(json_object_object_get(step, "params"), &params, NULL);
            json_object *partial = json_object_object_get(params, "state");
            if (partial != NULL && json_object_is_type(partial, json_type_object))
                json_object_object_add(params, "state", full_state(base, partial));
            resync = sesame__tracker_notification(tracker, json_object_get_string(json_object_object_get(step, "method")), params);
            json_object_put(params);
        }
        json_object *expect = json_object_object_get(step, "expect");
        int wanted = expect ? (int)json_object_array_length(expect) : 0;
        if (given.count != wanted) {
            fprintf(stderr, "%s: gave %d states, expected %d\n", where, given.count, wanted);
            failures++;
        }
        for (int k = 0; k < given.count && k < wanted; k++)
            if (!matches(given.states[k], json_object_array_get_idx(expect, (size_t)k), where)) failures++;
        json_object *expected_resync = json_object_object_get(step, "resync");
        if (resync != (expected_resync != NULL && json_object_get_boolean(expected_resync))) {
            fprintf(stderr, "%s: resync is %d\n", where, resync);
            failures++;
        }
        for (int k = 0; k < given.count; k++) sesame_free(given.states[k]);
    }
    sesame__tracker_free(tracker);
    printf("%s tracker: %s\n", failures ? "FAIL" : "ok  ", name);
    return failures;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s tests/fixtures/stream-tracker.json\n", argv[0]);
        return 2;
    }
    json_object *fixture = json_object_from_file(argv[1]);
    if (fixture == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    json_object *base = json_object_object_get(fixture, "base");
    json_object *cases = json_object_object_get(fixture, "cases");
    int failures = 0;
    for (size_t i = 0; i < json_object_array_length(cases); i++) failures += run_case(base, json_object_array_get_idx(cases, i));
    /* The table covers every rule (as the other clients' tests check). */
    const char *rules[] = {"snapshot comes first", "gap", "new instance", "no duplicates"};
    for (size_t r = 0; r < 4; r++) {
        bool found = false;
        for (size_t i = 0; i < json_object_array_length(cases); i++)
            found = found || strstr(json_object_get_string(json_object_object_get(json_object_array_get_idx(cases, i), "name")), rules[r]);
        if (!found) {
            fprintf(stderr, "the table has no case about: %s\n", rules[r]);
            failures++;
        }
    }
    printf("%zu cases, %d failures\n", json_object_array_length(cases), failures);
    json_object_put(fixture);
    return failures ? 1 : 0;
}
