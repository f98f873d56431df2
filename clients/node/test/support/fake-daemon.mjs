// A Unix socket server that speaks as much of the protocol as a test scripts: each request line
// is handed to `onRequest(message, connection)`, which answers with connection.send(...) (or
// not at all). Used for faults a real sesamed never makes (malformed or oversized lines).
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startFakeDaemon(onRequest) {
  const directory = mkdtempSync(join(tmpdir(), 'node-fake-'));
  const path = join(directory, 's.sock');
  const connections = [];
  const server = net.createServer((socket) => {
    const connection = {
      socket,
      requests: [],
      send(message) {
        socket.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
      },
      answer(id, result) {
        this.send({ jsonrpc: '2.0', id, result });
      },
    };
    connections.push(connection);
    let buffered = '';
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      let end;
      while ((end = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const message = JSON.parse(line);
        connection.requests.push(message);
        onRequest(message, connection);
      }
    });
  });
  await new Promise((resolve) => server.listen(path, resolve));
  return {
    path,
    connections,
    async close() {
      for (const connection of connections) connection.socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A State as the daemon sends it. */
export function fakeState(sequence, uid = 'guest1', extra = {}) {
  return {
    status: 'anonymous', user: { uid, isAnonymous: true, email: null, emailVerified: false, displayName: null,
      username: null, providers: [], createdAt: null, lastSignInAt: null },
    token: { expiresAt: '2026-11-21T11:00:00Z' }, connectivity: 'online', needsUsername: false, pendingMerges: [],
    sequence, ...extra,
  };
}

/** Answers hello, subscribe and getState like a daemon whose state is `current()`. */
export function basicHandler(current, instance = 'fake-instance') {
  return (message, connection) => {
    if (message.method === 'hello') connection.answer(message.id, { server: 'sesamed', instance, role: 'manager' });
    else if (message.method === 'subscribe') connection.answer(message.id, { subscription: 's1', state: current() });
    else if (message.method === 'getState') connection.answer(message.id, current());
    else if (message.method === 'unsubscribe') connection.answer(message.id, {});
  };
}

/** Resolves once `condition()` holds, checking after every macrotask turn (bounded by `ms`). */
export async function until(what, condition, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
