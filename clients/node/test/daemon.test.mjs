// Against the real sesamed and sesame-emulator: calls, typed errors, listeners and streams
// across a daemon restart and a lost notification.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  Sesame, EmailAlreadyInUse, RequiresResetConfirmation, MethodNotFound, InvalidParams, OperationNotAllowed,
} from '../index.mjs';
import { Emulator, Daemon, Recorder, uniqueEmail } from './support/harness.mjs';
import { startProxy } from './support/proxy.mjs';

let emulator;
before(async () => { emulator = await Emulator.start(); });
after(async () => { await emulator.stop(); });

async function withDaemon(t, settings) {
  const daemon = await Daemon.start(emulator, settings);
  t.after(() => daemon.stop());
  return daemon;
}

test('hello, state and idToken on one connection', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const [hello, state, token] = await Promise.all([sesame.hello(), sesame.state(), sesame.idToken({ minValidity: 60 })]);
  assert.equal(hello.server, 'sesamed');
  assert.equal(hello.role, 'manager');
  assert.equal(typeof hello.instance, 'string');
  assert.equal(state.status, 'anonymous');
  assert.equal(token.uid, state.user.uid);
  assert.equal(token.token.split('.').length, 3);
  assert.ok(token.expiresInMs() > 60000);
  const forced = await sesame.idToken({ forceRefresh: true });
  assert.equal(forced.uid, state.user.uid);
});

test('errors arrive as their reason classes, with their data', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const email = uniqueEmail();
  await emulator.createAccount(email, 'correct horse battery');
  await assert.rejects(sesame.createAccount({ email, password: 'another horse battery' }), (error) =>
    error instanceof EmailAlreadyInUse && error.code === 1000 && error.email === email && !error.message.includes('horse'));
  await assert.rejects(sesame.signOut(), RequiresResetConfirmation);
  await assert.rejects(sesame.call('noSuchMethod'), MethodNotFound);
  await assert.rejects(sesame.signIn({ identifier: 42 }), InvalidParams);
  // A newer method this daemon may not have yet: typed, and answered.
  await sesame.startSignIn({ providerId: 'google.com', flow: 'device' }).catch((error) => assert.ok(error.code !== null));
  const signedIn = await sesame.signIn({ identifier: email, password: 'correct horse battery' });
  assert.equal(signedIn.state.status, 'authenticated');
  assert.ok(signedIn.merge !== null);
});

test('signOut with a scope: Firebase refuses others and everywhere as OperationNotAllowed naming what to deploy; a bad scope is InvalidParams', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const state = await sesame.createAccount({ email: uniqueEmail(), password: 'correct horse battery' });
  for (const scope of ['others', 'everywhere']) {
    await assert.rejects(sesame.signOut({ scope }), (error) =>
      error instanceof OperationNotAllowed && error.code === 1000 && error.message.includes('revokeRefreshTokens'));
  }
  await assert.rejects(sesame.signOut({ scope: 'global' }), InvalidParams);
  assert.equal((await sesame.state()).user.uid, state.user.uid);
});

test('onAuthStateChanged: the current state, then each change of user; onIdTokenChanged also sees new tokens', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const auth = new Recorder();
  const tokens = new Recorder();
  const stopAuth = sesame.onAuthStateChanged(auth.push);
  const stopTokens = sesame.onIdTokenChanged(tokens.push);
  const [first] = await auth.wait('the current state', (v) => v.length === 1);
  assert.equal(first.reason, 'snapshot');
  await tokens.wait('the current state', (v) => v.length === 1);
  await sesame.idToken({ forceRefresh: true });
  await tokens.wait('the refreshed token', (v) => v.some((s) => s.reason === 'token-refreshed'));
  await sesame.createAccount({ email: uniqueEmail(), password: 'correct horse battery' });
  const values = await auth.wait('linked', (v) => v.some((s) => s.reason === 'linked'));
  assert.deepEqual(values.map((s) => s.reason), ['snapshot', 'linked']);
  assert.equal(values[1].user.uid, first.user.uid);
  assert.equal(values[1].user.isAnonymous, false);
  stopAuth();
  stopTokens();
});

test('a daemon restart mid-stream: the stream goes on with the new instance, nothing stale or twice', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const stream = sesame.stateChanges();
  const first = (await stream.next()).value;
  assert.equal(first.reason, 'snapshot');
  const before = await sesame.hello();
  await daemon.restart();
  const after = await sesame.hello();
  assert.notEqual(after.instance, before.instance);
  const next = (await stream.next()).value;
  assert.equal(next.reason, 'snapshot');
  assert.equal(next.user.uid, first.user.uid); // the keyring kept the session
  await sesame.signOut({ reset: true });
  const changes = [next];
  while (changes[changes.length - 1].reason !== 'anonymous-created') changes.push((await stream.next()).value);
  assert.ok(changes.some((s) => s.reason === 'reset'));
  for (let i = 1; i < changes.length; i += 1) assert.equal(changes[i].sequence, changes[i - 1].sequence + 1);
  await stream.return();
  assert.deepEqual(await stream.next(), { value: undefined, done: true });
});

test('a listener follows a daemon that was down for a while', async (t) => {
  const daemon = await withDaemon(t);
  const sesame = daemon.client();
  t.after(() => sesame.close());
  const recorder = new Recorder();
  const stop = sesame.onStateChanged(recorder.push);
  await recorder.wait('the snapshot', (v) => v.length === 1);
  await daemon.kill();
  await assert.rejects(sesame.state(), /not running|nothing listens/);
  daemon.generation += 1;
  daemon.launch();
  await daemon.waitForStatus('anonymous');
  const values = await recorder.wait('the new instance', (v) => v.length === 2);
  assert.equal(values[1].reason, 'snapshot');
  stop();
});

test('a lost notification is repaired with getState', async (t) => {
  const daemon = await withDaemon(t);
  const proxy = await startProxy(daemon.socketPath);
  t.after(() => proxy.close());
  const direct = daemon.client();
  const sesame = new Sesame({ socket: proxy.path });
  t.after(() => { direct.close(); sesame.close(); });
  const recorder = new Recorder();
  sesame.onStateChanged(recorder.push);
  await recorder.wait('the snapshot', (v) => v.length === 1);
  proxy.drop = (message) => message.method === 'authStateChanged';
  await direct.signOut({ reset: true });
  const latest = (await direct.state()).sequence;
  const values = await recorder.wait('the repaired state', (v) => v[v.length - 1].sequence === latest);
  assert.equal(proxy.dropped.length, 1);
  assert.ok(values.some((s) => s.reason === 'resynchronized'), JSON.stringify(values.map((s) => s.reason)));
  const sequences = values.map((s) => s.sequence);
  assert.deepEqual(sequences, [...new Set(sequences)].sort((a, b) => a - b));
});
