/* A connection for calls: discovery, connecting, one request at a time with its answer matched
 * by id, reconnection on the next call after the connection dropped. */
#include <errno.h>
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
    char *request;            /* the request line being sent, reused */
    size_t request_capacity;
    json_tokener *tokener;    /* reused for answers that become objects */
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
    if (number == EACCES)
        snprintf(message, sizeof message, "permission denied on %s: join group sesame (its members may use the machine's session)", path);
    else if (number == ENOENT || number == ECONNREFUSED)
        snprintf(message, sizeof message, "sesamed is not running (nothing listens on %s): start it (systemctl start sesamed)", path);
    else
        snprintf(message, sizeof message, "cannot connect to %s: %s", path, strerror(number));
    return sesame__fail(error, SESAME_REASON_DAEMON_UNAVAILABLE, message);
}

/* Reads wait at most the timeout (SO_RCVTIMEO), so a call needs no poll before its read. */
static void apply_timeout(sesame_t *sesame) {
    struct timeval limit = {.tv_sec = sesame->timeout_ms / 1000, .tv_usec = (sesame->timeout_ms % 1000) * 1000};
    if (sesame->fd >= 0) setsockopt(sesame->fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
}

static int dial(sesame_t *sesame, sesame_error *error) {
    sesame->fd = sesame__dial(sesame->path, false);
    sesame__lines_clear(&sesame->lines);
    if (sesame->fd < 0) return unavailable(error, sesame->path, errno);
    apply_timeout(sesame);
    return 0;
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
    if (sesame == NULL || (sesame->path = strdup(socket_path)) == NULL || (sesame->tokener = json_tokener_new()) == NULL) {
        if (sesame != NULL) free(sesame->path);
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
    json_tokener_free(sesame->tokener);
    free(sesame->request);
    free(sesame->path);
    free(sesame);
}

const char *sesame_socket_path(const sesame_t *sesame) {
    return sesame->path;
}

void sesame_set_timeout(sesame_t *sesame, int milliseconds) {
    sesame->timeout_ms = milliseconds < 0 ? 0 : milliseconds;
    apply_timeout(sesame);
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

/* Reads until the answer with `id`: ANSWERED with its result's text, FAILED (error set: the
 * daemon's error, a timeout, a broken stream) or CLOSED. */
static enum outcome await_answer(sesame_t *sesame, long long id, long long deadline, const char **result,
                                 const char **result_end, sesame_error *error) {
    for (;;) {
        bool overflow = false;
        char *line;
        while ((line = sesame__lines_next(&sesame->lines, &overflow)) != NULL) {
            static const char *const KEYS[] = {"id", "result", "error"};
            sesame__span members[3];
            long long answered = 0;
            if (sesame__scan_members(line, line + strlen(line), KEYS, 3, members) < 1 || members[0].start == NULL ||
                !sesame__scan_integer(members[0].start, members[0].end, &answered) || answered != id)
                continue; /* a notification, or the answer to an abandoned call */
            if (members[2].start != NULL) {
                json_object *wire = json_tokener_parse(line);
                sesame__error_from_wire(error, sesame__member_object(wire, "error"));
                json_object_put(wire);
                return FAILED;
            }
            if (members[1].start != NULL) {
                *result = members[1].start;
                *result_end = members[1].end;
                return ANSWERED;
            }
            sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer has neither result nor error");
            return FAILED;
        }
        if (overflow) {
            drop(sesame);
            sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon sent a line longer than the protocol allows");
            return FAILED;
        }
        long got = sesame__lines_read(&sesame->lines, sesame->fd);
        if (got > 0 || (got < 0 && errno == EINTR)) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (deadline > 0 && now_ms() >= deadline) {
                drop(sesame); /* its answer may still come: a new connection keeps ids simple */
                sesame__fail(error, SESAME_REASON_TIMEOUT, "sesamed did not answer in time");
                return FAILED;
            }
            continue;
        }
        return CLOSED;
    }
}

static char *append(char *out, const char *text, size_t length) {
    memcpy(out, text, length);
    return out + length;
}

/* The request line {"jsonrpc":"2.0","id":ID,"method":METHOD,"params":PARAMS}\n in the handle's
 * buffer, put together by hand: snprintf alone would cost a third of a token call. */
static bool encode(sesame_t *sesame, long long id, const char *method, const char *params_text, size_t *length) {
    static const char HEAD[] = "{\"jsonrpc\":\"2.0\",\"id\":", METHOD[] = ",\"method\":\"", PARAMS[] = "\",\"params\":";
    size_t method_length = strlen(method), params_length = params_text ? strlen(params_text) : 0;
    size_t need = sizeof HEAD + sizeof METHOD + sizeof PARAMS + method_length + params_length + 32;
    if (need > sesame->request_capacity) {
        char *larger = realloc(sesame->request, need);
        if (larger == NULL) return false;
        sesame->request = larger;
        sesame->request_capacity = need;
    }
    char digits[24], *d = digits + sizeof digits;
    unsigned long long value = id < 0 ? 0 : (unsigned long long)id;
    do {
        *--d = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    char *out = append(sesame->request, HEAD, sizeof HEAD - 1);
    out = append(out, d, (size_t)(digits + sizeof digits - d));
    out = append(out, METHOD, sizeof METHOD - 1);
    out = append(out, method, method_length);
    if (params_text != NULL) {
        out = append(out, PARAMS, sizeof PARAMS - 1);
        out = append(out, params_text, params_length);
    } else {
        *out++ = '"';
    }
    out = append(out, "}\n", 2);
    *length = (size_t)(out - sesame->request);
    return true;
}

int sesame__exchange(sesame_t *sesame, const char *method, const char *params_text, bool retryable,
                     double extra_wait_ms, const char **result, const char **result_end, sesame_error *error) {
    if (sesame == NULL) return sesame__invalid_argument(error, "the sesame handle is NULL");
    for (int attempt = 0; attempt < 2; attempt++) {
        if (sesame->fd < 0 && dial(sesame, error) != 0) return -1;
        long long id = sesame->next_id++;
        size_t length = 0;
        if (!encode(sesame, id, method, params_text, &length)) return sesame__oom(error);
        if (!send_all(sesame->fd, sesame->request, length)) {
            drop(sesame); /* the daemon closed this connection before reading: safe to send again */
            if (attempt == 1) sesame__fail(error, SESAME_REASON_CONNECTION_LOST, "the connection to sesamed closed while sending");
            continue;
        }
        long long deadline = sesame->timeout_ms > 0 ? now_ms() + sesame->timeout_ms + (long long)extra_wait_ms : 0;
        enum outcome outcome = await_answer(sesame, id, deadline, result, result_end, error);
        if (outcome == ANSWERED) return 0;
        if (outcome == FAILED) return -1;
        drop(sesame);
        if (retryable && attempt == 0) continue;
        return sesame__fail(error, SESAME_REASON_CONNECTION_LOST,
                            "the connection to sesamed closed before its answer (the daemon restarted?): the call may or may not have taken effect");
    }
    return -1;
}

int sesame__request(sesame_t *sesame, const char *method, json_object *params, bool retryable,
                    double extra_wait_ms, json_object **answer, sesame_error *error) {
    const char *result = NULL, *result_end = NULL;
    *answer = NULL;
    int status = sesame__exchange(sesame, method, params ? sesame__json_text(params) : NULL, retryable, extra_wait_ms,
                                  &result, &result_end, error);
    json_object_put(params);
    if (status != 0) return -1;
    json_tokener_reset(sesame->tokener);
    *answer = json_tokener_parse_ex(sesame->tokener, result, (int)(result_end - result));
    if (*answer == NULL && json_tokener_get_error(sesame->tokener) == json_tokener_success) return 0; /* null */
    if (json_tokener_get_error(sesame->tokener) != json_tokener_success) {
        json_object_put(*answer);
        *answer = NULL;
        return sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer is not valid JSON");
    }
    return 0;
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
