/* Reading members of the daemon's JSON and building the params of requests. */
#include <string.h>

#include "internal.h"

const char sesame_json_null[] = "null";

const char *sesame__member_string(sesame__arena *arena, json_object *object, const char *key) {
    json_object *value = NULL;
    if (object == NULL || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_string))
        return NULL;
    return sesame__strdup(arena, json_object_get_string(value));
}

bool sesame__member_bool(json_object *object, const char *key) {
    json_object *value = NULL;
    return object != NULL && json_object_object_get_ex(object, key, &value) &&
           json_object_is_type(value, json_type_boolean) && json_object_get_boolean(value);
}

long long sesame__member_int(json_object *object, const char *key, long long fallback) {
    json_object *value = NULL;
    if (object == NULL || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_int))
        return fallback;
    return (long long)json_object_get_int64(value);
}

json_object *sesame__member_object(json_object *object, const char *key) {
    json_object *value = NULL;
    if (object == NULL || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_object))
        return NULL;
    return value;
}

const char *sesame__json_text(json_object *object) {
    return json_object_to_json_string_ext(object, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

int sesame__put_string(json_object *params, const char *key, const char *value) {
    json_object *member = value == sesame_json_null ? NULL : json_object_new_string(value);
    if (member == NULL && value != sesame_json_null) return -1;
    return json_object_object_add(params, key, member);
}

void sesame__put_bool(json_object *params, const char *key, bool value) {
    json_object_object_add(params, key, json_object_new_boolean(value));
}

void sesame__put_number(json_object *params, const char *key, double value) {
    long long whole = (long long)value;
    if ((double)whole == value)
        json_object_object_add(params, key, json_object_new_int64(whole));
    else
        json_object_object_add(params, key, json_object_new_double(value));
}

int sesame__put_strings(json_object *params, const char *key, const char *const *values) {
    json_object *array = json_object_new_array();
    if (array == NULL) return -1;
    for (size_t i = 0; values[i] != NULL; i++) json_object_array_add(array, json_object_new_string(values[i]));
    return json_object_object_add(params, key, array);
}

int sesame__put_credential(json_object *params, const char *key, const sesame_credential *credential) {
    if (credential->provider_id == NULL) return -1;
    json_object *object = json_object_new_object();
    if (object == NULL) return -1;
    const char *names[] = {"providerId", "email", "password", "link", "idToken", "accessToken"};
    const char *values[] = {credential->provider_id, credential->email, credential->password,
                            credential->link, credential->id_token, credential->access_token};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (values[i] != NULL) sesame__put_string(object, names[i], values[i]);
    return json_object_object_add(params, key, object);
}

int sesame__put_json(json_object *params, const char *key, const char *json_text) {
    enum json_tokener_error failure = json_tokener_success;
    json_object *value = json_tokener_parse_verbose(json_text, &failure);
    if (failure != json_tokener_success) return -1;
    return json_object_object_add(params, key, value);
}
