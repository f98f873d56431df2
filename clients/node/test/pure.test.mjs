// Pure parts: discovery, the error classes, framing, the token's secrecy, the listeners' filters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import * as esm from '../index.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../lib/index.cjs');
const wire = require('../lib/wire.cjs');
const { Consumer } = require('../lib/consumer.cjs');
const { Backoff } = require('../lib/tracker.cjs');

test('discovery: $SESAME_SOCKET, then the user instance when its socket exists, then the system one', () => {
  const { resolveSocketPath } = esm;
  assert.equal(resolveSocketPath({ SESAME_SOCKET: '/x.sock', XDG_RUNTIME_DIR: '/run/user/1' }, () => true), '/x.sock');
  assert.equal(resolveSocketPath({ SESAME_SOCKET: '', XDG_RUNTIME_DIR: '/run/user/1/' }, () => true), '/run/user/1/sesame/sesamed.sock');
  assert.equal(resolveSocketPath({ XDG_RUNTIME_DIR: '/run/user/1' }, () => false), '/run/sesame/sesamed.sock');
  assert.equal(resolveSocketPath({}, () => true), '/run/sesame/sesamed.sock');
  const before = process.env.SESAME_SOCKET;
  process.env.SESAME_SOCKET = '/tmp/from-env.sock';
  try {
    assert.equal(new esm.Sesame().socketPath, '/tmp/from-env.sock');
    assert.equal(new esm.Sesame({ socket: '/tmp/given.sock' }).socketPath, '/tmp/given.sock');
  } finally {
    if (before === undefined) delete process.env.SESAME_SOCKET;
    else process.env.SESAME_SOCKET = before;
  }
});

test('the generated reason classes match the table of docs/protocol.md', () => {
  execFileSync(process.execPath, [new URL('../scripts/generate-reasons.mjs', import.meta.url).pathname, '--check'], { stdio: 'pipe' });
  for (const name of ['EmailAlreadyInUse', 'TooManyConnections', 'TooManyRequests', 'RequiresResetConfirmation', 'ParseError']) {
    assert.equal(typeof esm[name], 'function', name);
  }
  assert.ok(esm.REASON_CLASSES.size >= 38);
});

test('errors map to the reason class under its code, else the code class', () => {
  const conflict = wire.errorFromWire({ code: 1000, message: 'Sign in instead.',
    data: { reason: 'email-already-in-use', email: 'a@b.c', providerId: 'password' } });
  assert.ok(conflict instanceof esm.EmailAlreadyInUse && conflict instanceof esm.AuthenticationError);
  assert.deepEqual([conflict.code, conflict.reason, conflict.email, conflict.providerId, conflict.message, conflict.name],
    [1000, 'email-already-in-use', 'a@b.c', 'password', 'Sign in instead.', 'EmailAlreadyInUse']);
  const later = wire.errorFromWire({ code: 2000, message: 'later', data: { reason: 'too-many-requests', retryAfterMs: 1500 } });
  assert.ok(later instanceof esm.TooManyRequests && later instanceof esm.BackendUnavailable);
  assert.equal(later.retryAfterMs, 1500);
  const unknown = wire.errorFromWire({ code: 2000, message: 'new', data: { reason: 'a-future-reason' } });
  assert.equal(unknown.constructor, esm.BackendUnavailable);
  const odd = wire.errorFromWire({ code: 7, message: '?', data: { reason: 'email-already-in-use' } });
  assert.equal(odd.constructor, esm.DaemonError);
  const denied = wire.errorFromWire({ code: 3000, message: 'no', data: { reason: 'permission-denied', requiredRole: 'reader' } });
  assert.equal(denied.constructor, esm.PermissionDenied);
  assert.equal(denied.requiredRole, 'reader');
  assert.ok(esm.TooManyConnections.prototype instanceof esm.StateError);
  assert.ok(esm.InvalidParams.prototype instanceof esm.ProtocolError);
});

test('import and require give the very same classes', () => {
  assert.equal(esm.Sesame, cjs.Sesame);
  assert.equal(esm.EmailAlreadyInUse, cjs.EmailAlreadyInUse);
  assert.deepEqual(Object.keys(esm).sort(), Object.keys(cjs).sort());
});

test('framing: lines split across chunks, blank lines skipped', () => {
  const splitter = new wire.LineSplitter('/s', 16);
  assert.deepEqual(splitter.push(Buffer.from('{"a":1}\n{"b"')).map(String), ['{"a":1}']);
  assert.deepEqual(splitter.push(Buffer.from(':2}\n\n')).map(String), ['{"b":2}', '']);
  assert.equal(wire.decodeLine(Buffer.from('  '), '/s'), null);
  assert.throws(() => splitter.push(Buffer.from('x'.repeat(17))), esm.InvalidResponse);
  assert.throws(() => wire.decodeLine(Buffer.from('nope'), '/s'), esm.InvalidResponse);
  assert.equal(wire.encodeRequest(3, 'getState', {}).toString(), '{"jsonrpc":"2.0","id":3,"method":"getState"}\n');
});

