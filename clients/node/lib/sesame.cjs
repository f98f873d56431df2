'use strict';
// Sesame: the Node client of sesamed. Calls share one connection and are pipelined by id; the
// state streams (listeners, stateChanges()) share one subscription on it (see hub.cjs).

const errors = require('./errors.cjs');
const { Connection } = require('./connection.cjs');
const { resolveSocketPath } = require('./discovery.cjs');
const { StreamHub } = require('./hub.cjs');
const { IdToken } = require('./models.cjs');
const { listen, iterate } = require('./streams.cjs');
const { sesameFetchWith } = require('./fetch.cjs');
const { METHODS, READS } = require('./methods.cjs');

class Sesame {
  /**
   * @param {{socket?: string, timeout?: number|null, clientName?: string, onError?: (error: unknown) => void}} [options]
   *   socket: the daemon's socket ($SESAME_SOCKET, else the user instance's when it exists, else the system one);
   *   timeout: ms a call may take unless it passes its own (default 5000; null: no limit);
   *   onError: where listener errors go (default: console.error, once per listener).
   */
  constructor(options = {}) {
    this.socketPath = options.socket || resolveSocketPath();
    this.timeout = options.timeout === undefined ? 5000 : options.timeout;
    this.clientName = options.clientName || 'sesame-client-node';
    this.onError = typeof options.onError === 'function' ? options.onError : null;
    this.closed = false;
    this.current = null; // the open Connection
    this.connecting = null;
    this.tokenCalls = new Map(); // identical getIdToken calls in flight share one request
    this.hub = new StreamHub(this);
    /** `async () => token string`: supabase-js's `accessToken` option, or any "give me a bearer" callback. */
    this.accessToken = async () => (await this.idToken()).token;
  }

  /** The open connection, or a new one (DaemonUnavailable when the daemon cannot be reached). */
  async connection() {
    if (this.closed) throw closedError();
    if (this.current !== null && !this.current.closed) return this.current;
    if (this.connecting === null) {
      const hooks = {};
      this.connecting = Connection.open(this.socketPath, hooks).then((connection) => {
        hooks.onNotification = (method, params) => this.hub.notification(connection, method, params);
        if (this.closed) {
          connection.close(closedError());
        } else {
          this.current = connection;
        }
        return connection;
      }).finally(() => { this.connecting = null; });
    }
    const connection = await this.connecting;
    if (this.closed) throw closedError();
    return connection;
  }

  /**
   * Sends any protocol method and resolves with its result as the daemon sent it.
   * @param {string} method
   * @param {object} [params]
   * @param {{timeout?: number|null, signal?: AbortSignal}} [options]
   */
  async call(method, params = {}, options = {}) {
    const timeout = options.timeout !== undefined ? options.timeout : this.timeout;
    for (let attempt = 0; ; attempt += 1) {
      const connection = await this.connection();
      try {
        return await connection.request(method, params ?? {}, { timeout, signal: options.signal });
      } catch (error) {
        const retry = attempt === 0 && READS.has(method) && error instanceof errors.ConnectionLost &&
          !(error instanceof errors.InvalidResponse) && !this.closed;
        if (!retry) throw error;
      }
    }
  }

  /** The daemon's version, instance and backend, and this caller's role. */
  hello(params = {}, options) {
    return this.call('hello', { client: this.clientName, ...params }, options);
  }

  /** The current state. */
  state(options) {
    return this.call('getState', {}, options);
  }

  /**
   * An ID token valid for at least `minValidity` seconds (the daemon's default: 300); identical
   * calls in flight at once share one request.
   * @param {{minValidity?: number, forceRefresh?: boolean, uid?: string}} [params]
   */
  async idToken(params = {}, options = {}) {
    const wire = {};
    if (params.minValidity !== undefined) wire.minValidity = params.minValidity;
    if (params.forceRefresh) wire.forceRefresh = true;
    if (params.uid !== undefined) wire.uid = params.uid;
    const key = JSON.stringify(wire);
    let shared = this.tokenCalls.get(key);
    if (shared === undefined) {
      shared = this.call('getIdToken', wire).then((json) => new IdToken(json));
      this.tokenCalls.set(key, shared);
      const forget = () => { if (this.tokenCalls.get(key) === shared) this.tokenCalls.delete(key); };
      shared.then(forget, forget);
    }
    return withLimits(shared, 'getIdToken', options, this);
  }

  /**
   * Waits for a sign-in flow to end. The call's own limit is the client's timeout plus the
   * flow's `timeout` (default 300 s), so it never cuts the wait short; no limit when the client
   * has none. `OperationInProgress` at `timeout`: the flow goes on, wait again.
   */
  awaitSignIn(params, options = {}) {
    const seconds = params && typeof params.timeout === 'number' ? params.timeout : 300;
    const timeout = this.timeout === null ? null : this.timeout + seconds * 1000;
    return this.call('awaitSignIn', params ?? {}, { timeout, ...options });
  }

  /** Calls `listener` with the current state, then every change; returns the function that stops it. */
  onStateChanged(listener, onError) {
    return listen(this, 'state', listener, onError);
  }

  /** Like Firebase's: the current state, then each change of user (status, uid or isAnonymous). */
  onAuthStateChanged(listener, onError) {
    return listen(this, 'auth', listener, onError);
  }

  /** Like Firebase's: the current state, then each change of user or of its ID token. */
  onIdTokenChanged(listener, onError) {
    return listen(this, 'token', listener, onError);
  }

  /** `for await (const state of sesame.stateChanges())`: the current state, then every change. */
  stateChanges(options = {}) {
    return iterate(this, options);
  }

  /**
   * fetch() with `Authorization: Bearer <ID token>`; after a 401, once more with a freshly
   * refreshed token.
   */
  fetch(input, init) {
    return sesameFetchWith(this, input, init);
  }

  /** Closes the connection; pending calls fail with Aborted, iterators end, listeners stop. */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.hub.closeAll();
    if (this.current !== null) this.current.close(closedError());
    this.current = null;
  }
}

for (const method of METHODS) {
  Object.defineProperty(Sesame.prototype, method, {
    value: function (params, options) { return this.call(method, params ?? {}, options); },
    writable: true,
    configurable: true,
  });
}

function closedError() {
  return new errors.Aborted('this Sesame client was closed');
}

/** A shared promise with one caller's own timeout and abort signal. */
function withLimits(promise, method, options, sesame) {
  const timeout = options.timeout !== undefined ? options.timeout : sesame.timeout;
  const signal = options.signal;
  if ((timeout === null || timeout === undefined) && !signal) return promise;
  return new Promise((resolve, reject) => {
    let timer = null;
    const onAbort = () => finish(() => reject(new errors.Aborted(`the ${method} call was aborted`)));
    const finish = (settle) => {
      if (timer !== null) clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal && signal.aborted) return onAbort();
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    if (timeout !== null && timeout !== undefined) {
      timer = setTimeout(() => finish(() => reject(new errors.Timeout(`sesamed at ${sesame.socketPath} did not answer ` +
        `${method} within ${timeout} ms; check that it is running (\`systemctl status sesamed\`) or pass a longer timeout`))), timeout);
      timer.unref();
    }
    promise.then((value) => finish(() => resolve(value)), (error) => finish(() => reject(error)));
  });
}

module.exports = { Sesame, METHODS };
