/* The blocking conveniences: a token in one call, and times as numbers. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* The hot path: the request written directly, the token read in place (no objects built). */
static char *token_of(sesame_t *sesame, int min_validity, sesame_error *error) {
    char params[48], digits[16], *d = digits + sizeof digits;
    if (min_validity > 0) { /* {"minValidity":N}, without snprintf's cost */
        *--d = '\0';
        for (int value = min_validity; value > 0; value /= 10) *--d = (char)('0' + value % 10);
        strcpy(params, "{\"minValidity\":");
        strcat(params, d);
        strcat(params, "}");
    }
    const char *result, *result_end, *value, *value_end;
    if (sesame__exchange(sesame, "getIdToken", min_validity > 0 ? params : NULL, true, 0, &result, &result_end, error) != 0)
        return NULL;
    char *token = NULL;
    if (sesame__scan_member(result, result_end, "token", &value, &value_end))
        token = sesame__scan_string(value, value_end);
    if (token == NULL) sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer has no token");
    return token;
}

char *sesame_get_id_token(sesame_t *sesame, int min_validity, sesame_error *error) {
    if (sesame != NULL) return token_of(sesame, min_validity, error);
    sesame_t *own = NULL;
    if (sesame_connect(NULL, &own, error) != 0) return NULL;
    char *token = token_of(own, min_validity, error);
    sesame_close(own);
    return token;
}

static int digits(const char **cursor, int count) {
    int value = 0;
    for (int i = 0; i < count; i++, (*cursor)++) {
        if (!isdigit((unsigned char)**cursor)) return -1;
        value = value * 10 + (**cursor - '0');
    }
    return value;
}

/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
static long long days_from_civil(long long year, int month, int day) {
    year -= month <= 2;
    long long era = (year >= 0 ? year : year - 399) / 400;
    long long of_era = year - era * 400;
    long long of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long long of_cycle = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    return era * 146097 + of_cycle - 719468;
}

long long sesame_time_ms(const char *text) {
    if (text == NULL) return -1;
    const char *c = text;
    int year = digits(&c, 4);
    if (year < 0 || *c++ != '-') return -1;
    int month = digits(&c, 2);
    if (month < 1 || month > 12 || *c++ != '-') return -1;
    int day = digits(&c, 2);
    if (day < 1 || day > 31 || (*c != 'T' && *c != 't' && *c != ' ')) return -1;
    c++;
    int hour = digits(&c, 2);
    if (hour < 0 || hour > 23 || *c++ != ':') return -1;
    int minute = digits(&c, 2);
    if (minute < 0 || minute > 59 || *c++ != ':') return -1;
    int second = digits(&c, 2);
    if (second < 0 || second > 60) return -1;
    long long millis = 0;
    if (*c == '.') {
        c++;
        int scale = 100, count = 0;
        for (; isdigit((unsigned char)*c); c++, count++) {
            millis += scale * (*c - '0');
            scale /= 10;
        }
        if (count == 0) return -1;
    }
    long long offset = 0;
    if (*c == 'Z' || *c == 'z') {
        c++;
    } else if (*c == '+' || *c == '-') {
        int sign = *c++ == '-' ? -1 : 1;
        int hours = digits(&c, 2);
        if (hours < 0 || *c++ != ':') return -1;
        int minutes = digits(&c, 2);
        if (minutes < 0) return -1;
        offset = sign * (hours * 60 + minutes) * 60LL;
    } else {
        return -1;
    }
    if (*c != '\0') return -1;
    long long seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    return seconds * 1000 + millis;
}
