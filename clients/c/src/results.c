/* The generated calls' endings: an answer into its typed result. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void *parse_whole(json_object *json, sesame__parser parser) {
    sesame__arena *arena = sesame__arena_new();
    if (arena == NULL) return NULL;
    void *result = parser(arena, json);
    if (result == NULL) sesame__arena_free(arena);
    return result;
}

int sesame__typed_result(json_object *answer, sesame__parser parser, void **result, sesame_error *error) {
    int status = 0;
    if (!json_object_is_type(answer, json_type_object)) {
        status = sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer is not an object");
    } else if (result != NULL) {
        *result = parse_whole(answer, parser);
        if (*result == NULL) status = sesame__fail(error, SESAME_REASON_BAD_RESPONSE, "the daemon's answer lacks a field");
    }
    json_object_put(answer);
    return status;
}

int sesame__string_result(json_object *answer, const char *field, const char *fallback, char **result,
                          sesame_error *error) {
    json_object *value = NULL;
    const char *text = fallback;
    if (json_object_is_type(answer, json_type_object) && json_object_object_get_ex(answer, field, &value) &&
        json_object_is_type(value, json_type_string))
        text = json_object_get_string(value);
    int status = 0;
    if (result != NULL) {
        *result = text == NULL ? NULL : strdup(text);
        if (text != NULL && *result == NULL) status = sesame__oom(error);
    }
    json_object_put(answer);
    return status;
}

int sesame__json_result(json_object *answer, char **result_json, sesame_error *error) {
    int status = 0;
    if (result_json != NULL) {
        *result_json = strdup(answer == NULL ? "null" : sesame__json_text(answer));
        if (*result_json == NULL) status = sesame__oom(error);
    }
    json_object_put(answer);
    return status;
}

sesame_state *sesame__state_new(json_object *json, const char *reason) {
    sesame_state *state = parse_whole(json, sesame__parse_state);
    if (state != NULL && reason != NULL) {
        /* The arena is the state's: its reason joins it. */
        sesame__arena *arena = (sesame__arena *)((unsigned char *)state - sesame__arena_data_offset());
        state->reason = sesame__strdup(arena, reason);
    }
    return state;
}

sesame_merge *sesame__merge_new(json_object *json) {
    return parse_whole(json, sesame__parse_merge);
}
