/* libsesame: the C client of sesamed, the daemon that owns a Linux machine's auth session.
 *
 * Three parts:
 *   - calls: sesame_connect() opens a connection; every method of the local API is a blocking
 *     sesame_rpc_<method>() (sesame-methods.h) with a typed result; sesame_get_id_token() is
 *     the one-line way to a token.
 *   - subscriptions: sesame_subscribe() follows the state, snapshot first, then each change in
 *     order, across daemon restarts; sesame_subscription_fd() is one file descriptor to watch in
 *     any event loop (GLib, libuv, epoll, Qt) and sesame_dispatch() runs the callbacks.
 *   - errors: every failing call fills a sesame_error with the protocol's code and reason.
 *
 * The library starts no thread. A sesame_t or sesame_subscription_t is used by one thread at a
 * time; separate handles may be used from separate threads. Link with `pkg-config --libs sesame`. */
#ifndef SESAME_H
#define SESAME_H

#include <stdbool.h>
#include <stddef.h>

#include "sesame-types.h"
#include "sesame-reasons.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The protocol version this library speaks. */
#define SESAME_PROTOCOL_VERSION 1

/** The `code` of errors this library finds itself (no daemon, lost connection, timeout). */
#define SESAME_CLIENT_ERROR 0

/** Why a call failed. `code` is the protocol's (-32700...-32603, 1000, 2000, 3000, 4000) or
 *  SESAME_CLIENT_ERROR; branch on `reason`. `message` says what to do next and never holds a
 *  secret. */
typedef struct sesame_error {
    int code;
    sesame_reason reason;           /**< SESAME_REASON_UNKNOWN for a reason newer than this library */
    char reason_text[64];           /**< the reason as sent, e.g. "email-already-in-use" */
    char message[512];
    long long retry_after_ms;       /**< code 2000: when to try again; else -1 */
    char data[4096];                /**< the error's `data` as JSON text ("" when none or larger) */
} sesame_error;

/** A connection for calls. */
typedef struct sesame sesame_t;

/** Finds the daemon's socket as every Sesame client does: $SESAME_SOCKET when set and not
 *  empty, else the user instance's $XDG_RUNTIME_DIR/sesame/sesamed.sock when it exists, else
 *  the system instance's /run/sesame/sesamed.sock. Writes it to `buffer`; returns 0, or -1
 *  when it does not fit. */
SESAME_API int sesame_resolve_socket_path(char *buffer, size_t size);

/** Connects to the daemon at `socket_path` (NULL: sesame_resolve_socket_path()). On success
 *  stores a handle in `*out` (close it with sesame_close()) and returns 0; else returns -1 and
 *  fills `error` (may be NULL): reason SESAME_REASON_DAEMON_UNAVAILABLE when nothing listens.
 *  A handle whose connection drops reconnects on its next call. See sesame_connect(3). */
SESAME_API int sesame_connect(const char *socket_path, sesame_t **out, sesame_error *error);

/** Closes the connection and frees the handle (NULL is allowed). */
SESAME_API void sesame_close(sesame_t *sesame);

/** The socket path the handle uses. */
SESAME_API const char *sesame_socket_path(const sesame_t *sesame);

/** How long a call may wait for its answer, in milliseconds (default 60000; 0: no limit).
 *  awaitSignIn waits its own `timeout` on top. */
SESAME_API void sesame_set_timeout(sesame_t *sesame, int milliseconds);

/** Sends a request of any method with `params_json` (a JSON object as text, or NULL) and
 *  stores the answer's `result` as JSON text in `*result_json` (free() it; may be NULL).
 *  For methods newer than this library; the typed sesame_rpc_* calls are simpler. */
SESAME_API int sesame_call(sesame_t *sesame, const char *method, const char *params_json, char **result_json,
                sesame_error *error);

/** Returns a current ID token, valid for at least `min_validity` more seconds (0: the
 *  daemon's default, 300), as a string to free() with free(); NULL on failure (see `error`).
 *  `sesame` may be NULL: the call then connects, asks and closes. See sesame_get_id_token(3). */
SESAME_API char *sesame_get_id_token(sesame_t *sesame, int min_validity, sesame_error *error);

/** Frees any result of a sesame_rpc_* call (NULL is allowed). */
SESAME_API void sesame_free(void *result);

/** Milliseconds since the Unix epoch of an RFC 3339 time ("2026-11-21T10:00:00Z", with or
 *  without fractional seconds or an offset); -1 when `text` is NULL or not such a time. */
SESAME_API long long sesame_time_ms(const char *text);

/** The reason's wire name ("email-already-in-use"), or NULL for SESAME_REASON_UNKNOWN. */
SESAME_API const char *sesame_reason_name(sesame_reason reason);

/** The reason of a wire name, SESAME_REASON_UNKNOWN for a name this library does not know. */
SESAME_API sesame_reason sesame_reason_from_name(const char *name);

/** The protocol code a reason belongs to (SESAME_CLIENT_ERROR for this library's own). */
SESAME_API int sesame_reason_code(sesame_reason reason);

/* ---- Subscriptions ---------------------------------------------------------------------- */

/** A subscription to the daemon's state. */
typedef struct sesame_subscription sesame_subscription_t;

/** What a subscription calls from sesame_dispatch(). Members may be NULL. The pointers passed
 *  are valid only during the call. */
typedef struct sesame_callbacks {
    /** A state: the snapshot first (reason "snapshot"), then every change in order, each once.
     *  After a daemon restart the new daemon's snapshot comes, then its changes. */
    void (*on_state)(const sesame_state *state, void *user_data);
    /** A merge to carry out (with SESAME_SUBSCRIBE_MIGRATOR only): move the guest's data,
     *  then call sesame_rpc_complete_merge(). Each merge is given once. */
    void (*on_merge)(const sesame_merge *merge, void *user_data);
    /** The connection was lost (it reconnects by itself, with backoff) or the daemon refused
     *  the subscription (SESAME_REASON_PERMISSION_DENIED: it then ends; sesame_dispatch()
     *  returns -1). */
    void (*on_error)(const sesame_error *error, void *user_data);
} sesame_callbacks;

/** Also receive merges (needs the manager role): see sesame_callbacks.on_merge. */
#define SESAME_SUBSCRIBE_MIGRATOR 1u

/** Starts following the state of the daemon at `socket_path` (NULL: discovered). Connects at
 *  once when it can, else keeps trying; nothing is called until sesame_dispatch(). Returns 0
 *  and stores the subscription in `*out`, or -1 (out of memory, bad arguments). See
 *  sesame_subscribe(3). */
SESAME_API int sesame_subscribe(const char *socket_path, unsigned flags, const sesame_callbacks *callbacks,
                     void *user_data, sesame_subscription_t **out, sesame_error *error);

/** One file descriptor for the whole life of the subscription: when it is readable, call
 *  sesame_dispatch(). It covers the connection and the reconnection timer. */
SESAME_API int sesame_subscription_fd(const sesame_subscription_t *subscription);

/** Reads what is ready without blocking and runs the callbacks. Returns the number of states
 *  and merges given, or -1 when the subscription has ended (the daemon refused it). */
SESAME_API int sesame_dispatch(sesame_subscription_t *subscription);

/** The last state given (NULL before the snapshot); valid until the next sesame_dispatch(). */
SESAME_API const sesame_state *sesame_subscription_state(const sesame_subscription_t *subscription);

/** Ends the subscription, closes its descriptors and frees it (NULL is allowed). */
SESAME_API void sesame_unsubscribe(sesame_subscription_t *subscription);

#ifdef __cplusplus
}
#endif

#include "sesame-methods.h"

#endif
