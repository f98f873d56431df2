/*
 * libsesame-load: the cost of one sesame_get_id_token call through libsesame (clients/c), the
 * way an application makes it: one handle, one call after the other (a closed loop with one
 * request in flight, as sesame-load's `latency` at 1 client), each answer parsed into a token
 * string and freed.
 *
 *   libsesame-load call SOCKET SECONDS WARMUP_SECONDS MIN_VALIDITY
 *       sesame_get_id_token(sesame, MIN_VALIDITY) in a loop on one handle.
 *   libsesame-load raw SOCKET SECONDS WARMUP_SECONDS 'REQUEST LINE with {ID}'
 *       The same loop without the library: write the line, read until the answer's newline
 *       (blocking). Against the echo floor it is the floor's round trip timed as a call is,
 *       send to last byte read, so the two are compared like with like.
 *
 * Prints one JSON line like sesame-load's: {"requests","seconds","rps","p50_us","p99_us","cpu_s"}.
 */
#define _GNU_SOURCE
#include <sesame.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One raw round trip: the line with {ID} replaced, then a blocking read to the newline. */
static int raw_round_trip(int fd, const char *template, long id) {
    char line[4096], buffer[65536];
    const char *mark = strstr(template, "{ID}");
    int length = mark ? snprintf(line, sizeof line, "%.*s%ld%s\n", (int)(mark - template), template, id, mark + 4)
                      : snprintf(line, sizeof line, "%s\n", template);
    if (send(fd, line, (size_t)length, MSG_NOSIGNAL) != length) return -1;
    for (size_t got = 0;;) {
        ssize_t n = read(fd, buffer + got % sizeof buffer, sizeof buffer - got % sizeof buffer);
        if (n <= 0) return -1;
        got += (size_t)n;
        if (buffer[(got - 1) % sizeof buffer] == '\n') return 0;
    }
}

int main(int argc, char **argv) {
    if (argc != 6 || (strcmp(argv[1], "call") != 0 && strcmp(argv[1], "raw") != 0)) {
        fprintf(stderr, "usage: libsesame-load call|raw SOCKET SECONDS WARMUP_SECONDS MIN_VALIDITY|LINE\n");
        return 2;
    }
    bool raw = strcmp(argv[1], "raw") == 0;
    double seconds = atof(argv[3]), warmup = atof(argv[4]);
    int min_validity = atoi(argv[5]), fd = -1;
    long next_id = 1;
    sesame_t *sesame = NULL;
    sesame_error error;
    if (raw) {
        struct sockaddr_un address = {.sun_family = AF_UNIX};
        snprintf(address.sun_path, sizeof address.sun_path, "%s", argv[2]);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            perror("libsesame-load: connect");
            return 1;
        }
    } else if (sesame_connect(argv[2], &sesame, &error) != 0) {
        fprintf(stderr, "libsesame-load: %s\n", error.message);
        return 1;
    }
    size_t capacity = 1 << 20, count = 0;
    double *samples = malloc(capacity * sizeof(double));
    double start = now(), measuring_from = start + warmup, cpu_before = 0;
    int measuring = 0;
    for (;;) {
        double t0 = now();
        if (t0 >= measuring_from + seconds && measuring) break;
        if (!measuring && t0 >= measuring_from) {
            measuring = 1;
            measuring_from = t0;
            cpu_before = cpu_seconds();
        }
        if (raw) {
            if (raw_round_trip(fd, argv[5], next_id++) != 0) {
                fprintf(stderr, "libsesame-load: the server closed the connection\n");
                return 1;
            }
        } else {
            char *token = sesame_get_id_token(sesame, min_validity, &error);
            if (token == NULL) {
                fprintf(stderr, "libsesame-load: %s\n", error.message);
                return 1;
            }
            free(token);
        }
        double t1 = now();
        if (measuring) {
            if (count == capacity) samples = realloc(samples, (capacity *= 2) * sizeof(double));
            samples[count++] = (t1 - t0) * 1e6;
        }
    }
    double elapsed = now() - measuring_from;
    qsort(samples, count, sizeof(double), compare);
    printf("{\"requests\":%zu,\"seconds\":%.3f,\"rps\":%.0f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"cpu_s\":%.3f}\n", count,
           elapsed, (double)count / elapsed, samples[(size_t)(0.50 * (double)(count - 1) + 0.5)],
           samples[(size_t)(0.99 * (double)(count - 1) + 0.5)], cpu_seconds() - cpu_before);
    free(samples);
    sesame_close(sesame);
    if (fd >= 0) close(fd);
    return 0;
}
