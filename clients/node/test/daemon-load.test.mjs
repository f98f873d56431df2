// Against the real sesamed: thousands of calls at once, sesameFetch's retry, and supabase-js's
// accessToken callback called concurrently.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { Sesame } from '../index.mjs';
import { Emulator, Daemon, Recorder } from './support/harness.mjs';
import { startProxy } from './support/proxy.mjs';

let emulator;
before(async () => { emulator = await Emulator.start(); });
after(async () => { await emulator.stop(); });

test('thousands of concurrent idToken() calls: one connection, at most 64 in flight, bounded memory', async (t) => {
  const daemon = await Daemon.start(emulator);
  const proxy = await startProxy(daemon.socketPath);
  const sesame = new Sesame({ socket: proxy.path, timeout: 60000 });
  t.after(async () => { sesame.close(); await proxy.close(); await daemon.stop(); });
  const before = process.memoryUsage().heapUsed;
  const started = Date.now();
  const calls = Array.from({ length: 5000 }, (_, i) => sesame.idToken({ minValidity: 60 + (i % 1000) }));
  const tokens = await Promise.all(calls);
  const elapsed = Date.now() - started;
  assert.equal(new Set(tokens.map((token) => token.token)).size, 1);
  assert.equal(proxy.connections, 1);
  assert.equal(proxy.requests, 1000); // identical calls in flight at once share a request
  assert.ok(proxy.maxInFlight <= 64, `at most 64 in flight, saw ${proxy.maxInFlight}`);
  assert.ok(proxy.maxInFlight > 1, 'pipelined');
  assert.ok(process.memoryUsage().heapUsed - before < 64 * 1024 * 1024);
  t.diagnostic(`5000 idToken() calls (1000 distinct) in ${elapsed} ms, at most ${proxy.maxInFlight} in flight`);
});

test('sesameFetch sends the bearer, and after a 401 retries once with a refreshed token', async (t) => {
  const daemon = await Daemon.start(emulator);
  const sesame = daemon.client();
  const seen = [];
  let refuse = 1;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      seen.push({ authorization: request.headers.authorization, body });
      response.writeHead(refuse-- > 0 ? 401 : 200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(async () => { sesame.close(); server.close(); await daemon.stop(); });
  const url = `http://127.0.0.1:${server.address().port}/me`;
  const tokens = new Recorder();
  sesame.onIdTokenChanged(tokens.push);
  await tokens.wait('the current state', (v) => v.length === 1);
  const response = await sesame.fetch(url, { method: 'POST', body: 'hello' });
  assert.equal(response.status, 200);
  assert.equal(seen.length, 2);
  assert.deepEqual(seen.map((s) => s.body), ['hello', 'hello']);
  const held = await sesame.idToken();
  assert.equal(seen[1].authorization, `Bearer ${held.token}`);
  assert.match(seen[0].authorization, /^Bearer [\w-]+\.[\w-]+\.[\w-]*$/);
  await tokens.wait('the forced refresh', (v) => v.some((s) => s.reason === 'token-refreshed'));
  refuse = 5;
  const refused = await sesame.fetch(url);
  assert.equal(refused.status, 401); // one retry only
  assert.equal(seen.length, 4);
});

test("supabase-js's accessToken callback: concurrent calls from many clients share one daemon refresh", async (t) => {
  const daemon = await Daemon.start(emulator);
  const manager = daemon.client();
  const clients = Array.from({ length: 10 }, () => daemon.client());
  t.after(async () => {
    for (const client of [manager, ...clients]) client.close();
    await emulator.request('DELETE', '/sesame/v1/faults');
    await daemon.stop();
  });
  // Tokens that live 240 s: shorter than the 300 s the callback asks for, so each call needs a
  // refresh; a latency keeps that refresh open while the other calls arrive.
  await emulator.faults({ tokenTtlSeconds: 240, latencyMs: 1000, pathPrefix: '/securetoken.googleapis.com' });
  await manager.signOut({ reset: true });
  const before = (await emulator.faults()).calls.token ?? 0;
  // What the documented createClient(url, key, { accessToken: ... }) option calls:
  const callbacks = clients.flatMap((sesame) => [sesame.accessToken, async () => (await sesame.idToken()).token]);
  const tokens = await Promise.all(callbacks.flatMap((callback) => [callback(), callback(), callback()]));
  const afterwards = (await emulator.faults()).calls.token ?? 0;
  assert.equal(afterwards - before, 1, 'one refresh for all the concurrent calls');
  assert.equal(new Set(tokens).size, 1);
  assert.match(tokens[0], /^[\w-]+\.[\w-]+\.[\w-]*$/);
});
