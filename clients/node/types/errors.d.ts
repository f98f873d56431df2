// The error hierarchy (lib/errors.cjs). Per-reason classes are in reasons.d.ts (generated).

import type { SecondFactorChallenge } from './protocol.js';

/** Every error this package throws. No message ever holds a password, token or link. */
export declare class SesameError extends Error {
  constructor(message: string, details?: { code?: number | null; reason?: string; data?: Record<string, unknown> });
  /** PROTOCOL.md's code; null for errors the client detects itself. */
  readonly code: number | null;
  /** PROTOCOL.md's reason (`email-already-in-use`, ...), or the client's own (`daemon-unavailable`, `timeout`, ...). */
  readonly reason: string;
  /** The error's `data` object. */
  readonly data: Record<string, unknown>;
  /** `data.retryAfterMs` of backend errors (code 2000), else null. */
  readonly retryAfterMs: number | null;
  /** `data.email` of conflicts, when known. */
  readonly email: string | null;
  /** `data.providerId` of conflicts. */
  readonly providerId: string | null;
  /** `data.providers`: the sign-in methods an existing account has. */
  readonly providers: string[] | null;
  /** `data.requiredRole` of `permission-denied`. */
  readonly requiredRole: string | null;
  /** The challenge of `second-factor-required` (from `data`): answer it with `completeSecondFactor`. Null otherwise. */
  readonly challenge: SecondFactorChallenge | null;
}

/** An error sesamed answered with (an unknown code is thrown as this class). */
export declare class DaemonError extends SesameError {}
/** -32700...-32603: the request was not protocol. */
export declare class ProtocolError extends DaemonError {}
/** 1000: the person must do something. */
export declare class AuthenticationError extends DaemonError {}
/** 2000: the backend cannot be reached or refuses for now; retry after `retryAfterMs`. */
export declare class BackendUnavailable extends DaemonError {}
/** 3000: this user's role is too low; `requiredRole` says which is needed. */
export declare class PermissionDenied extends DaemonError {}
/** 4000: the operation does not fit the current state. */
export declare class StateError extends DaemonError {}

/** The daemon cannot be reached: no socket, nothing listening, or no permission. The message names the socket. */
export declare class DaemonUnavailable extends SesameError {
  constructor(message: string, socketPath?: string);
  readonly socketPath: string | undefined;
}
/** The connection closed before the answer; the call may or may not have been carried out. */
export declare class ConnectionLost extends DaemonUnavailable {}
/** The daemon sent a line that is not protocol (not a JSON object, or over 1 MiB); the connection was closed. */
export declare class InvalidResponse extends ConnectionLost {}
/** No answer within the call's timeout. */
export declare class Timeout extends SesameError {}
/** The call was aborted through its signal, or the client was closed. */
export declare class Aborted extends SesameError {}
