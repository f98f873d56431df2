/* A minimal test runner: CHECK records a failure and goes on; each test is a function. */
#ifndef SESAME_CHECK_H
#define SESAME_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures __attribute__((unused));

#define CHECK(condition)                                                                      \
    do {                                                                                      \
        if (!(condition)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition);     \
            check_failures++;                                                                 \
        }                                                                                     \
    } while (0)

#define CHECK_STR(actual, expected)                                                           \
    do {                                                                                      \
        const char *check_a = (actual), *check_e = (expected);                                \
        if ((check_a == NULL) != (check_e == NULL) || (check_a != NULL && strcmp(check_a, check_e) != 0)) { \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual, \
                    check_a ? check_a : "(null)", check_e ? check_e : "(null)");              \
            check_failures++;                                                                 \
        }                                                                                     \
    } while (0)

#define RUN(test)                                                                             \
    do {                                                                                      \
        int check_before = check_failures;                                                    \
        test();                                                                               \
        printf("%s %s\n", check_failures == check_before ? "ok  " : "FAIL", #test);           \
        fflush(stdout);                                                                       \
    } while (0)

#endif
