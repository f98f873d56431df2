/* A connection for calls: discovery, connecting, one request at a time with its answer matched
 * by id, reconnection on the next call after the connection dropped. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct sesame {
    int fd;
    char *path;
    int timeout_ms;
    long long next_id;
    sesame__lines lines;
};

static const char SYSTEM_SOCKET[] = "/run/sesame/sesamed.sock";

int sesame_resolve_socket_path(char *buffer, size_t size) {
    const char *explicit = getenv("SESAME_SOCKET");
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    int written;
    if (explicit != NULL && *explicit != '\0') {
        written = snprintf(buffer, size, "%s", explicit);
    } else {
        written = -1;
        if (runtime != NULL && *runtime != '\0') {
            size_t length = strlen(runtime);
            while (length > 1 && runtime[length - 1] == '/') length--;
            written = snprintf(buffer, size, "%.*s/sesame/sesamed.sock", (int)length, runtime);
            if (written >= 0 && (size_t)written < size && access(buffer, F_OK) != 0) written = -1;
        }
        if (written < 0) written = snprintf(buffer, size, "%s", SYSTEM_SOCKET);
    }
    return written < 0 || (size_t)written >= size ? -1 : 0;
}

static int unavailable(sesame_error *error, const char *path, int number) {
    char message[512];
    if (number == ENOENT || number == ECONNREFUSED)
        snprintf(message, sizeof message, "sesamed is not running (nothing listens on %s): start it (systemctl start sesamed)", path);
    else
        snprintf(message, sizeof message, "cannot connect to %s: %s", path, strerror(number));
    return sesame__fail(error, SESAME_REASON_DAEMON_UNAVAILABLE, message);
}

static int dial(sesame_t *sesame, sesame_error *error) {
    sesame->fd = sesame__dial(sesame->path, false);
    sesame__lines_clear(&sesame->lines);
    return sesame->fd < 0 ? unavailable(error, sesame->path, errno) : 0;
}

int sesame_connect(const char *socket_path, sesame_t **out, sesame_error *error) {
    char found[4096];
    if (out == NULL) return sesame__invalid_argument(error, "sesame_connect: out is NULL");
    *out = NULL;
    if (socket_path == NULL) {
        if (sesame_resolve_socket_path(found, sizeof found) != 0)
            return sesame__invalid_argument(error, "the socket path is too long");
        socket_path = found;
    }
    sesame_t *sesame = calloc(1, sizeof *sesame);
    if (sesame == NULL || (sesame->path = strdup(socket_path)) == NULL) {
        free(sesame);
        return sesame__oom(error);
    }
    sesame->timeout_ms = 60000;
    sesame->next_id = 1;
    if (dial(sesame, error) != 0) {
        sesame_close(sesame);
        return -1;
    }
    *out = sesame;
    return 0;
}

void sesame_close(sesame_t *sesame) {
    if (sesame == NULL) return;
    if (sesame->fd >= 0) close(sesame->fd);
    sesame__lines_free(&sesame->lines);
    free(sesame->path);
    free(sesame);
}

const char *sesame_socket_path(const sesame_t *sesame) {
    return sesame->path;
}

void sesame_set_timeout(sesame_t *sesame, int milliseconds) {
    sesame->timeout_ms = milliseconds < 0 ? 0 : milliseconds;
}

static void drop(sesame_t *sesame) {
    if (sesame->fd >= 0) close(sesame->fd);
    sesame->fd = -1;
    sesame__lines_clear(&sesame->lines);
}

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static bool send_all(int fd, const char *data, size_t length) {
    while (length > 0) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return false;
        data += sent;
        length -= (size_t)sent;
    }
    return true;
}

enum outcome { ANSWERED, FAILED, CLOSED };

/* Reads until the answer with `id`: ANSWERED (*message set), FAILED (error set) or CLOSED. */
static enum outcome await_answer(sesame_t *sesame, long long id, long long deadline, json_object **message,
                                 sesame_error *error) {
    for (;;) {
        bool overflow = false;
        char *line;
        while ((line = sesame__lines_next(&sesame->lines, &overflow)) != NULL) {
            json_object *parsed = json_tokener_parse(line);
            json_object *answer_id = NULL;
            if (parsed != NULL && json_object_is_type(parsed, json_type_object) &&
                json_object_object_get_ex(parsed, "id", &answer_id) && json_object_is_type(answer_id, json_type_int) &&
                json_object_get_int64(answer_id) == id) {
                *message = parsed;
                return ANSWERED;
            }
            json_object_put(parsed); /* a notification, or the answer to an abandoned call */
        }
        if (overflow) {
            drop(sesame);
            sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon sent a line longer than the protocol allows");
            return FAILED;
        }
        int wait = -1;
        if (deadline > 0) {
            long long left = deadline - now_ms();
            if (left <= 0) {
                drop(sesame); /* its answer may still come: a new connection keeps ids simple */
                sesame__fail(error, SESAME_REASON_TIMEOUT, "sesamed did not answer in time");
                return FAILED;
            }
            wait = left > 1000000 ? 1000000 : (int)left;
        }
        struct pollfd ready = {.fd = sesame->fd, .events = POLLIN};
        int count = poll(&ready, 1, wait);
        if (count < 0 && errno != EINTR) return CLOSED;
        if (count <= 0) continue;
        long got = sesame__lines_read(&sesame->lines, sesame->fd);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) return CLOSED;
    }
}

