/* The protocol's objects as C structs (docs/protocol.md, "Objects").
 *
 * Every result a call returns is one allocation: free it with sesame_free(). Strings are
 * UTF-8 and NULL when the daemon sent null or left the field out; times are RFC 3339 UTC
 * strings (sesame_time_ms() reads them). Each struct keeps what this library knows; a state
 * also carries its whole JSON text, so a field a newer daemon adds is not lost. */
#ifndef SESAME_TYPES_H
#define SESAME_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks what libsesame exports (it builds with -fvisibility=hidden; see libsesame.map). */
#ifndef SESAME_API
#define SESAME_API __attribute__((visibility("default")))
#endif

/** An enrolled second factor (`User.factors`, a challenge's `factors`). */
typedef struct sesame_factor {
    const char *factor_id;
    const char *type;          /**< "totp" */
    const char *display_name;
    const char *enrolled_at;
} sesame_factor;

/** The signed-in user (`User`). */
typedef struct sesame_user {
    const char *uid;
    bool is_anonymous;
    const char *email;
    bool email_verified;
    const char *display_name;
    const char *username;
    const char *const *providers;   /**< provider ids ("password", "google.com", ...) */
    size_t provider_count;
    const char *created_at;
    const char *last_sign_in_at;
    const sesame_factor *factors;
    size_t factor_count;
    const char *pending_email;      /**< an address change awaiting confirmation, or NULL */
} sesame_user;

/** A guest's data waiting to move to an account (`Merge`): see sesame_rpc_complete_merge(). */
typedef struct sesame_merge {
    const char *merge_id;
    const char *from_uid;           /**< the anonymous user */
    const char *to_uid;             /**< the account */
    const char *created_at;
} sesame_merge;

/** The open interactive sign-in any program may show (`State.signInPrompt`). */
typedef struct sesame_sign_in_prompt {
    const char *flow_id;
    const char *provider_id;
    const char *flow;               /**< "device" or "browser" */
    const char *verification_uri;
    const char *verification_uri_complete;
    const char *user_code;
    const char *expires_at;
} sesame_sign_in_prompt;

/** The pending second-factor challenge (`State.secondFactor`). */
typedef struct sesame_second_factor_challenge {
    const char *challenge_id;
    const sesame_factor *factors;
    size_t factor_count;
    const char *expires_at;
} sesame_second_factor_challenge;

/** The backend's rate limit while `connectivity` is "rate-limited". */
typedef struct sesame_rate_limit {
    const char *operation;
    const char *retry_at;
    const char *limit;
} sesame_rate_limit;

/** The daemon's session state (`State`). */
typedef struct sesame_state {
    const char *status;             /**< "starting", "signedOut", "anonymous", "authenticated" */
    const sesame_user *user;        /**< NULL when signed out or starting */
    const char *token_expires_at;   /**< NULL when no ID token is held */
    const char *connectivity;       /**< "online", "offline", "rate-limited" */
    bool needs_username;
    const sesame_merge *pending_merges;
    size_t pending_merge_count;
    long long sequence;
    /** Why a subscription gave this state: "snapshot", "resynchronized", "token-refreshed",
     *  "connectivity-changed", "user-updated", "sign-in-flow-changed", or the reason of an
     *  authStateChanged ("linked", "signed-in", "merged", "reset", ...). NULL from a call. */
    const char *reason;
    const sesame_sign_in_prompt *sign_in_prompt;   /**< NULL when none */
    const sesame_second_factor_challenge *second_factor;  /**< NULL when none */
    const sesame_rate_limit *rate_limit;           /**< NULL when none */
    const char *json;               /**< the whole state as one line of JSON */
} sesame_state;

/** What the sign-in methods return: the new state, and the merge recorded when a guest
 *  signed in to an existing account (else NULL). */
typedef struct sesame_sign_in_result {
    const sesame_state *state;
    const sesame_merge *merge;
} sesame_sign_in_result;

/** An ID token (`getIdToken`). Send `token` as "Authorization: Bearer <token>"; never log it. */
typedef struct sesame_token {
    const char *token;
    const char *uid;
    const char *expires_at;
    const char *issued_at;
    const char *sign_in_provider;
} sesame_token;

/** The daemon's greeting (`hello`). */
typedef struct sesame_hello {
    const char *server;
    const char *version;
    int protocol;
    const char *instance;           /**< a new random id each time the daemon starts */
    const char *backend;
    const char *role;               /**< this caller's: "none", "observer", "reader", "manager" */
    bool has_peer;
    long long peer_uid, peer_gid, peer_pid;
} sesame_hello;

/** `checkUsername`'s answer. */
typedef struct sesame_username_availability {
    const char *username;
    bool available;
    const char *reason;             /**< when not available: invalid-username, username-taken, username-reserved */
} sesame_username_availability;

/** An interactive sign-in flow (`startSignIn`). */
typedef struct sesame_sign_in_flow {
    const char *flow_id;
    const char *provider_id;
    const char *flow;
    const char *status;
    const char *verification_uri;
    const char *verification_uri_complete;
    const char *user_code;
    const char *authorization_url;  /**< a browser flow's: open it, never log it */
    const char *expires_at;
    int interval_seconds;           /**< -1 when absent */
    const char *purpose;
    const char *state;
} sesame_sign_in_flow;

/** `enrollTotp`'s answer: show `otpauth_uri` as a QR code. */
typedef struct sesame_totp_enrollment {
    const char *enrollment_id;
    const char *secret;
    const char *otpauth_uri;
    const char *expires_at;
} sesame_totp_enrollment;

/** `reauthenticate`'s answer. */
typedef struct sesame_reauthentication {
    const char *valid_until;
    bool code_sent;
} sesame_reauthentication;

/** A credential for sesame_rpc_link_credential(): `provider_id` "password" (email, password),
 *  "emailLink" (email, link) or a federated id such as "google.com" (id_token, access_token).
 *  Unused members are NULL. */
typedef struct sesame_credential {
    const char *provider_id;
    const char *email;
    const char *password;
    const char *link;
    const char *id_token;
    const char *access_token;
} sesame_credential;

#ifdef __cplusplus
}
#endif
#endif