test('an ID token stays out of console.log and string conversion', () => {
  const token = new esm.IdToken({ token: 'header.payload.signature', uid: 'u1', expiresAt: '2026-11-21T11:00:00Z' });
  assert.equal(token.token, 'header.payload.signature');
  assert.ok(!inspect(token).includes('signature') && !String(token).includes('signature'));
  assert.equal(token.expiresInMs(Date.parse('2026-11-21T10:59:00Z')), 60000);
});

test('auth listeners see user changes only; token listeners also see new tokens', () => {
  const state = (sequence, uid, expiresAt, connectivity = 'online') => ({ sequence, status: 'anonymous',
    user: { uid, isAnonymous: true }, token: { expiresAt }, connectivity });
  const got = { state: [], auth: [], token: [] };
  const consumers = Object.keys(got).map((kind) => new Consumer(kind, { next: (s) => got[kind].push(s.sequence) }));
  const feed = [state(1, 'a', 't1'), state(2, 'a', 't2'), state(3, 'a', 't2', 'offline'), state(3, 'a', 't2'),
    state(4, 'b', 't3'), state(2, 'b', 't3')];
  for (const s of feed) for (const consumer of consumers) consumer.offer(s, 'i1');
  assert.deepEqual(got, { state: [1, 2, 3, 4], auth: [1, 4], token: [1, 2, 4] });
  const sameSecond = { ...state(5, 'b', 't3'), reason: 'token-refreshed' }; // a new token, same expiry
  for (const consumer of consumers) consumer.offer(sameSecond, 'i1');
  assert.deepEqual(got, { state: [1, 2, 3, 4, 5], auth: [1, 4], token: [1, 2, 4, 5] });
  for (const consumer of consumers) consumer.offer(state(1, 'c', 't9'), 'i2'); // a restarted daemon
  assert.deepEqual(got, { state: [1, 2, 3, 4, 5, 1], auth: [1, 4, 1], token: [1, 2, 4, 5, 1] });
});

test('backoff: 50 ms doubling to 2 s, jittered, reset after a success', () => {
  const backoff = new Backoff(50, 2000, () => 1);
  assert.deepEqual(Array.from({ length: 8 }, () => backoff.next()), [50, 100, 200, 400, 800, 1600, 2000, 2000]);
  backoff.reset();
  assert.equal(new Backoff(50, 2000, () => 0).next(), 25);
  assert.equal(backoff.next(), 50);
});

test('the sign-in flow methods send the protocol\'s names and params; awaitSignIn outlasts its own timeout', async () => {
  const sent = [];
  const sesame = new esm.Sesame({ socket: '/nonexistent.sock', timeout: 5000 });
  sesame.call = async (method, params, options) => { sent.push({ method, params, options }); return {}; };
  await sesame.startSignIn({ providerId: 'github.com', flow: 'browser', redirectUri: 'http://127.0.0.1:9/callback' });
  await sesame.completeSignIn({ flowId: 'f1', callbackUrl: 'http://127.0.0.1:9/callback?code=c&state=s' });
  await sesame.awaitSignIn({ flowId: 'f1', timeout: 60 });
  await sesame.awaitSignIn({ flowId: 'f1' });
  await sesame.awaitSignIn({ flowId: 'f1' }, { timeout: 1000 });
  await sesame.cancelSignIn({ flowId: 'f1' });
  await sesame.signInWithCustomToken({ token: 't' });
  assert.deepEqual(sent.map((call) => call.method), ['startSignIn', 'completeSignIn', 'awaitSignIn', 'awaitSignIn',
    'awaitSignIn', 'cancelSignIn', 'signInWithCustomToken']);
  assert.deepEqual(sent[0].params, { providerId: 'github.com', flow: 'browser', redirectUri: 'http://127.0.0.1:9/callback' });
  assert.deepEqual(sent[1].params, { flowId: 'f1', callbackUrl: 'http://127.0.0.1:9/callback?code=c&state=s' });
  assert.deepEqual(sent[2].params, { flowId: 'f1', timeout: 60 });
  assert.equal(sent[2].options.timeout, 65000);
  assert.equal(sent[3].options.timeout, 305000);
  assert.equal(sent[4].options.timeout, 1000, 'a timeout the caller gives wins');
  assert.deepEqual(sent[5].params, { flowId: 'f1' });
  assert.deepEqual(sent[6].params, { token: 't' });
  const unlimited = new esm.Sesame({ socket: '/nonexistent.sock', timeout: null });
  unlimited.call = async (method, params, options) => { sent.push({ method, params, options }); return {}; };
  await unlimited.awaitSignIn({ flowId: 'f2' });
  assert.equal(sent[7].options.timeout, null);
});

test('the sign-in flow reasons have their classes under AuthenticationError', () => {
  for (const name of ['AccessDenied', 'ExpiredSignInFlow', 'SignInCancelled', 'InvalidCustomToken']) {
    assert.equal(typeof esm[name], 'function', name);
    assert.ok(esm[name].prototype instanceof esm.AuthenticationError, name);
  }
});
