/* Subscriptions for any event loop: one epoll descriptor holds the connection and a timerfd
 * for reconnection, so the descriptor the caller watches never changes. Each connection says
 * hello, subscribes, and feeds the tracker; a lost connection is redialled with backoff (50 ms
 * doubling to 2 s, times a random 0.5...1). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

enum phase { DISCONNECTED, GREETING, SUBSCRIBING, SUBSCRIBED };
enum { HELLO_ID = 1, SUBSCRIBE_ID = 2, FIRST_BACKOFF_MS = 50, MAX_BACKOFF_MS = 2000 };

struct sesame_subscription {
    char *path;
    unsigned flags;
    sesame_callbacks callbacks;
    void *user_data;
    int epoll_fd, timer_fd, socket_fd;
    enum phase phase;
    sesame__lines lines;
    sesame__tracker *tracker;
    long long next_id, resync_from;   /* getState ids are resync_from...next_id-1 */
    int backoff_ms;
    unsigned seed;
    bool ended, outage_reported;
    int given;                        /* states and merges given in this dispatch */
    sesame_state *last;
};

static void give_state(void *context, json_object *json, const char *reason) {
    sesame_subscription_t *s = context;
    sesame_state *state = sesame__state_new(json, reason);
    if (state == NULL) return;
    sesame_free(s->last);
    s->last = state;
    s->given++;
    if (s->callbacks.on_state != NULL) s->callbacks.on_state(state, s->user_data);
}

static void give_merge(void *context, json_object *json) {
    sesame_subscription_t *s = context;
    sesame_merge *merge = sesame__merge_new(json);
    if (merge == NULL) return;
    s->given++;
    if (s->callbacks.on_merge != NULL) s->callbacks.on_merge(merge, s->user_data);
    sesame_free(merge);
}

static void report(sesame_subscription_t *s, sesame_reason reason, const char *message) {
    sesame_error error;
    sesame__fail(&error, reason, message);
    if (s->callbacks.on_error != NULL) s->callbacks.on_error(&error, s->user_data);
}

static void arm(sesame_subscription_t *s, long long delay_ms) {
    struct itimerspec when = {0};
    if (delay_ms < 1) delay_ms = 1;
    when.it_value.tv_sec = delay_ms / 1000;
    when.it_value.tv_nsec = (delay_ms % 1000) * 1000000L;
    timerfd_settime(s->timer_fd, 0, &when, NULL);
}

static void schedule_reconnect(sesame_subscription_t *s) {
    long long delay = (long long)s->backoff_ms * (500 + rand_r(&s->seed) % 501) / 1000;
    s->backoff_ms = s->backoff_ms * 2 > MAX_BACKOFF_MS ? MAX_BACKOFF_MS : s->backoff_ms * 2;
    arm(s, delay);
}

static void disconnect(sesame_subscription_t *s) {
    if (s->socket_fd >= 0) {
        epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, s->socket_fd, NULL);
        close(s->socket_fd);
    }
    s->socket_fd = -1;
    s->phase = DISCONNECTED;
    sesame__lines_clear(&s->lines);
}

static void lost(sesame_subscription_t *s, const char *message) {
    disconnect(s);
    if (!s->outage_reported) {
        s->outage_reported = true;
        report(s, SESAME_REASON_CONNECTION_LOST, message);
    }
    schedule_reconnect(s);
}

static bool send_request(sesame_subscription_t *s, long long id, const char *method, json_object *params) {
    size_t length = 0;
    char *line = sesame__encode_request(id, method, params, &length);
    json_object_put(params);
    if (line == NULL) return false;
    const char *cursor = line;
    while (length > 0) {
        ssize_t sent = send(s->socket_fd, cursor, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) break;
        cursor += sent;
        length -= (size_t)sent;
    }
    free(line);
    if (length > 0) lost(s, "the connection to sesamed closed");
    return length == 0;
}

/* Watches the new connection and says hello. */
static void greet(sesame_subscription_t *s) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = s->socket_fd};
    epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, s->socket_fd, &event);
    s->phase = GREETING;
    json_object *params = json_object_new_object();
    json_object_object_add(params, "client", json_object_new_string("libsesame"));
    send_request(s, HELLO_ID, "hello", params);
}

static void dial(sesame_subscription_t *s) {
    s->socket_fd = sesame__dial(s->path, true);
    if (s->socket_fd < 0)
        lost(s, "sesamed is not running: waiting for it");
    else
        greet(s);
}

static void ask_state(sesame_subscription_t *s) {
    send_request(s, s->next_id++, "getState", NULL);
}

static void subscribe(sesame_subscription_t *s) {
    json_object *params = json_object_new_object();
    if (s->flags & SESAME_SUBSCRIBE_MIGRATOR) {
        const char *events[] = {"authStateChanged", "idTokenChanged", "userUpdated", "connectivityChanged",
                                "signInFlowChanged", "accountMerge", "shutdown", NULL};
        json_object_object_add(params, "migrator", json_object_new_boolean(true));
        sesame__put_strings(params, "events", events);
    }
    s->phase = SUBSCRIBING;
    send_request(s, SUBSCRIBE_ID, "subscribe", params);
}

