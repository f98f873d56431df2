/* The protocol's objects from their JSON (docs/protocol.md, "Objects"), into a result's arena. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define STRING(target, object, key) ((target) = sesame__member_string(arena, (object), (key)))

static json_object *array_member(json_object *object, const char *key) {
    json_object *value = NULL;
    if (object == NULL || !json_object_object_get_ex(object, key, &value) || !json_object_is_type(value, json_type_array))
        return NULL;
    return value;
}

static const sesame_factor *factors(sesame__arena *arena, json_object *object, size_t *count) {
    json_object *array = array_member(object, "factors");
    size_t length = array == NULL ? 0 : json_object_array_length(array);
    sesame_factor *list = sesame__alloc(arena, sizeof(sesame_factor) * (length ? length : 1));
    *count = 0;
    for (size_t i = 0; list != NULL && i < length; i++) {
        json_object *item = json_object_array_get_idx(array, i);
        if (!json_object_is_type(item, json_type_object)) continue;
        sesame_factor *factor = &list[(*count)++];
        STRING(factor->factor_id, item, "factorId");
        STRING(factor->type, item, "type");
        STRING(factor->display_name, item, "displayName");
        STRING(factor->enrolled_at, item, "enrolledAt");
    }
    return list;
}

static const sesame_user *user(sesame__arena *arena, json_object *json) {
    if (json == NULL) return NULL;
    sesame_user *user = sesame__alloc(arena, sizeof *user);
    if (user == NULL) return NULL;
    STRING(user->uid, json, "uid");
    user->is_anonymous = sesame__member_bool(json, "isAnonymous");
    STRING(user->email, json, "email");
    user->email_verified = sesame__member_bool(json, "emailVerified");
    STRING(user->display_name, json, "displayName");
    STRING(user->username, json, "username");
    json_object *providers = array_member(json, "providers");
    size_t length = providers == NULL ? 0 : json_object_array_length(providers);
    const char **list = sesame__alloc(arena, sizeof(char *) * (length + 1));
    for (size_t i = 0; list != NULL && i < length; i++) {
        json_object *item = json_object_array_get_idx(providers, i);
        if (json_object_is_type(item, json_type_string))
            list[user->provider_count++] = sesame__strdup(arena, json_object_get_string(item));
    }
    user->providers = list;
    STRING(user->created_at, json, "createdAt");
    STRING(user->last_sign_in_at, json, "lastSignInAt");
    user->factors = factors(arena, json, &user->factor_count);
    STRING(user->pending_email, json, "pendingEmail");
    return user;
}

void *sesame__parse_merge(sesame__arena *arena, json_object *json) {
    if (json == NULL || !json_object_is_type(json, json_type_object)) return NULL;
    sesame_merge *merge = sesame__alloc(arena, sizeof *merge);
    if (merge == NULL) return NULL;
    STRING(merge->merge_id, json, "mergeId");
    STRING(merge->from_uid, json, "fromUid");
    STRING(merge->to_uid, json, "toUid");
    STRING(merge->created_at, json, "createdAt");
    return merge;
}

static void fill_merge(sesame__arena *arena, sesame_merge *merge, json_object *json) {
    STRING(merge->merge_id, json, "mergeId");
    STRING(merge->from_uid, json, "fromUid");
    STRING(merge->to_uid, json, "toUid");
    STRING(merge->created_at, json, "createdAt");
}

static void state_parts(sesame__arena *arena, sesame_state *state, json_object *json) {
    json_object *prompt = sesame__member_object(json, "signInPrompt");
    if (prompt != NULL) {
        sesame_sign_in_prompt *p = sesame__alloc(arena, sizeof *p);
        if (p != NULL) {
            STRING(p->flow_id, prompt, "flowId");
            STRING(p->provider_id, prompt, "providerId");
            STRING(p->flow, prompt, "flow");
            STRING(p->verification_uri, prompt, "verificationUri");
            STRING(p->verification_uri_complete, prompt, "verificationUriComplete");
            STRING(p->user_code, prompt, "userCode");
            STRING(p->expires_at, prompt, "expiresAt");
        }
        state->sign_in_prompt = p;
    }
    json_object *challenge = sesame__member_object(json, "secondFactor");
    if (challenge != NULL) {
        sesame_second_factor_challenge *c = sesame__alloc(arena, sizeof *c);
        if (c != NULL) {
            STRING(c->challenge_id, challenge, "challengeId");
            c->factors = factors(arena, challenge, &c->factor_count);
            STRING(c->expires_at, challenge, "expiresAt");
        }
        state->second_factor = c;
    }
    json_object *limit = sesame__member_object(json, "rateLimit");
    if (limit != NULL) {
        sesame_rate_limit *r = sesame__alloc(arena, sizeof *r);
        if (r != NULL) {
            STRING(r->operation, limit, "operation");
            STRING(r->retry_at, limit, "retryAt");
            STRING(r->limit, limit, "limit");
        }
        state->rate_limit = r;
    }
}

void *sesame__parse_state(sesame__arena *arena, json_object *json) {
    if (json == NULL || !json_object_is_type(json, json_type_object)) return NULL;
    sesame_state *state = sesame__alloc(arena, sizeof *state);
    if (state == NULL) return NULL;
    STRING(state->status, json, "status");
    state->user = user(arena, sesame__member_object(json, "user"));
    STRING(state->token_expires_at, sesame__member_object(json, "token"), "expiresAt");
    STRING(state->connectivity, json, "connectivity");
    state->needs_username = sesame__member_bool(json, "needsUsername");
    json_object *merges = array_member(json, "pendingMerges");
    size_t length = merges == NULL ? 0 : json_object_array_length(merges);
    sesame_merge *list = sesame__alloc(arena, sizeof(sesame_merge) * (length ? length : 1));
    for (size_t i = 0; list != NULL && i < length; i++) {
        json_object *item = json_object_array_get_idx(merges, i);
        if (json_object_is_type(item, json_type_object)) fill_merge(arena, &list[state->pending_merge_count++], item);
    }
    state->pending_merges = list;
    state->sequence = sesame__member_int(json, "sequence", 0);
    state_parts(arena, state, json);
    state->json = sesame__strdup(arena, sesame__json_text(json));
    return state;
}

void *sesame__parse_sign_in_result(sesame__arena *arena, json_object *json) {
    sesame_sign_in_result *result = sesame__alloc(arena, sizeof *result);
    if (result == NULL) return NULL;
    result->state = sesame__parse_state(arena, sesame__member_object(json, "state"));
    result->merge = sesame__parse_merge(arena, sesame__member_object(json, "merge"));
    return result->state == NULL ? NULL : result;
}

void *sesame__parse_token(sesame__arena *arena, json_object *json) {
    sesame_token *token = sesame__alloc(arena, sizeof *token);
    if (token == NULL) return NULL;
    STRING(token->token, json, "token");
    STRING(token->uid, json, "uid");
    STRING(token->expires_at, json, "expiresAt");
    STRING(token->issued_at, json, "issuedAt");
    STRING(token->sign_in_provider, json, "signInProvider");
    return token->token == NULL ? NULL : token;
}

void *sesame__parse_hello(sesame__arena *arena, json_object *json) {
    sesame_hello *hello = sesame__alloc(arena, sizeof *hello);
    if (hello == NULL) return NULL;
    STRING(hello->server, json, "server");
    STRING(hello->version, json, "version");
    hello->protocol = (int)sesame__member_int(json, "protocol", 0);
    STRING(hello->instance, json, "instance");
    STRING(hello->backend, json, "backend");
    STRING(hello->role, json, "role");
    json_object *peer = sesame__member_object(json, "peer");
    hello->has_peer = peer != NULL;
    hello->peer_uid = sesame__member_int(peer, "uid", -1);
    hello->peer_gid = sesame__member_int(peer, "gid", -1);
    hello->peer_pid = sesame__member_int(peer, "pid", -1);
    return hello;
}

void *sesame__parse_username_availability(sesame__arena *arena, json_object *json) {
    sesame_username_availability *answer = sesame__alloc(arena, sizeof *answer);
    if (answer == NULL) return NULL;
    STRING(answer->username, json, "username");
    answer->available = sesame__member_bool(json, "available");
    STRING(answer->reason, json, "reason");
    return answer;
}

void *sesame__parse_sign_in_flow(sesame__arena *arena, json_object *json) {
    sesame_sign_in_flow *flow = sesame__alloc(arena, sizeof *flow);
    if (flow == NULL) return NULL;
    STRING(flow->flow_id, json, "flowId");
    STRING(flow->provider_id, json, "providerId");
    STRING(flow->flow, json, "flow");
    STRING(flow->status, json, "status");
    STRING(flow->verification_uri, json, "verificationUri");
    STRING(flow->verification_uri_complete, json, "verificationUriComplete");
    STRING(flow->user_code, json, "userCode");
    STRING(flow->authorization_url, json, "authorizationUrl");
    STRING(flow->expires_at, json, "expiresAt");
    flow->interval_seconds = (int)sesame__member_int(json, "intervalSeconds", -1);
    STRING(flow->purpose, json, "purpose");
    STRING(flow->state, json, "state");
    return flow;
}

void *sesame__parse_totp_enrollment(sesame__arena *arena, json_object *json) {
    sesame_totp_enrollment *enrollment = sesame__alloc(arena, sizeof *enrollment);
    if (enrollment == NULL) return NULL;
    STRING(enrollment->enrollment_id, json, "enrollmentId");
    STRING(enrollment->secret, json, "secret");
    STRING(enrollment->otpauth_uri, json, "otpauthUri");
    STRING(enrollment->expires_at, json, "expiresAt");
    return enrollment;
}

void *sesame__parse_reauthentication(sesame__arena *arena, json_object *json) {
    sesame_reauthentication *answer = sesame__alloc(arena, sizeof *answer);
    if (answer == NULL) return NULL;
    STRING(answer->valid_until, json, "validUntil");
    answer->code_sent = sesame__member_bool(json, "codeSent");
    return answer;
}