int sesame__request(sesame_t *sesame, const char *method, json_object *params, bool retryable,
                    double extra_wait_ms, json_object **answer, sesame_error *error) {
    int status = -1;
    *answer = NULL;
    if (sesame == NULL) {
        json_object_put(params);
        return sesame__invalid_argument(error, "the sesame handle is NULL");
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (sesame->fd < 0 && dial(sesame, error) != 0) break;
        long long id = sesame->next_id++;
        size_t length = 0;
        char *line = sesame__encode_request(id, method, params, &length);
        if (line == NULL) {
            sesame__oom(error);
            break;
        }
        bool sent = send_all(sesame->fd, line, length);
        free(line);
        if (!sent) {
            drop(sesame); /* the daemon closed this connection before reading: safe to send again */
            if (attempt == 1) sesame__fail(error, SESAME_REASON_CONNECTION_LOST, "the connection to sesamed closed while sending");
            continue;
        }
        long long deadline = sesame->timeout_ms > 0 ? now_ms() + sesame->timeout_ms + (long long)extra_wait_ms : 0;
        json_object *message = NULL;
        enum outcome outcome = await_answer(sesame, id, deadline, &message, error);
        if (outcome == FAILED) break;
        if (outcome == CLOSED) {
            drop(sesame);
            if (retryable && attempt == 0) continue;
            sesame__fail(error, SESAME_REASON_CONNECTION_LOST,
                         "the connection to sesamed closed before its answer (the daemon restarted?): the call may or may not have taken effect");
            break;
        }
        json_object *wire_error = sesame__member_object(message, "error");
        json_object *result = NULL;
        if (wire_error != NULL) {
            sesame__error_from_wire(error, wire_error);
        } else if (json_object_object_get_ex(message, "result", &result)) {
            *answer = json_object_get(result);
            status = 0;
        } else {
            sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer has neither result nor error");
        }
        json_object_put(message);
        break;
    }
    json_object_put(params);
    return status;
}

int sesame_call(sesame_t *sesame, const char *method, const char *params_json, char **result_json,
                sesame_error *error) {
    if (method == NULL) return sesame__invalid_argument(error, "sesame_call: method is NULL");
    json_object *params = NULL;
    if (params_json != NULL) {
        enum json_tokener_error failure = json_tokener_success;
        params = json_tokener_parse_verbose(params_json, &failure);
        if (failure != json_tokener_success || !json_object_is_type(params, json_type_object)) {
            json_object_put(params);
            return sesame__invalid_argument(error, "sesame_call: params_json is not a JSON object");
        }
    }
    json_object *answer = NULL;
    if (sesame__request(sesame, method, params, false, 0, &answer, error) != 0) return -1;
    return sesame__json_result(answer, result_json, error);
}
