'use strict';
// The error hierarchy: one base class per protocol code, and the errors the client itself
// detects beside them. The per-reason classes (EmailAlreadyInUse, ...) are generated into
// reasons.cjs from the error table of docs/protocol.md by scripts/generate-reasons.mjs.

/** Every error this package throws. No message ever holds a password, token or link. */
class SesameError extends Error {
  /**
   * @param {string} message what happened and what to do next
   * @param {{code?: number|null, reason?: string, data?: object}} [details]
   */
  constructor(message, details = {}) {
    super(message);
    this.name = new.target.name;
    /** PROTOCOL.md's code; null for errors the client detects itself. */
    this.code = details.code ?? null;
    /** PROTOCOL.md's reason (`email-already-in-use`, ...), or the client's own. */
    this.reason = details.reason ?? new.target.defaultReason ?? '';
    /** The error's `data` object (`email`, `providerId`, `providers`, `retryAfterMs`, ...). */
    this.data = details.data && typeof details.data === 'object' ? { ...details.data } : {};
  }

  /** `data.retryAfterMs` of backend errors (code 2000), else null. */
  get retryAfterMs() {
    const value = this.data.retryAfterMs;
    return Number.isInteger(value) ? value : null;
  }

  /** `data.email` of conflicts, when known. */
  get email() {
    return typeof this.data.email === 'string' ? this.data.email : null;
  }

  /** `data.providerId` of conflicts. */
  get providerId() {
    return typeof this.data.providerId === 'string' ? this.data.providerId : null;
  }

  /** `data.providers`: the sign-in methods an existing account has. */
  get providers() {
    const value = this.data.providers;
    return Array.isArray(value) ? value.filter((p) => typeof p === 'string') : null;
  }

  /** `data.requiredRole` of `permission-denied`. */
  get requiredRole() {
    return typeof this.data.requiredRole === 'string' ? this.data.requiredRole : null;
  }

  /**
   * The open challenge of `second-factor-required` (`{challengeId, factors, expiresAt}` from
   * `data`): pass its `challengeId` to `completeSecondFactor`. Null for other errors.
   */
  get challenge() {
    if (typeof this.data.challengeId !== 'string') return null;
    const factors = Array.isArray(this.data.factors)
      ? this.data.factors.filter((f) => f !== null && typeof f === 'object' && typeof f.factorId === 'string')
      : [];
    const expiresAt = typeof this.data.expiresAt === 'string' ? this.data.expiresAt : null;
    return { challengeId: this.data.challengeId, factors, expiresAt };
  }
}

/** An error sesamed answered with (an unknown code is thrown as this class). */
class DaemonError extends SesameError {}

/** -32700...-32603: the request was not protocol (a bug in the caller or in this package). */
class ProtocolError extends DaemonError {}

/** 1000: the person must do something (sign in instead, choose another password, ...). */
class AuthenticationError extends DaemonError {}

/** 2000: the backend cannot be reached or refuses for now; retry after `retryAfterMs`. */
class BackendUnavailable extends DaemonError {}

/** 3000: this user's role is too low; `requiredRole` says which is needed. */
class PermissionDenied extends DaemonError {}

/** 4000: the operation does not fit the current state. */
class StateError extends DaemonError {}

/** The daemon cannot be reached: no socket, nothing listening, or no permission. */
class DaemonUnavailable extends SesameError {
  constructor(message, socketPath) {
    super(message);
    /** The socket the client tried. */
    this.socketPath = socketPath;
  }
}
DaemonUnavailable.defaultReason = 'daemon-unavailable';

/**
 * The connection closed before the answer. The request may or may not have been carried
 * out: read `state()` before repeating a call that changes the session.
 */
class ConnectionLost extends DaemonUnavailable {}
ConnectionLost.defaultReason = 'connection-lost';

/**
 * The daemon sent something that is not protocol (a line that is not a JSON object, or one
 * over the protocol's 1 MiB): the connection was closed, as it cannot be trusted any more.
 */
class InvalidResponse extends ConnectionLost {}
InvalidResponse.defaultReason = 'invalid-response';

/** No answer within the call's `timeout`. */
class Timeout extends SesameError {}
Timeout.defaultReason = 'timeout';

/** The call was aborted through its `signal`, or the client was closed. */
class Aborted extends SesameError {}
Aborted.defaultReason = 'aborted';

const CODE_CLASSES = new Map([
  [-32700, ProtocolError], [-32600, ProtocolError], [-32601, ProtocolError], [-32602, ProtocolError],
  [-32603, ProtocolError], [1000, AuthenticationError], [2000, BackendUnavailable],
  [3000, PermissionDenied], [4000, StateError],
]);

module.exports = {
  SesameError, DaemonError, ProtocolError, AuthenticationError, BackendUnavailable, PermissionDenied,
  StateError, DaemonUnavailable, ConnectionLost, InvalidResponse, Timeout, Aborted, CODE_CLASSES,
};
