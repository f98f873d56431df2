'use strict';
// One reader of the client's states (a listener or a stateChanges() iterator) with what it has
// been given, so it is never given the same state twice, nor (for the auth and token kinds) a
// state that does not change what it watches.

/**
 * What each kind watches: every change, the user (status, uid, isAnonymous), or the user and its
 * token (also every `token-refreshed`: a new token may expire at the same second as the last).
 */
const KEYS = {
  state: null,
  auth: (s) => JSON.stringify([s.status, s.user ? s.user.uid : null, s.user ? s.user.isAnonymous === true : null]),
  token: (s) => JSON.stringify([s.status, s.user ? s.user.uid : null, s.user ? s.user.isAnonymous === true : null,
    s.token ? s.token.expiresAt : null]),
};

class Consumer {
  /**
   * @param {'state'|'auth'|'token'} kind
   * @param {{next: (state: object) => void, error: (error: Error) => void, end?: () => void}} sink
   */
  constructor(kind, sink) {
    this.kind = kind;
    this.key = KEYS[kind];
    this.sink = sink;
    this.last = null; // {instance, sequence} of the last state offered
    this.lastKey = null;
  }

  /** Whether this consumer has had a state (a later connection failure no longer ends it). */
  get established() {
    return this.last !== null;
  }

  offer(state, instance) {
    const last = this.last;
    if (last !== null && last.instance === instance && state.sequence <= last.sequence) return;
    this.last = { instance, sequence: state.sequence };
    if (this.key !== null) {
      const key = this.key(state);
      const changed = key !== this.lastKey || (this.kind === 'token' && state.reason === 'token-refreshed');
      this.lastKey = key;
      if (!changed) return;
    }
    this.sink.next(state);
  }
}

module.exports = { Consumer };
