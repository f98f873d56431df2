// A Unix socket in front of the daemon's that forwards both ways, line by line from the
// daemon, so a test can count connections and requests in flight, or drop one line.
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export async function startProxy(upstream) {
  const directory = mkdtempSync('/tmp/nodeproxy-');
  const proxy = {
    path: join(directory, 'p.sock'),
    connections: 0,
    inFlight: 0,
    maxInFlight: 0,
    requests: 0,
    drop: null, // (message) => boolean: the first line it accepts is not forwarded
    dropped: [],
    pairs: [],
    cut() {
      for (const [client, daemon] of this.pairs) { client.destroy(); daemon.destroy(); }
      this.pairs = [];
    },
    async close() {
      this.cut();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
  const server = net.createServer((client) => {
    proxy.connections += 1;
    const daemon = net.createConnection({ path: upstream });
    proxy.pairs.push([client, daemon]);
    client.on('error', () => daemon.destroy());
    daemon.on('error', () => client.destroy());
    client.on('close', () => daemon.destroy());
    daemon.on('close', () => client.destroy());
    lines(client, (line) => {
      proxy.requests += 1;
      proxy.inFlight += 1;
      proxy.maxInFlight = Math.max(proxy.maxInFlight, proxy.inFlight);
      daemon.write(line + '\n');
    });
    lines(daemon, (line) => {
      const message = JSON.parse(line);
      if ('id' in message) proxy.inFlight -= 1;
      if (proxy.drop !== null && proxy.drop(message)) {
        proxy.drop = null;
        proxy.dropped.push(message);
        return;
      }
      client.write(line + '\n');
    });
  });
  await new Promise((resolve) => server.listen(proxy.path, resolve));
  return proxy;
}

function lines(socket, onLine) {
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    let end;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim() !== '') onLine(line);
    }
  });
}
