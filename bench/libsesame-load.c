/*
 * libsesame-load: the cost of one sesame_get_id_token call through libsesame (clients/c), the
 * way an application makes it: one handle, one call after the other (a closed loop with one
 * request in flight, as sesame-load's `latency` at 1 client), each answer parsed into a token
 * string and freed.
 *
 *   libsesame-load SOCKET SECONDS WARMUP_SECONDS MIN_VALIDITY
 *
 * Prints one JSON line like sesame-load's: {"requests","seconds","rps","p50_us","p99_us","cpu_s"}.
 */
#define _GNU_SOURCE
#include <sesame.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: libsesame-load SOCKET SECONDS WARMUP_SECONDS MIN_VALIDITY\n");
        return 2;
    }
    double seconds = atof(argv[2]), warmup = atof(argv[3]);
    int min_validity = atoi(argv[4]);
    sesame_t *sesame = NULL;
    sesame_error error;
    if (sesame_connect(argv[1], &sesame, &error) != 0) {
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
        char *token = sesame_get_id_token(sesame, min_validity, &error);
        double t1 = now();
        if (token == NULL) {
            fprintf(stderr, "libsesame-load: %s\n", error.message);
            return 1;
        }
        free(token);
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
    return 0;
}
