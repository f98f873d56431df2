/* What the library's files share; nothing here is exported (see libsesame.map). */
#ifndef SESAME_INTERNAL_H
#define SESAME_INTERNAL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "sesame.h"

/* ---- reasons.c (generated) --------------------------------------------------------------- */
struct sesame__reason_row {
    const char *name;
    int code;
};
extern const struct sesame__reason_row sesame__reasons[];

/* ---- arena.c: a result is its arena's first allocation; sesame_free() frees it all ------- */
typedef struct sesame__arena sesame__arena;
sesame__arena *sesame__arena_new(void);
/* Zeroed memory that lives as long as the arena; NULL when out of memory. */
void *sesame__alloc(sesame__arena *arena, size_t size);
char *sesame__strdup(sesame__arena *arena, const char *text);
/* Frees an arena whose first allocation failed or was never handed out. */
void sesame__arena_free(sesame__arena *arena);
/* Where a block's first allocation starts (a result's arena is the result minus this). */
size_t sesame__arena_data_offset(void);

/* ---- json.c ------------------------------------------------------------------------------- */
/* A string member copied into the arena; NULL when absent, null or not a string. */
const char *sesame__member_string(sesame__arena *arena, json_object *object, const char *key);
bool sesame__member_bool(json_object *object, const char *key);
/* An integer member, or fallback. */
long long sesame__member_int(json_object *object, const char *key, long long fallback);
/* The member when it is an object, else NULL (borrowed). */
json_object *sesame__member_object(json_object *object, const char *key);
/* One line of compact JSON (the text belongs to the object). */
const char *sesame__json_text(json_object *object);
/* The params builders of the generated calls: 0, or -1 when an argument is not valid. */
int sesame__put_string(json_object *params, const char *key, const char *value);
void sesame__put_bool(json_object *params, const char *key, bool value);
void sesame__put_number(json_object *params, const char *key, double value);
int sesame__put_strings(json_object *params, const char *key, const char *const *values);
int sesame__put_credential(json_object *params, const char *key, const sesame_credential *credential);
int sesame__put_json(json_object *params, const char *key, const char *json_text);

/* ---- errors.c ----------------------------------------------------------------------------- */
int sesame__fail(sesame_error *error, sesame_reason reason, const char *message);
int sesame__oom(sesame_error *error);
int sesame__invalid_argument(sesame_error *error, const char *message);
int sesame__invalid_params(sesame_error *error, const char *message);
/* Fills `error` from a JSON-RPC error object. */
void sesame__error_from_wire(sesame_error *error, json_object *wire);

/* ---- models.c: results and states from their JSON --------------------------------------- */
typedef void *(*sesame__parser)(sesame__arena *arena, json_object *json);
void *sesame__parse_state(sesame__arena *arena, json_object *json);
void *sesame__parse_sign_in_result(sesame__arena *arena, json_object *json);
void *sesame__parse_token(sesame__arena *arena, json_object *json);
void *sesame__parse_hello(sesame__arena *arena, json_object *json);
void *sesame__parse_username_availability(sesame__arena *arena, json_object *json);
void *sesame__parse_sign_in_flow(sesame__arena *arena, json_object *json);
void *sesame__parse_totp_enrollment(sesame__arena *arena, json_object *json);
void *sesame__parse_reauthentication(sesame__arena *arena, json_object *json);
void *sesame__parse_merge(sesame__arena *arena, json_object *json);
/* A whole result of its own: a state with a reason (NULL when out of memory or not a state). */
sesame_state *sesame__state_new(json_object *json, const char *reason);
sesame_merge *sesame__merge_new(json_object *json);
/* The generated calls' endings; each takes the answer. */
int sesame__typed_result(json_object *answer, sesame__parser parser, void **result, sesame_error *error);
int sesame__string_result(json_object *answer, const char *field, const char *fallback, char **result,
                          sesame_error *error);
int sesame__json_result(json_object *answer, char **result_json, sesame_error *error);

