/* Errors: the protocol's, read from the wire, and this library's own. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static void copy(char *target, size_t size, const char *text) {
    snprintf(target, size, "%s", text == NULL ? "" : text);
}

const char *sesame_reason_name(sesame_reason reason) {
    if (reason <= SESAME_REASON_UNKNOWN || reason >= SESAME_REASON_COUNT_) return NULL;
    return sesame__reasons[reason].name;
}

sesame_reason sesame_reason_from_name(const char *name) {
    for (int reason = 1; name != NULL && reason < SESAME_REASON_COUNT_; reason++)
        if (strcmp(sesame__reasons[reason].name, name) == 0) return (sesame_reason)reason;
    return SESAME_REASON_UNKNOWN;
}

int sesame_reason_code(sesame_reason reason) {
    if (reason <= SESAME_REASON_UNKNOWN || reason >= SESAME_REASON_COUNT_) return SESAME_CLIENT_ERROR;
    return sesame__reasons[reason].code;
}

static void fill(sesame_error *error, int code, sesame_reason reason, const char *text, const char *message) {
    error->code = code;
    error->reason = reason;
    copy(error->reason_text, sizeof error->reason_text, text);
    copy(error->message, sizeof error->message, message);
    error->retry_after_ms = -1;
    error->data[0] = '\0';
}

int sesame__fail(sesame_error *error, sesame_reason reason, const char *message) {
    if (error != NULL) fill(error, sesame_reason_code(reason), reason, sesame_reason_name(reason), message);
    return -1;
}

int sesame__oom(sesame_error *error) {
    return sesame__fail(error, SESAME_REASON_OUT_OF_MEMORY, "out of memory");
}

int sesame__invalid_argument(sesame_error *error, const char *message) {
    return sesame__fail(error, SESAME_REASON_INVALID_ARGUMENT, message);
}

int sesame__invalid_params(sesame_error *error, const char *message) {
    return sesame__fail(error, SESAME_REASON_INVALID_PARAMS, message);
}

void sesame__error_from_wire(sesame_error *error, json_object *wire) {
    if (error == NULL) return;
    json_object *code = NULL, *message = NULL;
    json_object *data = sesame__member_object(wire, "data");
    json_object *reason = NULL, *retry = NULL;
    const char *reason_text = NULL;
    if (data != NULL && json_object_object_get_ex(data, "reason", &reason) && json_object_is_type(reason, json_type_string))
        reason_text = json_object_get_string(reason);
    int number = json_object_object_get_ex(wire, "code", &code) ? json_object_get_int(code) : -32603;
    json_object_object_get_ex(wire, "message", &message);
    fill(error, number, sesame_reason_from_name(reason_text), reason_text,
         message != NULL ? json_object_get_string(message) : "the daemon refused the request");
    if (data != NULL) {
        if (json_object_object_get_ex(data, "retryAfterMs", &retry) && json_object_is_type(retry, json_type_int))
            error->retry_after_ms = json_object_get_int64(retry);
        const char *text = sesame__json_text(data);
        if (strlen(text) < sizeof error->data) copy(error->data, sizeof error->data, text);
    }
}
