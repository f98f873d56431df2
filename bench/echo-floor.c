/*
 * echo-floor: the floor of any line-delimited Unix-socket service on this machine.
 *
 * One thread, one epoll set, non-blocking sockets. Every complete request line is answered
 * with one reply line of a fixed length (the length of the daemon's answer being compared),
 * so the floor pays the same kernel costs as sesamed: accept, read, write, wake-ups.
 *
 *   echo-floor SOCKET_PATH REPLY_BYTES
 *
 * Prints "ready" on standard output once it listens; runs until killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_EVENTS 256
#define BUFFER_SIZE 65536

struct connection {
    int fd;
    size_t pending; /* bytes of the current, unfinished request line */
};

static void raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

static int listen_on(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (fd < 0 || strlen(path) >= sizeof(address.sun_path)) return -1;
    strcpy(address.sun_path, path);
    unlink(path);
    if (bind(fd, (struct sockaddr *)&address, sizeof(address)) < 0 || listen(fd, 4096) < 0) return -1;
    return fd;
}

/* Writes all of `reply` `count` times; the socket buffer is large enough for a closed loop. */
static int answer(int fd, const char *reply, size_t length, size_t count) {
    static char out[BUFFER_SIZE * 4];
    while (count > 0) {
        size_t batch = 0;
        while (count > 0 && batch + length <= sizeof(out)) {
            memcpy(out + batch, reply, length);
            batch += length;
            count--;
        }
        size_t sent = 0;
        while (sent < batch) {
            ssize_t n = write(fd, out + sent, batch - sent);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && errno == EAGAIN) {
                fd_set set; /* rare: wait until writable */
                FD_ZERO(&set);
                FD_SET(fd, &set);
                select(fd + 1, NULL, &set, NULL, NULL);
                continue;
            }
            if (n < 0) return -1;
            sent += (size_t)n;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: echo-floor SOCKET_PATH REPLY_BYTES\n");
        return 2;
    }
    size_t length = (size_t)atol(argv[2]);
    if (length < 2) length = 2;
    char *reply = malloc(length);
    memset(reply, 'x', length - 1);
    reply[length - 1] = '\n';
    raise_fd_limit();
    /* A load generator that exits with a request in flight must not kill the floor (SIGPIPE). */
    signal(SIGPIPE, SIG_IGN);

    int listener = listen_on(argv[1]);
    int poll = epoll_create1(EPOLL_CLOEXEC);
    if (listener < 0 || poll < 0) {
        perror("echo-floor");
        return 1;
    }
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(poll, EPOLL_CTL_ADD, listener, &event);
    printf("ready\n");
    fflush(stdout);

    static char buffer[BUFFER_SIZE];
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = epoll_wait(poll, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            struct connection *connection = events[i].data.ptr;
            if (connection == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    struct connection *fresh = calloc(1, sizeof(*fresh));
                    fresh->fd = fd;
                    struct epoll_event add = {.events = EPOLLIN, .data.ptr = fresh};
                    epoll_ctl(poll, EPOLL_CTL_ADD, fd, &add);
                }
                continue;
            }
            ssize_t n = read(connection->fd, buffer, sizeof(buffer));
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (n <= 0) {
                close(connection->fd);
                free(connection);
                continue;
            }
            size_t lines = 0;
            for (ssize_t k = 0; k < n; k++) {
                if (buffer[k] == '\n') {
                    lines++;
                    connection->pending = 0;
                } else {
                    connection->pending++;
                }
            }
            if (lines > 0 && answer(connection->fd, reply, length, lines) < 0) {
                close(connection->fd);
                free(connection);
            }
        }
    }
}
