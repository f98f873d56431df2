/* Starts the real sesame-emulator and sesamed on temporary paths (free-picked ports), as the
 * Node and Python clients' harnesses do. */
#ifndef SESAME_HARNESS_H
#define SESAME_HARNESS_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct emulator {
    pid_t pid;
    char directory[64];
    int auth_port, database_port;
} emulator;

typedef struct daemon_process {
    pid_t pid;
    char directory[64];
    char socket_path[128];
    const char *bin_dir;
    int generation;
} daemon_process;

/* 0, or -1 with a message on stderr. */
int emulator_start(emulator *emulator, const char *bin_dir);
void emulator_stop(emulator *emulator);
int daemon_start(daemon_process *daemon, const emulator *emulator, const char *bin_dir);
/* SIGKILL, start again on the same state, wait until it answers anonymous. */
int daemon_restart(daemon_process *daemon);
void daemon_stop(daemon_process *daemon);
/* A fresh address for an account. */
void unique_email(char *buffer, size_t size, const char *prefix);

#endif
