/* The end-to-end tests of clients/c/examples (tests/examples.c). */
#ifndef SESAME_EXAMPLES_TEST_H
#define SESAME_EXAMPLES_TEST_H

#include "harness.h"

/* Each returns its number of failed checks. Each program prints a token (three dot-separated parts) from a real daemon. */
int examples_print_a_token(const emulator *emu, const char *bin_dir, int count, char **programs);
/* glib-watch prints the snapshot, then a change, and exits 0 on SIGINT. */
int the_glib_example_watches_the_state(const emulator *emu, const char *bin_dir, const char *program);

#endif
