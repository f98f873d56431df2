/* The examples against a real daemon: each token example prints a token; the GLib example
 * prints the snapshot, then a change, and stops cleanly on Ctrl-C. */
#include "examples.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "sesame.h"

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Each example program prints a token (three dot-separated parts) from a real daemon. */
int examples_print_a_token(const emulator *emu, const char *bin_dir, int count, char **programs) {
    int before = check_failures;
    daemon_process d;
    CHECK(daemon_start(&d, emu, bin_dir) == 0);
    for (int i = 0; i < count; i++) {
        char command[8192], output[160], line[8192] = "";
        snprintf(output, sizeof output, "%s/example.out", d.directory);
        snprintf(command, sizeof command, "SESAME_SOCKET='%s' '%s' > '%s'", d.socket_path, programs[i], output);
        CHECK(system(command) == 0);
        FILE *file = fopen(output, "r");
        CHECK(file != NULL && fgets(line, sizeof line, file) != NULL);
        if (file) fclose(file);
        char *dot = strchr(line, '.');
        CHECK(dot != NULL && strchr(dot + 1, '.') != NULL);
        printf("     %s printed a token\n", programs[i]);
    }
    daemon_stop(&d);
    return check_failures - before;
}

static bool file_has(const char *path, const char *text) {
    char content[8192] = "";
    FILE *file = fopen(path, "r");
    if (file == NULL) return false;
    size_t length = fread(content, 1, sizeof content - 1, file);
    content[length] = '\0';
    fclose(file);
    return strstr(content, text) != NULL;
}

/* Readiness of a child's output (a process starting up), bounded; not for ordering events. */
static bool wait_for_output(const char *path, const char *text) {
    for (long long deadline = now_ms() + 30000; now_ms() < deadline;) {
        if (file_has(path, text)) return true;
        struct timespec step = {0, 20 * 1000000L};
        nanosleep(&step, NULL);
    }
    return false;
}

/* The GLib example prints the snapshot, then a change, and stops cleanly on Ctrl-C. */
int the_glib_example_watches_the_state(const emulator *emu, const char *bin_dir, const char *program) {
    int before = check_failures;
    daemon_process d;
    CHECK(daemon_start(&d, emu, bin_dir) == 0);
    char output[160], email[128];
    snprintf(output, sizeof output, "%s/watch.out", d.directory);
    unique_email(email, sizeof email, "c-glib");
    pid_t child = fork();
    if (child == 0) {
        setenv("SESAME_SOCKET", d.socket_path, 1);
        if (freopen(output, "w", stdout) == NULL) _exit(127);
        execl(program, program, (char *)NULL);
        _exit(127);
    }
    CHECK(wait_for_output(output, "snapshot"));
    sesame_t *sesame = NULL;
    CHECK(sesame_connect(d.socket_path, &sesame, NULL) == 0);
    CHECK(sesame_rpc_create_account(sesame, email, "correct horse battery", NULL, NULL, NULL) == 0);
    CHECK(wait_for_output(output, "linked"));
    kill(child, SIGINT);
    int status = -1;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sesame_close(sesame);
    daemon_stop(&d);
    return check_failures - before;
}

