'use strict';
// The state stream's logic, free of I/O. A StreamTracker is told what arrived (a new
// connection's instance, a snapshot, a notification, a getState answer) and answers with the
// states to give and whether a getState must be sent. Within one daemon instance it gives a
// state only when its sequence is newer than the last one given; a new instance starts over
// with its snapshot. tests/fixtures/stream-tracker.json holds the rules as rows.

/** Notifications that advance `sequence`. */
const STATE_EVENTS = new Set(['authStateChanged', 'idTokenChanged', 'userUpdated', 'connectivityChanged', 'signInFlowChanged']);

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A state as given to listeners: the daemon's State with `reason` (why it was given). */
function givenState(json, reason) {
  return deepFreeze({ ...structuredClone(json), reason });
}

class StreamTracker {
  constructor() {
    this.instance = null;
    this.lastSequence = 0;
    this.stateJSON = null;
    this.given = null; // {instance, sequence} of the last state given
    this.resyncing = false;
    this.held = [];
  }

  /** A new connection greeted by `instance`. A new instance means the sequence started over. */
  connected(instance) {
    if (instance !== this.instance || instance === null) {
      this.instance = instance;
      this.lastSequence = 0;
      this.stateJSON = null;
    }
    this.resyncing = false;
    this.held = [];
  }

  /** The state as of the current connection, to show a listener that joins now (null before the first snapshot). */
  current() {
    return this.stateJSON === null ? null : givenState(this.stateJSON, 'snapshot');
  }

  /** An authoritative state: `subscribe`'s, or `getState`'s after a gap (reason `resynchronized`). */
  snapshot(json, reason = 'snapshot') {
    if (!isObject(json) || !Number.isInteger(json.sequence) || typeof json.status !== 'string') {
      throw new TypeError('a State without status or sequence');
    }
    if (this.stateJSON === null || this.lastSequence === 0 || json.sequence > this.lastSequence) {
      this.stateJSON = json;
      this.lastSequence = json.sequence;
    }
    const states = [];
    this.offer(this.stateJSON, reason, states);
    return { states, resync: false };
  }

  /** A notification; `resync` is true when a gap needs a getState. */
  notification(method, params) {
    const states = [];
    const sequence = isObject(params) ? params.sequence : undefined;
    if (!STATE_EVENTS.has(method) || !Number.isInteger(sequence)) return { states, resync: false };
    if (this.resyncing) {
      this.held.push([method, params]);
      return { states, resync: false };
    }
    if (this.lastSequence !== 0) {
      if (sequence <= this.lastSequence) return { states, resync: false };
      if (sequence > this.lastSequence + 1) {
        this.resyncing = true;
        this.held.push([method, params]);
        return { states, resync: true };
      }
    }
    this.apply(method, params, sequence, states);
    return { states, resync: false };
  }

  /** The getState answer after a gap; null when that call failed (the gap is then accepted). */
  resynced(json) {
    this.resyncing = false;
    const held = this.held;
    this.held = [];
    const states = [];
    if (json !== null && json !== undefined) {
      states.push(...this.snapshot(json, 'resynchronized').states);
    } else if (held.length > 0) {
      this.lastSequence = held[0][1].sequence - 1;
    }
    let resync = false;
    for (const [method, params] of held) {
      const outcome = this.notification(method, params);
      states.push(...outcome.states);
      resync = resync || outcome.resync;
    }
    return { states, resync };
  }

  apply(method, params, sequence, states) {
    this.lastSequence = sequence;
    let next = null;
    let reason;
    if (method === 'authStateChanged') {
      next = isObject(params.state) ? params.state : null;
      reason = typeof params.reason === 'string' ? params.reason : 'auth-state-changed';
    } else if (method === 'userUpdated') {
      next = isObject(params.state) ? params.state : null;
      reason = 'user-updated';
    } else if (method === 'signInFlowChanged') {
      next = isObject(params.state) ? params.state : null;
      reason = 'sign-in-flow-changed';
    } else if (method === 'idTokenChanged' && this.stateJSON !== null) {
      next = { ...this.stateJSON, token: { expiresAt: params.expiresAt ?? null } };
      reason = 'token-refreshed';
    } else if (method === 'connectivityChanged' && this.stateJSON !== null) {
      next = { ...this.stateJSON, connectivity: params.connectivity, rateLimit: params.rateLimit ?? null };
      reason = 'connectivity-changed';
    }
    if (next === null || typeof next.status !== 'string') return;
    this.stateJSON = { ...next, sequence };
    this.offer(this.stateJSON, reason, states);
  }

  offer(json, reason, states) {
    const given = this.given;
    if (given !== null && given.instance === this.instance && json.sequence <= given.sequence) return;
    this.given = { instance: this.instance, sequence: json.sequence };
    states.push(givenState(json, reason));
  }
}

/** Reconnection delays in ms: 50 doubling to 2,000, each times a random 0.5...1.0. */
class Backoff {
  constructor(initial = 50, maximum = 2000, random = Math.random) {
    this.initial = initial;
    this.maximum = maximum;
    this.random = random;
    this.current = initial;
  }

  next() {
    const delay = this.current;
    this.current = Math.min(this.current * 2, this.maximum);
    return delay * (0.5 + this.random() / 2);
  }

  reset() {
    this.current = this.initial;
  }
}

module.exports = { StreamTracker, Backoff, STATE_EVENTS, givenState };
