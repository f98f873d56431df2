'use strict';
// One connection to sesamed: requests pipelined by id (at most 64 in flight, the daemon's
// limit; the rest wait here as encoded lines), answers matched by id in any order,
// notifications handed to a callback. When it ends, every pending call fails with the reason.

const net = require('node:net');
const errors = require('./errors.cjs');
const wire = require('./wire.cjs');

/** Requests in flight per connection (the daemon stops reading beyond this). */
const MAX_IN_FLIGHT = 64;

class Connection {
  /**
   * Connects; rejects with DaemonUnavailable (what to do next, naming the socket) or Timeout.
   * @param {string} socketPath
   * @param {{onNotification?: (method: string, params: object) => void, onClose?: (error: Error) => void, connectTimeout?: number}} hooks
   */
  static open(socketPath, hooks = {}) {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path: socketPath });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new errors.Timeout(`sesamed at ${socketPath} did not accept the connection within ` +
          `${hooks.connectTimeout ?? 5000} ms; check that it is running (\`systemctl status sesamed\`)`));
      }, hooks.connectTimeout ?? 5000);
      const failed = (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(wire.connectError(error, socketPath));
      };
      socket.once('error', failed);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', failed);
        resolve(new Connection(socketPath, socket, hooks));
      });
    });
  }

  constructor(socketPath, socket, hooks) {
    this.socketPath = socketPath;
    this.socket = socket;
    this.hooks = hooks;
    this.splitter = new wire.LineSplitter(socketPath);
    this.nextId = 1;
    this.pending = new Map(); // id -> {method, resolve, reject, cleanup}
    this.inFlight = new Set(); // ids sent and not answered (abandoned ones too: the daemon counts them)
    this.queue = []; // [{id, line}] waiting for a slot
    this.queueHead = 0;
    this.closed = false;
    this.failure = null;
    /** Whether the connection should keep the process alive while no call is pending (a subscription). */
    this.keepAlive = false;
    /** The highest number of requests in flight at once, for tests and diagnostics. */
    this.maxInFlight = 0;
    this.closedPromise = new Promise((resolve) => { this.resolveClosed = resolve; });
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => {}); // 'close' follows and says the rest
    socket.on('close', () => this.fail(null));
    this.updateRef();
  }

  /** Resolves with the error that ended the connection. */
  get ended() {
    return this.closedPromise;
  }

  /**
   * Sends one request and resolves with its result.
   * @param {{timeout?: number|null, signal?: AbortSignal}} options timeout in ms (null: none)
   */
  request(method, params, options = {}) {
    if (this.closed) return Promise.reject(this.failure ?? wire.connectionLost(this.socketPath, method));
    if (options.signal && options.signal.aborted) return Promise.reject(aborted(method, options.signal));
    const id = this.nextId++;
    let line;
    try {
      line = wire.encodeRequest(id, method, params);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      let timer = null;
      const onAbort = () => this.abandon(id, aborted(method, options.signal));
      const entry = {
        method,
        resolve,
        reject,
        cleanup: () => {
          if (timer !== null) clearTimeout(timer);
          if (options.signal) options.signal.removeEventListener('abort', onAbort);
        },
      };
      this.pending.set(id, entry);
      if (options.timeout !== undefined && options.timeout !== null) {
        timer = setTimeout(() => this.abandon(id, new errors.Timeout(
          `sesamed at ${this.socketPath} did not answer ${method} within ${options.timeout} ms; check that it is ` +
          'running (`systemctl status sesamed`) or pass a longer timeout')), options.timeout);
        timer.unref();
      }
      if (options.signal) options.signal.addEventListener('abort', onAbort, { once: true });
      if (this.inFlight.size < MAX_IN_FLIGHT) this.send(id, line);
      else this.queue.push({ id, line });
      this.updateRef();
    });
  }

  /** Closes the connection; pending calls fail with `error` (ConnectionLost by default). */
  close(error) {
    this.fail(error ?? null);
  }

  send(id, line) {
    this.inFlight.add(id);
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight.size);
    this.socket.write(line);
  }

  /** Sends queued requests while slots are free; skips those whose callers gave up. */
  pump() {
    while (this.inFlight.size < MAX_IN_FLIGHT && this.queueHead < this.queue.length) {
      const { id, line } = this.queue[this.queueHead];
      this.queue[this.queueHead++] = undefined;
      if (this.pending.has(id)) this.send(id, line);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  /** A caller gave up (timeout, abort): it is answered with `error`; the daemon's answer, if any, is dropped. */
  abandon(id, error) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry.cleanup();
    entry.reject(error);
    this.updateRef();
  }

  receive(chunk) {
    if (this.closed) return;
    try {
      for (const line of this.splitter.push(chunk)) {
        const message = wire.decodeLine(line, this.socketPath);
        if (message !== null) this.dispatch(message);
        if (this.closed) return;
      }
    } catch (error) {
      this.fail(error instanceof errors.SesameError ? error : null);
    }
  }

  dispatch(message) {
    if (!('id' in message)) {
      if (typeof message.method === 'string' && this.hooks.onNotification) {
        const params = message.params && typeof message.params === 'object' ? message.params : {};
        this.hooks.onNotification(message.method, params);
      }
      return;
    }
    const id = message.id;
    if (id === null && 'error' in message) {
      this.fail(wire.errorFromWire(message.error)); // about the whole connection (too-many-connections)
      return;
    }
    if (!this.inFlight.delete(id)) return;
    const entry = this.pending.get(id);
    this.pump();
    if (entry) {
      this.pending.delete(id);
      entry.cleanup();
      if ('error' in message) entry.reject(wire.errorFromWire(message.error));
      else entry.resolve(message.result);
    }
    this.updateRef();
  }

  /** Ends the connection with `error`; null: it closed (each call is told which answer it lost). */
  fail(error) {
    if (this.closed) return;
    this.closed = true;
    this.failure = error ?? wire.connectionLost(this.socketPath);
    this.socket.destroy();
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.queue = [];
    this.queueHead = 0;
    for (const entry of pending) {
      entry.cleanup();
      entry.reject(error ?? wire.connectionLost(this.socketPath, entry.method));
    }
    this.resolveClosed(this.failure);
    if (this.hooks.onClose) this.hooks.onClose(this.failure);
  }

  updateRef() {
    if (this.closed) return;
    if (this.pending.size > 0 || this.keepAlive) this.socket.ref();
    else this.socket.unref();
  }
}

function aborted(method, signal) {
  const why = signal && signal.reason instanceof Error ? `: ${signal.reason.message}` : '';
  return new errors.Aborted(`the ${method} call was aborted${why}`);
}

module.exports = { Connection, MAX_IN_FLIGHT };
