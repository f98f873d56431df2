/* The harness of the end-to-end tests: real processes, temporary directories, bounded
 * readiness polling (a process starting up), never a fixed sleep to order events. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sesame.h"

extern char **environ;

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void pause_briefly(void) {
    struct timespec step = {0, 20 * 1000000L};
    nanosleep(&step, NULL);
}

static pid_t spawn(char *const argv[], const char *output, const char *errors) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

static void stop_process(pid_t *pid) {
    if (*pid > 0) {
        kill(*pid, SIGKILL);
        waitpid(*pid, NULL, 0);
    }
    *pid = -1;
}

static void remove_tree(const char *directory) {
    char command[256];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", directory);
}

int emulator_start(emulator *e, const char *bin_dir) {
    memset(e, 0, sizeof *e);
    snprintf(e->directory, sizeof e->directory, "/tmp/cemu-XXXXXX");
    if (mkdtemp(e->directory) == NULL) return -1;
    char program[4096], output[128], errors[128];
    snprintf(program, sizeof program, "%s/sesame-emulator", bin_dir);
    snprintf(output, sizeof output, "%s/out", e->directory);
    snprintf(errors, sizeof errors, "%s/err", e->directory);
    char *argv[] = {program, "--auth-port", "0", "--database-port", "0", "--project", "demo-project", NULL};
    e->pid = spawn(argv, output, errors);
    if (e->pid < 0) {
        fprintf(stderr, "cannot start %s\n", program);
        return -1;
    }
    for (long long deadline = now_ms() + 30000; now_ms() < deadline; pause_briefly()) {
        FILE *file = fopen(output, "r");
        char line[512];
        while (file != NULL && fgets(line, sizeof line, file) != NULL) {
            char *at = strstr(line, " listening on http://");
            char *colon = at ? strrchr(at, ':') : NULL;
            if (colon == NULL) continue;
            if (strncmp(line, "auth", 4) == 0 || strstr(line, "auth listening")) e->auth_port = atoi(colon + 1);
            if (strstr(line, "database listening")) e->database_port = atoi(colon + 1);
        }
        if (file) fclose(file);
        if (e->auth_port && e->database_port) return 0;
        if (waitpid(e->pid, NULL, WNOHANG) == e->pid) break;
    }
    fprintf(stderr, "sesame-emulator did not listen (see %s)\n", errors);
    return -1;
}

void emulator_stop(emulator *e) {
    stop_process(&e->pid);
    remove_tree(e->directory);
}

static int launch(daemon_process *d) {
    char program[4096], config[128], state[128], output[128], errors[128];
    snprintf(program, sizeof program, "%s/sesamed", d->bin_dir);
    snprintf(config, sizeof config, "%s/sesamed.toml", d->directory);
    snprintf(state, sizeof state, "%s/state", d->directory);
    snprintf(output, sizeof output, "%s/sesamed.%d.out", d->directory, d->generation);
    snprintf(errors, sizeof errors, "%s/sesamed.%d.err", d->directory, d->generation);
    char *argv[] = {program, "--config", config, "--state-dir", state, "--log-level", "debug", NULL};
    d->pid = spawn(argv, output, errors);
    if (d->pid < 0) return -1;
    /* Readiness: the daemon answers getState with an anonymous session. */
    for (long long deadline = now_ms() + 30000; now_ms() < deadline; pause_briefly()) {
        sesame_t *probe = NULL;
        sesame_state *current = NULL;
        bool ready = false;
        if (sesame_connect(d->socket_path, &probe, NULL) == 0 && sesame_rpc_get_state(probe, &current, NULL) == 0)
            ready = strcmp(current->status, "anonymous") == 0;
        sesame_free(current);
        sesame_close(probe);
        if (ready) return 0;
        if (waitpid(d->pid, NULL, WNOHANG) == d->pid) break;
    }
    fprintf(stderr, "sesamed did not become ready (see %s)\n", errors);
    return -1;
}

int daemon_start(daemon_process *d, const emulator *e, const char *bin_dir) {
    memset(d, 0, sizeof *d);
    d->bin_dir = bin_dir;
    snprintf(d->directory, sizeof d->directory, "/tmp/cd-XXXXXX");
    if (mkdtemp(d->directory) == NULL) return -1;
    chmod(d->directory, 0755);
    snprintf(d->socket_path, sizeof d->socket_path, "%s/s.sock", d->directory);
    char config[128];
    snprintf(config, sizeof config, "%s/sesamed.toml", d->directory);
    FILE *file = fopen(config, "w");
    if (file == NULL) return -1;
    fprintf(file,
            "[firebase]\napi_key = \"c-key\"\nproject_id = \"demo-project\"\n"
            "auth_emulator_host = \"127.0.0.1:%d\"\ndatabase_emulator_host = \"127.0.0.1:%d\"\n"
            "[socket]\npath = \"%s\"\n",
            e->auth_port, e->database_port, d->socket_path);
    fclose(file);
    return launch(d);
}

int daemon_restart(daemon_process *d) {
    stop_process(&d->pid);
    d->generation++;
    return launch(d);
}

void daemon_stop(daemon_process *d) {
    stop_process(&d->pid);
    remove_tree(d->directory);
}

void unique_email(char *buffer, size_t size, const char *prefix) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(buffer, size, "%s-%ld-%ld-%d@example.com", prefix, (long)now.tv_sec, now.tv_nsec, (int)getpid());
}
