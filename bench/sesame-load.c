/*
 * sesame-load: a load generator for line-delimited JSON-RPC over a Unix socket that stays out
 * of the way on 2 cores: one thread, one epoll set, no allocation on the hot path.
 *
 *   sesame-load latency SOCKET CLIENTS SECONDS WARMUP_SECONDS 'REQUEST LINE with {ID}'
 *       Closed loop: each client keeps one request in flight. Prints one JSON line:
 *       {"requests","seconds","rps","p50_us","p99_us","cpu_s"}.
 *   sesame-load fanout SOCKET SUBSCRIBERS ROUNDS 'TRIGGER LINE with {N}' MARKER
 *       SUBSCRIBERS connections subscribe; each round sends the trigger on another connection
 *       and times, per subscriber, the first line containing MARKER (from the trigger). Prints
 *       {"subscribers","rounds","p50_ms","p99_ms","max_ms" (over every delivery),
 *        "change_p99_ms","change_p99_max_ms" (each round's own p99: median and worst round),
 *        "spread_p50_ms","spread_p99_ms" (after the round's first delivery: the fan-out itself),
 *        "first_p50_ms","first_max_ms" (the trigger's path to the first subscriber),"cpu_s"}.
 *   sesame-load count SOCKET CLIENTS REQUESTS 'REQUEST LINE with {ID}'
 *       Closed loop like latency, but stops after exactly REQUESTS answers (for instruction
 *       counts under callgrind, where wall-clock time means nothing). Prints {"requests"}.
 *   sesame-load idle SOCKET CONNECTIONS
 *       Opens CONNECTIONS connections, says hello on each, prints "ready", and holds them
 *       until standard input closes.
 */
#define _GNU_SOURCE
#include "load-support.h"

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *samples, size_t count, double p) {
    if (count == 0) return 0;
    qsort(samples, count, sizeof(double), compare);
    size_t index = (size_t)(p * (double)(count - 1) + 0.5);
    return samples[index];
}

static int latency(const char *path, int clients, double seconds, double warmup, const char *template) {
    struct peer *peers = calloc((size_t)clients, sizeof(struct peer));
    int poll = epoll_create1(EPOLL_CLOEXEC);
    size_t capacity = 1 << 20, count = 0;
    double *samples = malloc(capacity * sizeof(double));
    long next_id = 1;
    for (int i = 0; i < clients; i++) {
        peers[i].fd = connect_to(path);
        if (peers[i].fd < 0) return fail("connect");
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &peers[i]};
        epoll_ctl(poll, EPOLL_CTL_ADD, peers[i].fd, &event);
        peers[i].sent_at = now();
        send_line(peers[i].fd, template, "{ID}", next_id++);
    }
    double start = now(), measuring_from = start + warmup, end = measuring_from + seconds;
    double cpu_before = 0;
    int measuring = 0;
    struct epoll_event events[256];
    while (now() < end) {
        int ready = epoll_wait(poll, events, 256, 100);
        double t = now();
        if (!measuring && t >= measuring_from) {
            measuring = 1;
            count = 0;
            cpu_before = cpu_seconds();
            measuring_from = t;
        }
        for (int i = 0; i < ready; i++) {
            struct peer *peer = events[i].data.ptr;
            int lines = read_lines(peer, NULL, NULL);
            if (lines < 0) return fail("the server closed a connection");
            for (int k = 0; k < lines; k++) {
                if (count == capacity) samples = realloc(samples, (capacity *= 2) * sizeof(double));
                samples[count++] = (t - peer->sent_at) * 1e6;
                peer->sent_at = now();
                send_line(peer->fd, template, "{ID}", next_id++);
            }
        }
    }
    double elapsed = now() - measuring_from;
    printf("{\"requests\":%zu,\"seconds\":%.3f,\"rps\":%.0f,\"p50_us\":%.1f,\"p99_us\":%.1f,\"cpu_s\":%.3f}\n", count,
           elapsed, (double)count / elapsed, percentile(samples, count, 0.50), percentile(samples, count, 0.99),
           cpu_seconds() - cpu_before);
    return 0;
}