/* ---- lines.c: line framing ----------------------------------------------------------------- */
typedef struct sesame__lines {
    char *data;
    size_t start, length, capacity;
} sesame__lines;
/* Reads once from fd: >0 bytes read, 0 end of stream, -1 error (errno; EAGAIN when none ready). */
long sesame__lines_read(sesame__lines *lines, int fd);
/* The next complete line, NUL-terminated in place, without its \n; NULL when none. Sets
 * *overflow when the unfinished line exceeds the protocol's limit. */
char *sesame__lines_next(sesame__lines *lines, bool *overflow);
void sesame__lines_clear(sesame__lines *lines);
void sesame__lines_free(sesame__lines *lines);
/* A Unix stream socket connected to path (close-on-exec; nonblocking when asked); -1 and errno. */
int sesame__dial(const char *path, bool nonblocking);
/* Encodes {"jsonrpc":"2.0","id":id,"method":...,"params":...} and a \n; frees nothing. NULL: OOM. */
char *sesame__encode_request(long long id, const char *method, json_object *params, size_t *length);

/* ---- scan.c: members of an answer found in place (the calls' hot path) -------------------- */
/* The value of `key` among the members of the object starting at `object` (spaces allowed):
 * true with [*value, *value_end); false when absent or the text is not such an object. */
bool sesame__scan_member(const char *object, const char *end, const char *key, const char **value,
                         const char **value_end);
/* Several members in one pass: values[k] is keys[k]'s value, or {NULL, NULL}; returns how many
 * were found, or -1 when the text is not an object. */
typedef struct sesame__span {
    const char *start, *end;
} sesame__span;
int sesame__scan_members(const char *object, const char *end, const char *const *keys, int count,
                         sesame__span *values);
/* A JSON string value decoded into malloc'd UTF-8; NULL when it is not a valid string. */
char *sesame__scan_string(const char *value, const char *end);
/* A JSON integer value. */
bool sesame__scan_integer(const char *value, const char *end, long long *number);

/* ---- transport.c ---------------------------------------------------------------------------- */
/* Sends method with params_text (a JSON object's text, or NULL) and waits for its answer: 0 with
 * the result's text in [*result, *result_end) (valid until the handle's next call), or -1. */
int sesame__exchange(sesame_t *sesame, const char *method, const char *params_text, bool retryable,
                     double extra_wait_ms, const char **result, const char **result_end, sesame_error *error);
/* Sends method with params (taken) and waits for its answer: 0 with *answer (the result,
 * owned by the caller), or -1 with error. A retryable read is sent once more on a new
 * connection when the first closed before its answer; extra_wait_ms lengthens the timeout. */
int sesame__request(sesame_t *sesame, const char *method, json_object *params, bool retryable,
                    double extra_wait_ms, json_object **answer, sesame_error *error);

/* ---- tracker.c: the state stream's rules, free of I/O (tests/fixtures/stream-tracker.json) -- */
typedef struct sesame__tracker sesame__tracker;
typedef struct sesame__tracker_sink {
    /* A state to give (json borrowed for the call) with its reason. */
    void (*state)(void *context, json_object *state, const char *reason);
    /* A merge to give (migrator trackers only). */
    void (*merge)(void *context, json_object *merge);
    void *context;
} sesame__tracker_sink;
sesame__tracker *sesame__tracker_new(bool migrator, sesame__tracker_sink sink);
void sesame__tracker_free(sesame__tracker *tracker);
/* A new connection greeted by instance (NULL when the daemon did not say). */
void sesame__tracker_connected(sesame__tracker *tracker, const char *instance);
/* An authoritative state (subscribe's, or getState's after a gap). */
void sesame__tracker_snapshot(sesame__tracker *tracker, json_object *state, const char *reason);
/* A notification; true when a gap needs a getState. */
bool sesame__tracker_notification(sesame__tracker *tracker, const char *method, json_object *params);
/* The getState answer after a gap (NULL when it failed); true when another gap needs one. */
bool sesame__tracker_resynced(sesame__tracker *tracker, json_object *state);

#endif
