/* Line framing and sockets: one JSON message per line (docs/protocol.md, "Framing"). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "internal.h"

/* The daemon's lines are at most 1 MiB; a longer unfinished line is a broken stream. */
enum { LINE_LIMIT = 1024 * 1024 + 1024, READ_SIZE = 65536 };

long sesame__lines_read(sesame__lines *lines, int fd) {
    if (lines->start > 0 && (lines->start == lines->length || lines->capacity - lines->length < READ_SIZE)) {
        memmove(lines->data, lines->data + lines->start, lines->length - lines->start);
        lines->length -= lines->start;
        lines->start = 0;
    }
    if (lines->capacity - lines->length < READ_SIZE) {
        size_t capacity = lines->capacity == 0 ? READ_SIZE * 2 : lines->capacity * 2;
        char *data = realloc(lines->data, capacity);
        if (data == NULL) {
            errno = ENOMEM;
            return -1;
        }
        lines->data = data;
        lines->capacity = capacity;
    }
    ssize_t count;
    do {
        count = read(fd, lines->data + lines->length, lines->capacity - lines->length - 1);
    } while (count < 0 && errno == EINTR);
    if (count > 0) lines->length += (size_t)count;
    return (long)count;
}

char *sesame__lines_next(sesame__lines *lines, bool *overflow) {
    *overflow = false;
    while (lines->start < lines->length) {
        char *begin = lines->data + lines->start;
        char *end = memchr(begin, '\n', lines->length - lines->start);
        if (end == NULL) {
            *overflow = lines->length - lines->start > LINE_LIMIT;
            return NULL;
        }
        *end = '\0';
        lines->start = (size_t)(end - lines->data) + 1;
        if (end > begin && end[-1] == '\r') end[-1] = '\0';
        if (*begin != '\0') return begin;
    }
    return NULL;
}

void sesame__lines_clear(sesame__lines *lines) {
    lines->start = lines->length = 0;
}

void sesame__lines_free(sesame__lines *lines) {
    free(lines->data);
    *lines = (sesame__lines){0};
}

int sesame__dial(const char *path, bool nonblocking) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) return -1;
    int status;
    do {
        status = connect(fd, (struct sockaddr *)&address, sizeof address);
    } while (status != 0 && errno == EINTR);
    if (status != 0 && errno != EINPROGRESS) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

char *sesame__encode_request(long long id, const char *method, json_object *params, size_t *length) {
    json_object *request = json_object_new_object();
    if (request == NULL) return NULL;
    json_object_object_add(request, "jsonrpc", json_object_new_string("2.0"));
    json_object_object_add(request, "id", json_object_new_int64(id));
    json_object_object_add(request, "method", json_object_new_string(method));
    if (params != NULL) json_object_object_add(request, "params", json_object_get(params));
    const char *text = sesame__json_text(request);
    size_t size = strlen(text);
    char *line = malloc(size + 2);
    if (line != NULL) {
        memcpy(line, text, size);
        line[size] = '\n';
        line[size + 1] = '\0';
        *length = size + 1;
    }
    json_object_put(request);
    return line;
}
