/* A small JSON scanner for the calls' hot path: finds the members of an answer in place,
 * without building objects, so a call such as sesame_get_id_token() costs little more than its
 * round trip. It validates what it skips (strings, numbers, literals, nesting); anything it
 * does not accept is treated as not found, and the callers fall back to json-c or fail. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { MAX_DEPTH = 64 };

static const char *space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* After the closing quote of the string starting at p (at its opening quote), or NULL. A token
 * is a long string: memchr finds its end without a byte-by-byte loop. */
static const char *skip_string(const char *p, const char *end) {
    for (p++; p < end;) {
        const char *quote = memchr(p, '"', (size_t)(end - p));
        if (quote == NULL) return NULL;
        const char *escape = memchr(p, '\\', (size_t)(quote - p));
        if (escape == NULL) return quote + 1;
        p = escape + 2;
    }
    return NULL;
}

static const char *skip_number(const char *p, const char *end) {
    const char *start = p;
    if (p < end && *p == '-') p++;
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')) p++;
    return p > start && (p[-1] >= '0' && p[-1] <= '9') ? p : NULL;
}

static const char *skip_value(const char *p, const char *end, int depth) {
    p = space(p, end);
    if (p == end || depth > MAX_DEPTH) return NULL;
    if (*p == '"') return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = space(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                if (p == end || *p != '"' || (p = skip_string(p, end)) == NULL) return NULL;
                p = space(p, end);
                if (p == end || *p++ != ':') return NULL;
            }
            if ((p = skip_value(p, end, depth + 1)) == NULL) return NULL;
            p = space(p, end);
            if (p < end && *p == ',') {
                p = space(p + 1, end);
                continue;
            }
            return p < end && *p == close ? p + 1 : NULL;
        }
    }
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : *p == 'n' ? "null" : NULL;
    if (word == NULL) return skip_number(p, end);
    size_t length = strlen(word);
    return (size_t)(end - p) >= length && memcmp(p, word, length) == 0 ? p + length : NULL;
}

int sesame__scan_members(const char *object, const char *end, const char *const *keys, int count,
                         sesame__span *values) {
    int found = 0;
    for (int k = 0; k < count; k++) values[k].start = values[k].end = NULL;
    const char *p = space(object, end);
    if (p == end || *p != '{') return -1;
    p = space(p + 1, end);
    if (p < end && *p == '}') return 0;
    for (;;) {
        if (p == end || *p != '"') return -1;
        const char *name = p + 1, *after = skip_string(p, end);
        if (after == NULL) return -1;
        size_t name_length = (size_t)(after - 1 - name);
        p = space(after, end);
        if (p == end || *p++ != ':') return -1;
        const char *start = space(p, end);
        if ((p = skip_value(start, end, 1)) == NULL) return -1;
        for (int k = 0; k < count; k++) {
            if (values[k].start == NULL && strlen(keys[k]) == name_length && memcmp(name, keys[k], name_length) == 0) {
                values[k].start = start;
                values[k].end = p;
                found++;
            }
        }
        p = space(p, end);
        if (p < end && *p == '}') return found;
        if (p == end || *p != ',') return -1;
        p = space(p + 1, end);
    }
}

bool sesame__scan_member(const char *object, const char *end, const char *key, const char **value,
                         const char **value_end) {
    sesame__span span;
    if (sesame__scan_members(object, end, &key, 1, &span) < 1) return false;
    *value = span.start;
    *value_end = span.end;
    return true;
}

static int hex(const char *p) {
    int value = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        value = value * 16 + (c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1000);
    }
    return value < 0 ? -1 : value;
}

static char *put_utf8(char *out, unsigned long code) {
    if (code < 0x80) {
        *out++ = (char)code;
    } else if (code < 0x800) {
        *out++ = (char)(0xC0 | (code >> 6));
        *out++ = (char)(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        *out++ = (char)(0xE0 | (code >> 12));
        *out++ = (char)(0x80 | ((code >> 6) & 0x3F));
        *out++ = (char)(0x80 | (code & 0x3F));
    } else {
        *out++ = (char)(0xF0 | (code >> 18));
        *out++ = (char)(0x80 | ((code >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((code >> 6) & 0x3F));
        *out++ = (char)(0x80 | (code & 0x3F));
    }
    return out;
}

char *sesame__scan_string(const char *value, const char *end) {
    if (value == end || *value != '"' || end[-1] != '"' || end - value < 2) return NULL;
    char *text = malloc((size_t)(end - value)), *out = text;
    if (text == NULL) return NULL;
    if (memchr(value + 1, '\\', (size_t)(end - value - 2)) == NULL) { /* no escape: one copy */
        memcpy(text, value + 1, (size_t)(end - value - 2));
        text[end - value - 2] = '\0';
        return text;
    }
    for (const char *p = value + 1; p < end - 1; p++) {
        if (*p != '\\') {
            *out++ = *p;
            continue;
        }
        char c = *++p;
        const char *simple = strchr("\"\\/bfnrt", c);
        if (c != '\0' && simple != NULL) {
            *out++ = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
            continue;
        }
        int code = c == 'u' && end - 1 - p > 4 ? hex(p + 1) : -1;
        if (code < 0) {
            free(text);
            return NULL;
        }
        p += 4;
        unsigned long point = (unsigned long)code;
        if (code >= 0xD800 && code < 0xDC00 && end - 1 - p > 6 && p[1] == '\\' && p[2] == 'u') {
            int low = hex(p + 3);
            if (low >= 0xDC00 && low < 0xE000) {
                point = 0x10000 + (((unsigned long)code - 0xD800) << 10) + ((unsigned long)low - 0xDC00);
                p += 6;
            }
        }
        out = put_utf8(out, point);
    }
    *out = '\0';
    return text;
}

bool sesame__scan_integer(const char *value, const char *end, long long *number) {
    const char *p = value;
    bool negative = p < end && *p == '-';
    if (negative) p++;
    if (p == end) return false;
    long long result = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || result > (__LONG_LONG_MAX__ - 9) / 10) return false;
        result = result * 10 + (*p - '0');
    }
    *number = negative ? -result : result;
    return true;
}
