// Faults a real daemon does not make, against a scripted socket: a daemon that is down, lines
// that are not protocol or over its limit, a connection refused as a whole, silence, a
// listener that throws, and thousands of calls at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Sesame, DaemonUnavailable, InvalidResponse, Timeout, TooManyConnections, ConnectionLost, Aborted, RequestTooLarge,
} from '../index.mjs';
import { startFakeDaemon, fakeState, basicHandler, until } from './support/fake-daemon.mjs';

test('a daemon that is down is a DaemonUnavailable naming the socket, and nothing exits', async () => {
  const path = '/tmp/no-such-sesame-node/s.sock';
  const sesame = new Sesame({ socket: path });
  await assert.rejects(sesame.idToken(), (error) => error instanceof DaemonUnavailable &&
    error.message.includes(path) && error.message.includes('not running') && error.socketPath === path);
  await assert.rejects(sesame.stateChanges().next(), DaemonUnavailable);
  const errors = [];
  await new Promise((resolve) => {
    sesame.onAuthStateChanged(() => assert.fail('no state without a daemon'), (error) => { errors.push(error); resolve(); });
  });
  await new Promise((resolve) => {
    sesame.onIdTokenChanged({ next: () => assert.fail('no state'), error: (error) => { errors.push(error); resolve(); } });
  });
  assert.ok(errors.length === 2 && errors.every((error) => error instanceof DaemonUnavailable));
  // A socket file nobody listens on (a daemon that died): refused, with the same advice.
  const directory = mkdtempSync(join(tmpdir(), 'node-stale-'));
  const stale = join(directory, 's.sock');
  // Bound and never listened on, as a crashed daemon leaves it (Node's own servers unlink theirs).
  execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', stale]);
  await assert.rejects(new Sesame({ socket: stale }).state(), (error) => error instanceof DaemonUnavailable &&
    error.message.includes(`nothing listens at ${stale}`));
  rmSync(directory, { recursive: true, force: true });
});

test('a malformed line fails the pending calls with InvalidResponse; the next call connects again', async (t) => {
  let connectionCount = 0;
  const daemon = await startFakeDaemon((message, connection) => {
    if (connection.requests.length === 1) connectionCount += 1;
    if (connectionCount === 1) connection.send('this is not json');
    else connection.answer(message.id, fakeState(3));
  });
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  await assert.rejects(sesame.state(), (error) => error instanceof InvalidResponse && error instanceof ConnectionLost &&
    error.message.includes(daemon.path) && error.reason === 'invalid-response');
  assert.equal((await sesame.state()).sequence, 3);
  sesame.close();
});

test('a JSON line that is not an object is a protocol error too', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => connection.send('[1,2,3]'));
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  await assert.rejects(sesame.hello(), InvalidResponse);
  sesame.close();
});

test('a line over 1 MiB is refused before it is all read', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => {
    connection.socket.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"pad":"`);
    connection.socket.write('x'.repeat(1024 * 1024 + 10)); // no newline follows
  });
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  await assert.rejects(sesame.state(), (error) => error instanceof InvalidResponse && /over 1048576 bytes/.test(error.message));
  sesame.close();
});

test('a line of exactly 1 MiB is read', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => {
    const head = `{"jsonrpc":"2.0","id":${message.id},"result":{"pad":"`;
    const tail = '"}}';
    connection.send(head + 'y'.repeat(1024 * 1024 - head.length - tail.length) + tail);
  });
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  const result = await sesame.call('getState');
  const head = '{"jsonrpc":"2.0","id":1,"result":{"pad":"';
  assert.equal(result.pad.length, 1024 * 1024 - head.length - '"}}'.length);
  sesame.close();
});

test('a request over 65,536 bytes is refused before it is sent', async (t) => {
  const daemon = await startFakeDaemon((message, connection) => connection.answer(message.id, {}));
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  await assert.rejects(sesame.updateProfile({ displayName: 'x'.repeat(70000) }), (error) =>
    error instanceof RequestTooLarge && error.code === -32600 && !error.message.includes('xxxx'));
  assert.deepEqual(await sesame.updateProfile({ displayName: 'short' }), {});
  assert.equal(daemon.connections[0].requests.length, 1);
  sesame.close();
});

test('too-many-connections (id null) fails the call with its typed error', async (t) => {
  const daemon = await startFakeDaemon(() => {});
  daemon.connections.length = 0;
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  const pending = sesame.state();
  await until('the request arrived', () => daemon.connections.length === 1 && daemon.connections[0].requests.length === 1);
  daemon.connections[0].send({ jsonrpc: '2.0', id: null, error: { code: 4000, message: 'sesamed is full', data: { reason: 'too-many-connections' } } });
  await assert.rejects(pending, (error) => error instanceof TooManyConnections && error.code === 4000);
  sesame.close();
});

test('a silent daemon times a call out; an aborted call and a closed client say so', async (t) => {
  const daemon = await startFakeDaemon(() => {});
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path, timeout: 100 });
  await assert.rejects(sesame.state(), (error) => error instanceof Timeout && error.message.includes('getState'));
  await assert.rejects(sesame.idToken({}, { timeout: 50 }), Timeout);
  const controller = new AbortController();
  const aborted = sesame.reload({}, { signal: controller.signal, timeout: null });
  controller.abort();
  await assert.rejects(aborted, Aborted);
  const waiting = sesame.call('getState', {}, { timeout: null });
  sesame.close();
  await assert.rejects(waiting, Aborted);
  await assert.rejects(sesame.state(), Aborted);
});

