/* The state stream's rules, free of I/O, as tests/fixtures/stream-tracker.json states them:
 * within one daemon instance a state is given only when its sequence is newer than the last
 * one given; a gap asks for getState and holds what follows; a new instance starts over. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const STATE_EVENTS[] = {"authStateChanged", "idTokenChanged", "userUpdated",
                                           "connectivityChanged", "signInFlowChanged"};

struct held {
    char *method;
    json_object *params;
};

struct sesame__tracker {
    bool migrator;
    sesame__tracker_sink sink;
    char *instance;
    long long last_sequence;
    json_object *state;
    bool given;
    char *given_instance;
    long long given_sequence;
    char **given_merges;
    size_t given_merge_count;
    bool resyncing;
    struct held *held;
    size_t held_count;
};

sesame__tracker *sesame__tracker_new(bool migrator, sesame__tracker_sink sink) {
    sesame__tracker *tracker = calloc(1, sizeof *tracker);
    if (tracker != NULL) {
        tracker->migrator = migrator;
        tracker->sink = sink;
    }
    return tracker;
}

static void clear_held(sesame__tracker *tracker) {
    for (size_t i = 0; i < tracker->held_count; i++) {
        free(tracker->held[i].method);
        json_object_put(tracker->held[i].params);
    }
    free(tracker->held);
    tracker->held = NULL;
    tracker->held_count = 0;
}

void sesame__tracker_free(sesame__tracker *tracker) {
    if (tracker == NULL) return;
    clear_held(tracker);
    for (size_t i = 0; i < tracker->given_merge_count; i++) free(tracker->given_merges[i]);
    free(tracker->given_merges);
    json_object_put(tracker->state);
    free(tracker->instance);
    free(tracker->given_instance);
    free(tracker);
}

static bool same(const char *a, const char *b) {
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static char *copy(const char *text) {
    return text == NULL ? NULL : strdup(text);
}

void sesame__tracker_connected(sesame__tracker *tracker, const char *instance) {
    if (instance == NULL || !same(instance, tracker->instance)) {
        free(tracker->instance);
        tracker->instance = copy(instance);
        tracker->last_sequence = 0;
        json_object_put(tracker->state);
        tracker->state = NULL;
    }
    tracker->resyncing = false;
    clear_held(tracker);
}

static void offer(sesame__tracker *tracker, const char *reason) {
    long long sequence = sesame__member_int(tracker->state, "sequence", 0);
    if (tracker->given && same(tracker->given_instance, tracker->instance) && sequence <= tracker->given_sequence)
        return;
    tracker->given = true;
    free(tracker->given_instance);
    tracker->given_instance = copy(tracker->instance);
    tracker->given_sequence = sequence;
    if (tracker->sink.state != NULL) tracker->sink.state(tracker->sink.context, tracker->state, reason);
}

static void offer_merge(sesame__tracker *tracker, json_object *merge) {
    json_object *id = NULL;
    if (!tracker->migrator || !json_object_object_get_ex(merge, "mergeId", &id) || !json_object_is_type(id, json_type_string))
        return;
    for (size_t i = 0; i < tracker->given_merge_count; i++)
        if (strcmp(tracker->given_merges[i], json_object_get_string(id)) == 0) return;
    char **more = realloc(tracker->given_merges, sizeof(char *) * (tracker->given_merge_count + 1));
    if (more == NULL) return;
    tracker->given_merges = more;
    if ((more[tracker->given_merge_count] = strdup(json_object_get_string(id))) == NULL) return;
    tracker->given_merge_count++;
    if (tracker->sink.merge != NULL) tracker->sink.merge(tracker->sink.context, merge);
}

static json_object *deep_copy(json_object *json) {
    json_object *copied = NULL;
    return json_object_deep_copy(json, &copied, NULL) == 0 ? copied : NULL;
}

void sesame__tracker_snapshot(sesame__tracker *tracker, json_object *state, const char *reason) {
    if (state == NULL || !json_object_is_type(state, json_type_object)) return;
    long long sequence = sesame__member_int(state, "sequence", 0);
    if (tracker->state == NULL || tracker->last_sequence == 0 || sequence > tracker->last_sequence) {
        json_object *copied = deep_copy(state);
        if (copied == NULL) return;
        json_object_put(tracker->state);
        tracker->state = copied;
        tracker->last_sequence = sequence;
    }
    offer(tracker, reason);
    json_object *merges = NULL;
    if (tracker->migrator && json_object_object_get_ex(tracker->state, "pendingMerges", &merges) &&
        json_object_is_type(merges, json_type_array))
        for (size_t i = 0; i < json_object_array_length(merges); i++)
            offer_merge(tracker, json_object_array_get_idx(merges, i));
}

static void apply(sesame__tracker *tracker, const char *method, json_object *params, long long sequence) {
    tracker->last_sequence = sequence;
    json_object *next = NULL, *member = NULL;
    const char *reason = NULL;
    if (strcmp(method, "authStateChanged") == 0 || strcmp(method, "userUpdated") == 0 ||
        strcmp(method, "signInFlowChanged") == 0) {
        next = deep_copy(sesame__member_object(params, "state"));
        if (strcmp(method, "userUpdated") == 0) {
            reason = "user-updated";
        } else if (strcmp(method, "signInFlowChanged") == 0) {
            reason = "sign-in-flow-changed";
        } else {
            reason = json_object_object_get_ex(params, "reason", &member) && json_object_is_type(member, json_type_string)
                         ? json_object_get_string(member)
                         : "auth-state-changed";
        }
    } else if (strcmp(method, "idTokenChanged") == 0 && tracker->state != NULL) {
        next = deep_copy(tracker->state);
        json_object *token = next == NULL ? NULL : json_object_new_object();
        if (token != NULL) {
            json_object_object_get_ex(params, "expiresAt", &member);
            json_object_object_add(token, "expiresAt", json_object_get(member));
            json_object_object_add(next, "token", token);
        }
        reason = "token-refreshed";
    } else if (strcmp(method, "connectivityChanged") == 0 && tracker->state != NULL) {
        next = deep_copy(tracker->state);
        if (next != NULL) {
            json_object_object_get_ex(params, "connectivity", &member);
            json_object_object_add(next, "connectivity", json_object_get(member));
            member = NULL;
            json_object_object_get_ex(params, "rateLimit", &member);
            json_object_object_add(next, "rateLimit", json_object_get(member));
        }
        reason = "connectivity-changed";
    }
    if (next == NULL) return;
    json_object_object_add(next, "sequence", json_object_new_int64(sequence));
    json_object_put(tracker->state);
    tracker->state = next;
    offer(tracker, reason);
}

static bool is_state_event(const char *method) {
    for (size_t i = 0; i < sizeof STATE_EVENTS / sizeof STATE_EVENTS[0]; i++)
        if (strcmp(method, STATE_EVENTS[i]) == 0) return true;
    return false;
}

static void hold(sesame__tracker *tracker, const char *method, json_object *params) {
    struct held *more = realloc(tracker->held, sizeof(struct held) * (tracker->held_count + 1));
    if (more == NULL) return;
    tracker->held = more;
    more[tracker->held_count].method = strdup(method);
    more[tracker->held_count].params = json_object_get(params);
    if (more[tracker->held_count].method == NULL) {
        json_object_put(params);
        return;
    }
    tracker->held_count++;
}

bool sesame__tracker_notification(sesame__tracker *tracker, const char *method, json_object *params) {
    if (strcmp(method, "accountMerge") == 0) {
        json_object *merge = sesame__member_object(params, "merge");
        if (merge != NULL) offer_merge(tracker, merge);
        return false;
    }
    json_object *member = NULL;
    if (!is_state_event(method) || !json_object_object_get_ex(params, "sequence", &member) ||
        !json_object_is_type(member, json_type_int))
        return false;
    long long sequence = json_object_get_int64(member);
    if (tracker->resyncing) {
        hold(tracker, method, params);
        return false;
    }
    if (tracker->last_sequence != 0) {
        if (sequence <= tracker->last_sequence) return false;
        if (sequence > tracker->last_sequence + 1) {
            tracker->resyncing = true;
            hold(tracker, method, params);
            return true;
        }
    }
    apply(tracker, method, params, sequence);
    return false;
}

bool sesame__tracker_resynced(sesame__tracker *tracker, json_object *state) {
    tracker->resyncing = false;
    struct held *held = tracker->held;
    size_t count = tracker->held_count;
    tracker->held = NULL;
    tracker->held_count = 0;
    if (state != NULL)
        sesame__tracker_snapshot(tracker, state, "resynchronized");
    else if (count > 0)
        tracker->last_sequence = sesame__member_int(held[0].params, "sequence", 1) - 1;
    bool again = false;
    for (size_t i = 0; i < count; i++) {
        again = sesame__tracker_notification(tracker, held[i].method, held[i].params) || again;
        free(held[i].method);
        json_object_put(held[i].params);
    }
    free(held);
    return again;
}