static int fanout(const char *path, int subscribers, int rounds, const char *trigger, const char *marker) {
    struct peer *peers = calloc((size_t)subscribers, sizeof(struct peer));
    int poll = epoll_create1(EPOLL_CLOEXEC);
    const char *subscribe = "{\"jsonrpc\":\"2.0\",\"id\":{ID},\"method\":\"subscribe\"}";
    for (int i = 0; i < subscribers; i++) {
        peers[i].fd = connect_to(path);
        if (peers[i].fd < 0) return fail("connect (raise the fd limit and socket.max_connections)");
        send_line(peers[i].fd, subscribe, "{ID}", i + 1);
    }
    for (int i = 0; i < subscribers; i++) { /* the subscribe answers, in any order */
        if (wait_line(&peers[i], "\"result\"") < 0) return fail("subscribe");
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &peers[i]};
        epoll_ctl(poll, EPOLL_CTL_ADD, peers[i].fd, &event);
    }
    struct peer control = {.fd = connect_to(path)};
    double *samples = malloc((size_t)subscribers * (size_t)rounds * sizeof(double));
    /* Each subscriber's delay after the round's first delivery: the fan-out itself, without the
     * trigger's own path (backend call, durable keyring write) that every subscriber shares. */
    double *spread = malloc((size_t)subscribers * (size_t)rounds * sizeof(double));
    double *first = malloc((size_t)rounds * sizeof(double));
    double *round_p99 = malloc((size_t)rounds * sizeof(double)); /* each state change's own p99 */
    size_t count = 0;
    double cpu_before = cpu_seconds();
    struct epoll_event events[256];
    for (int round = 1; round <= rounds; round++) {
        int waiting = subscribers;
        double round_first = -1;
        for (int i = 0; i < subscribers; i++) peers[i].seen = 0;
        double t0 = now();
        send_line(control.fd, trigger, "{N}", round);
        while (waiting > 0) {
            int ready = epoll_wait(poll, events, 256, 10000);
            if (ready <= 0) return fail("a subscriber never got the notification");
            double t = now();
            for (int i = 0; i < ready; i++) {
                struct peer *peer = events[i].data.ptr;
                int matched = 0;
                if (read_lines(peer, marker, &matched) < 0) return fail("a subscriber was disconnected");
                if (matched && !peer->seen) {
                    peer->seen = 1;
                    if (round_first < 0) round_first = t;
                    spread[count] = (t - round_first) * 1e3;
                    samples[count++] = (t - t0) * 1e3;
                    waiting--;
                }
            }
        }
        first[round - 1] = (round_first - t0) * 1e3;
        round_p99[round - 1] = percentile(samples + count - subscribers, (size_t)subscribers, 0.99);
        if (wait_line(&control, "\"id\"") < 0) return fail("the trigger failed");
    }
    double cpu = cpu_seconds() - cpu_before;
    double p50 = percentile(samples, count, 0.50), p99 = percentile(samples, count, 0.99);
    double spread_p50 = percentile(spread, count, 0.50), spread_p99 = percentile(spread, count, 0.99);
    double first_p50 = percentile(first, (size_t)rounds, 0.50), first_max = percentile(first, (size_t)rounds, 1.0);
    double change_p99 = percentile(round_p99, (size_t)rounds, 0.50);
    double change_p99_max = percentile(round_p99, (size_t)rounds, 1.0);
    printf("{\"subscribers\":%d,\"rounds\":%d,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,"
           "\"change_p99_ms\":%.2f,\"change_p99_max_ms\":%.2f,"
           "\"spread_p50_ms\":%.2f,\"spread_p99_ms\":%.2f,\"first_p50_ms\":%.2f,\"first_max_ms\":%.2f,\"cpu_s\":%.3f}\n",
           subscribers, rounds, p50, p99, samples[count - 1], change_p99, change_p99_max, spread_p50, spread_p99,
           first_p50, first_max, cpu);
    return 0;
}

static int count_requests(const char *path, int clients, long requests, const char *template) {
    struct peer *peers = calloc((size_t)clients, sizeof(struct peer));
    int poll = epoll_create1(EPOLL_CLOEXEC);
    long sent = 0, answered = 0;
    for (int i = 0; i < clients && sent < requests; i++) {
        peers[i].fd = connect_to(path);
        if (peers[i].fd < 0) return fail("connect");
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &peers[i]};
        epoll_ctl(poll, EPOLL_CTL_ADD, peers[i].fd, &event);
        send_line(peers[i].fd, template, "{ID}", ++sent);
    }
    struct epoll_event events[256];
    while (answered < requests) {
        int ready = epoll_wait(poll, events, 256, 60000);
        if (ready <= 0) return fail("no answer within a minute");
        for (int i = 0; i < ready; i++) {
            struct peer *peer = events[i].data.ptr;
            int lines = read_lines(peer, NULL, NULL);
            if (lines < 0) return fail("the server closed a connection");
            answered += lines;
            for (int k = 0; k < lines && sent < requests; k++) send_line(peer->fd, template, "{ID}", ++sent);
        }
    }
    printf("{\"requests\":%ld}\n", answered);
    return 0;
}

static int idle(const char *path, int connections) {
    struct peer *peers = calloc((size_t)connections, sizeof(struct peer));
    for (int i = 0; i < connections; i++) {
        peers[i].fd = connect_to(path);
        if (peers[i].fd < 0) return fail("connect");
        send_line(peers[i].fd, "{\"jsonrpc\":\"2.0\",\"id\":{ID},\"method\":\"hello\"}", "{ID}", i + 1);
    }
    for (int i = 0; i < connections; i++)
        if (wait_line(&peers[i], "\"result\"") < 0) return fail("hello");
    printf("ready\n");
    fflush(stdout);
    char sink[64];
    while (read(0, sink, sizeof(sink)) > 0) {
    }
    return 0;
}

int main(int argc, char **argv) {
    raise_fd_limit();
    if (argc == 7 && strcmp(argv[1], "latency") == 0)
        return latency(argv[2], atoi(argv[3]), atof(argv[4]), atof(argv[5]), argv[6]);
    if (argc == 7 && strcmp(argv[1], "fanout") == 0)
        return fanout(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5], argv[6]);
    if (argc == 6 && strcmp(argv[1], "count") == 0)
        return count_requests(argv[2], atoi(argv[3]), atol(argv[4]), argv[5]);
    if (argc == 4 && strcmp(argv[1], "idle") == 0) return idle(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: sesame-load latency SOCKET CLIENTS SECONDS WARMUP 'LINE {ID}'\n"
                    "       sesame-load fanout SOCKET SUBSCRIBERS ROUNDS 'TRIGGER {N}' MARKER\n"
                    "       sesame-load count SOCKET CLIENTS REQUESTS 'LINE {ID}'\n"
                    "       sesame-load idle SOCKET CONNECTIONS\n");
    return 2;
}
