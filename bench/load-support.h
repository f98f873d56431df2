/* Small helpers shared by sesame-load's modes: clocks, sockets, line reading. */
#ifndef SESAME_LOAD_SUPPORT_H
#define SESAME_LOAD_SUPPORT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define LINE_CAPACITY 65536

struct peer {
    int fd;
    int seen;
    double sent_at;
    size_t line_length; /* bytes of the current line kept for marker matching */
    char line[LINE_CAPACITY];
};

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 + (double)usage.ru_stime.tv_sec +
           (double)usage.ru_stime.tv_usec * 1e-6;
}

static inline void raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

static inline int fail(const char *what) {
    fprintf(stderr, "sesame-load: %s: %s\n", what, errno ? strerror(errno) : "failed");
    return 1;
}

static inline int connect_to(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(address.sun_path)) return -1;
    strcpy(address.sun_path, path);
    for (int attempt = 0; attempt < 200; attempt++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        if (connect(fd, (struct sockaddr *)&address, sizeof(address)) == 0) return fd;
        close(fd);
        if (errno != EAGAIN && errno != ECONNREFUSED) return -1;
        usleep(1000); /* the listen backlog is full: let the server accept */
    }
    return -1;
}

/* Sends `template` with every `placeholder` replaced by `value`, and a newline. */
static inline void send_line(int fd, const char *template, const char *placeholder, long value) {
    char line[4096];
    int length = 0;
    size_t skip = strlen(placeholder);
    for (const char *at = template; *at && length < (int)sizeof(line) - 32;) {
        if (strncmp(at, placeholder, skip) == 0) {
            length += snprintf(line + length, sizeof(line) - (size_t)length, "%ld", value);
            at += skip;
        } else {
            line[length++] = *at++;
        }
    }
    line[length++] = '\n';
    for (int sent = 0; sent < length;) {
        ssize_t n = write(fd, line + sent, (size_t)(length - sent));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return;
        sent += (int)n;
    }
}

/* One read; returns the number of complete lines, or -1 on EOF/error. With `marker`, sets
 * *matched when a completed line contains it. */
static inline int read_lines(struct peer *peer, const char *marker, int *matched) {
    char buffer[65536];
    ssize_t n = read(peer->fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) return 0;
    if (n <= 0) return -1;
    int lines = 0;
    for (ssize_t k = 0; k < n; k++) {
        if (buffer[k] == '\n') {
            lines++;
            if (marker) {
                peer->line[peer->line_length] = 0;
                if (strstr(peer->line, marker)) *matched = 1;
            }
            peer->line_length = 0;
        } else if (marker && peer->line_length < LINE_CAPACITY - 1) {
            peer->line[peer->line_length++] = buffer[k];
        }
    }
    return lines;
}

/* Blocks until a complete line containing `marker` arrives. */
static inline int wait_line(struct peer *peer, const char *marker) {
    for (;;) {
        int matched = 0;
        if (read_lines(peer, marker, &matched) < 0) return -1;
        if (matched) return 0;
    }
}

#endif
