'use strict';
// The one result that is a class: an ID token, whose secret stays out of logs.

const { inspect } = require('node:util');

/** `getIdToken`'s result. Send `token` as `Authorization: Bearer <token>`; console.log and util.inspect leave it out. */
class IdToken {
  constructor(json) {
    const object = json && typeof json === 'object' ? json : {};
    /** The JWT. */
    this.token = typeof object.token === 'string' ? object.token : '';
    this.uid = typeof object.uid === 'string' ? object.uid : '';
    /** RFC 3339 UTC. */
    this.expiresAt = typeof object.expiresAt === 'string' ? object.expiresAt : null;
    this.issuedAt = typeof object.issuedAt === 'string' ? object.issuedAt : null;
    this.signInProvider = typeof object.signInProvider === 'string' ? object.signInProvider : null;
  }

  /** Milliseconds until it expires (negative once expired; NaN without expiresAt). */
  expiresInMs(now = Date.now()) {
    return Date.parse(this.expiresAt ?? '') - now;
  }

  toString() {
    return `[IdToken uid=${this.uid} expiresAt=${this.expiresAt}]`;
  }

  [inspect.custom]() {
    return `IdToken { uid: ${inspect(this.uid)}, expiresAt: ${inspect(this.expiresAt)}, ` +
      `signInProvider: ${inspect(this.signInProvider)}, token: [hidden] }`;
  }
}

module.exports = { IdToken };