static void answer(sesame_subscription_t *s, long long id, json_object *message) {
    json_object *result = NULL, *wire_error = sesame__member_object(message, "error");
    json_object_object_get_ex(message, "result", &result);
    if (id == HELLO_ID && s->phase == GREETING) {
        json_object *instance = NULL;
        json_object_object_get_ex(result, "instance", &instance);
        sesame__tracker_connected(s->tracker,
                                  json_object_is_type(instance, json_type_string) ? json_object_get_string(instance) : NULL);
        subscribe(s);
    } else if (id == SUBSCRIBE_ID && s->phase == SUBSCRIBING) {
        if (wire_error != NULL) {
            sesame_error error;
            sesame__error_from_wire(&error, wire_error);
            if (error.reason != SESAME_REASON_PERMISSION_DENIED && error.reason != SESAME_REASON_INVALID_PARAMS) {
                lost(s, error.message); /* too-many-connections and the like: try again later */
                return;
            }
            disconnect(s);
            s->ended = true;
            if (s->callbacks.on_error != NULL) s->callbacks.on_error(&error, s->user_data);
            return;
        }
        s->phase = SUBSCRIBED;
        s->backoff_ms = FIRST_BACKOFF_MS;
        s->outage_reported = false;
        sesame__tracker_snapshot(s->tracker, sesame__member_object(result, "state"), "snapshot");
    } else if (id >= s->resync_from && id < s->next_id) {
        if (sesame__tracker_resynced(s->tracker, wire_error == NULL ? result : NULL)) ask_state(s);
    }
}

static void handle(sesame_subscription_t *s, const char *line) {
    json_object *message = json_tokener_parse(line);
    json_object *id = NULL, *method = NULL;
    if (message == NULL || !json_object_is_type(message, json_type_object)) {
        json_object_put(message);
        return;
    }
    if (!json_object_object_get_ex(message, "id", &id)) {
        json_object *params = sesame__member_object(message, "params");
        if (json_object_object_get_ex(message, "method", &method) && json_object_is_type(method, json_type_string) &&
            params != NULL && sesame__tracker_notification(s->tracker, json_object_get_string(method), params))
            ask_state(s);
    } else if (json_object_is_type(id, json_type_int)) {
        answer(s, json_object_get_int64(id), message);
    }
    json_object_put(message);
}

int sesame_subscribe(const char *socket_path, unsigned flags, const sesame_callbacks *callbacks,
                     void *user_data, sesame_subscription_t **out, sesame_error *error) {
    char found[4096];
    if (out == NULL || callbacks == NULL) return sesame__invalid_argument(error, "sesame_subscribe: out or callbacks is NULL");
    *out = NULL;
    if (socket_path == NULL) {
        if (sesame_resolve_socket_path(found, sizeof found) != 0)
            return sesame__invalid_argument(error, "the socket path is too long");
        socket_path = found;
    }
    sesame_subscription_t *s = calloc(1, sizeof *s);
    if (s == NULL) return sesame__oom(error);
    s->epoll_fd = s->timer_fd = s->socket_fd = -1;
    s->callbacks = *callbacks;
    s->user_data = user_data;
    s->flags = flags;
    s->next_id = s->resync_from = SUBSCRIBE_ID + 1;
    s->backoff_ms = FIRST_BACKOFF_MS;
    s->seed = (unsigned)time(NULL) ^ (unsigned)getpid() ^ (unsigned)(size_t)s;
    s->path = strdup(socket_path);
    s->tracker = sesame__tracker_new(flags & SESAME_SUBSCRIBE_MIGRATOR,
                                     (sesame__tracker_sink){.state = give_state, .merge = give_merge, .context = s});
    s->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.fd = s->timer_fd};
    if (s->path == NULL || s->tracker == NULL || s->epoll_fd < 0 || s->timer_fd < 0 ||
        epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, s->timer_fd, &event) != 0) {
        sesame_unsubscribe(s);
        return sesame__oom(error);
    }
    /* Dial now when the daemon is there; else the first dispatch reports it and keeps trying. */
    s->socket_fd = sesame__dial(s->path, true);
    if (s->socket_fd >= 0)
        greet(s);
    else
        arm(s, 1);
    *out = s;
    return 0;
}

int sesame_subscription_fd(const sesame_subscription_t *s) {
    return s->epoll_fd;
}

const sesame_state *sesame_subscription_state(const sesame_subscription_t *s) {
    return s->last;
}

int sesame_dispatch(sesame_subscription_t *s) {
    if (s->ended) return -1;
    s->given = 0;
    unsigned long long expirations = 0;
    if (read(s->timer_fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations && s->socket_fd < 0) dial(s);
    while (s->socket_fd >= 0 && !s->ended) {
        bool overflow = false;
        char *line;
        while (s->socket_fd >= 0 && !s->ended && (line = sesame__lines_next(&s->lines, &overflow)) != NULL) handle(s, line);
        if (s->socket_fd < 0 || s->ended) break;
        if (overflow) {
            lost(s, "sesamed sent a line longer than the protocol allows");
            break;
        }
        long got = sesame__lines_read(&s->lines, s->socket_fd);
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (got <= 0) lost(s, "the connection to sesamed closed (the daemon stopped or restarted): reconnecting");
    }
    return s->ended ? -1 : s->given;
}

void sesame_unsubscribe(sesame_subscription_t *s) {
    if (s == NULL) return;
    disconnect(s);
    if (s->timer_fd >= 0) close(s->timer_fd);
    if (s->epoll_fd >= 0) close(s->epoll_fd);
    sesame__tracker_free(s->tracker);
    sesame__lines_free(&s->lines);
    sesame_free(s->last);
    free(s->path);
    free(s);
}