test('thousands of concurrent calls share one connection with at most 64 in flight', async (t) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const daemon = await startFakeDaemon((message, connection) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setImmediate(() => {
      inFlight -= 1;
      connection.answer(message.id, { token: `t-${message.params ? message.params.minValidity : 'd'}`, uid: 'u',
        expiresAt: '2026-11-21T11:00:00Z', issuedAt: '2026-11-21T10:00:00Z', signInProvider: 'anonymous' });
    });
  });
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path, timeout: null });
  const before = process.memoryUsage().heapUsed;
  const calls = [];
  for (let i = 0; i < 5000; i += 1) calls.push(sesame.idToken({ minValidity: 60 + (i % 2500) }));
  const tokens = await Promise.all(calls);
  assert.equal(tokens.length, 5000);
  assert.equal(tokens[4999].token, `t-${60 + (4999 % 2500)}`);
  assert.equal(daemon.connections.length, 1);
  assert.equal(daemon.connections[0].requests.length, 2500); // identical calls in flight share one request
  assert.ok(maxInFlight <= 64 && maxInFlight >= 32, `max in flight ${maxInFlight}`);
  assert.ok(sesame.current.maxInFlight <= 64);
  assert.equal(sesame.current.pending.size, 0);
  assert.equal(sesame.current.queue.length - sesame.current.queueHead, 0);
  assert.ok(process.memoryUsage().heapUsed - before < 64 * 1024 * 1024, 'memory stays bounded');
  sesame.close();
});

test('a listener that throws keeps listening, and its error is reported once per throw', async (t) => {
  let state = fakeState(1);
  const daemon = await startFakeDaemon(basicHandler(() => state));
  t.after(() => daemon.close());
  const reported = [];
  const sesame = new Sesame({ socket: daemon.path, onError: (error) => reported.push(error) });
  const seen = [];
  const unsubscribe = sesame.onStateChanged((s) => {
    seen.push(s.sequence);
    if (s.sequence === 1) throw new Error('listener bug');
  });
  await until('the snapshot', () => seen.length === 1);
  state = fakeState(2, 'guest1', { connectivity: 'offline' });
  daemon.connections[0].send({ jsonrpc: '2.0', method: 'connectivityChanged', params: { connectivity: 'offline', sequence: 2 } });
  await until('the change', () => seen.length === 2);
  assert.deepEqual(seen, [1, 2]);
  assert.equal(reported.length, 1);
  assert.equal(reported[0].message, 'listener bug');
  unsubscribe();
  sesame.close();
});

test('without onError, console.error prints the first error of a listener only', async (t) => {
  const daemon = await startFakeDaemon(basicHandler(() => fakeState(1)));
  t.after(() => daemon.close());
  const printed = [];
  const original = console.error;
  console.error = (...args) => printed.push(args);
  t.after(() => { console.error = original; });
  const sesame = new Sesame({ socket: daemon.path });
  let calls = 0;
  sesame.onStateChanged(async () => { calls += 1; throw new Error(`rejected ${calls}`); });
  await until('the snapshot', () => calls === 1);
  for (let sequence = 2; sequence <= 4; sequence += 1) {
    daemon.connections[0].send({ jsonrpc: '2.0', method: 'connectivityChanged', params: { connectivity: 'offline', sequence } });
  }
  await until('three more states', () => calls === 4);
  await until('the rejection was reported', () => printed.length >= 1);
  assert.equal(printed.length, 1);
  assert.match(String(printed[0][0]), /keeps listening/);
  assert.equal(printed[0][1].message, 'rejected 1');
  sesame.close();
});

test('stateChanges(): a reader far behind skips to the newest state; its signal ends it', async (t) => {
  const daemon = await startFakeDaemon(basicHandler(() => fakeState(1)));
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  const controller = new AbortController();
  const stream = sesame.stateChanges({ signal: controller.signal });
  assert.equal((await stream.next()).value.reason, 'snapshot');
  const seen = new Promise((resolve) => sesame.onStateChanged((s) => { if (s.sequence === 1001) resolve(); }));
  for (let sequence = 2; sequence <= 1001; sequence += 1) {
    daemon.connections[0].send({ jsonrpc: '2.0', method: 'connectivityChanged',
      params: { connectivity: sequence % 2 ? 'online' : 'offline', sequence } });
  }
  await seen;
  const next = (await stream.next()).value;
  assert.ok(next.sequence > 1001 - 256, `skipped ahead to ${next.sequence}`);
  let last = next.sequence;
  for (;;) {
    const { value } = await stream.next();
    assert.equal(value.sequence, last + 1);
    last = value.sequence;
    if (last === 1001) break;
  }
  controller.abort();
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
  sesame.close();
});

test('a malformed line on the subscription connection: the stream reconnects and goes on, nothing twice', async (t) => {
  let state = fakeState(4);
  const daemon = await startFakeDaemon(basicHandler(() => state));
  t.after(() => daemon.close());
  const sesame = new Sesame({ socket: daemon.path });
  const seen = [];
  sesame.onStateChanged((s) => seen.push([s.sequence, s.reason]));
  await until('the snapshot', () => seen.length === 1);
  daemon.connections[0].send('{"jsonrpc":"2.0","method":"authStateChanged","params":{"state":');
  await until('a second subscription', () => daemon.connections.length === 2 &&
    daemon.connections[1].requests.some((r) => r.method === 'subscribe'));
  await until('its answer was read', () => sesame.hub.live === sesame.current);
  state = fakeState(5, 'guest1', { connectivity: 'offline' });
  daemon.connections[1].send({ jsonrpc: '2.0', method: 'connectivityChanged', params: { connectivity: 'offline', sequence: 5 } });
  await until('the change', () => seen.length === 2);
  assert.deepEqual(seen, [[4, 'snapshot'], [5, 'connectivity-changed']]);
  sesame.close();
});
