'use strict';
// fetch() with the machine's ID token, retried once after a 401 with a freshly refreshed token.

/**
 * @param {import('./sesame.cjs').Sesame} sesame
 * @param {RequestInfo | URL} input
 * @param {RequestInit & {minValidity?: number}} [init]
 */
async function sesameFetchWith(sesame, input, init = {}) {
  const { minValidity, ...rest } = init;
  const request = new Request(input, rest);
  const spare = request.body !== null ? request.clone() : null; // the body can be sent only once
  const first = await sesame.idToken(minValidity === undefined ? {} : { minValidity });
  request.headers.set('Authorization', `Bearer ${first.token}`);
  const response = await fetch(request);
  if (response.status !== 401) return response;
  if (response.body) await response.body.cancel().catch(() => {});
  const again = spare ?? new Request(input, rest);
  const fresh = await sesame.idToken({ forceRefresh: true });
  again.headers.set('Authorization', `Bearer ${fresh.token}`);
  return fetch(again);
}

let shared = null;

/**
 * fetch() with `Authorization: Bearer <ID token>` from a client made on first use (socket
 * discovery as `new Sesame()`); after a 401, once more with a freshly refreshed token.
 */
function sesameFetch(input, init) {
  if (shared === null || shared.closed) {
    const { Sesame } = require('./sesame.cjs');
    shared = new Sesame();
  }
  return sesameFetchWith(shared, input, init);
}

module.exports = { sesameFetch, sesameFetchWith };
