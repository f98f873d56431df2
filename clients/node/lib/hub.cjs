'use strict';
// The client's one subscription: kept on its connection while any listener or iterator
// exists, renewed after the daemon restarts (hello, subscribe, with backoff), and fed through
// the pure StreamTracker, whose states go to every consumer.

const errors = require('./errors.cjs');
const { StreamTracker, Backoff } = require('./tracker.cjs');

const SETUP_TIMEOUT = 5000;

class StreamHub {
  constructor(sesame) {
    this.sesame = sesame;
    this.consumers = new Set();
    this.tracker = new StreamTracker();
    this.backoff = new Backoff();
    this.running = false;
    this.subscribingOn = null; // the connection a subscribe was sent on
    this.live = null; // the connection whose subscription has given its snapshot
    this.subscription = null;
    this.early = []; // notifications that came before the snapshot
    this.wake = null; // ends the loop's current wait (the last consumer left, or the client closed)
  }

  add(consumer) {
    this.consumers.add(consumer);
    if (this.live !== null) {
      const current = this.tracker.current();
      if (current !== null) queueMicrotask(() => this.consumers.has(consumer) && consumer.offer(current, this.tracker.instance));
      this.live.keepAlive = true;
      this.live.updateRef();
    }
    if (!this.running) this.run();
  }

  remove(consumer) {
    if (!this.consumers.delete(consumer) || this.consumers.size > 0) return;
    const live = this.live;
    if (live !== null && this.subscription !== null) {
      live.request('unsubscribe', { subscription: this.subscription }, { timeout: SETUP_TIMEOUT }).catch(() => {});
      live.keepAlive = false;
      live.updateRef();
    }
    this.live = null;
    this.subscribingOn = null;
    this.subscription = null;
    this.wakeUp();
  }

  /** Ends every consumer (the client was closed). */
  closeAll() {
    const consumers = [...this.consumers];
    this.consumers.clear();
    this.wakeUp();
    for (const consumer of consumers) if (consumer.sink.end) consumer.sink.end();
  }

  async run() {
    this.running = true;
    try {
      while (this.consumers.size > 0 && !this.sesame.closed) {
        const connection = await this.subscribeOnce();
        if (connection !== null) {
          await this.wait((resolve) => connection.ended.then(resolve), () => {});
          if (this.live === connection) this.live = null;
        }
        if (this.consumers.size === 0 || this.sesame.closed) break;
        await this.sleep(this.backoff.next());
      }
    } finally {
      this.running = false;
      this.live = null;
      this.subscribingOn = null;
    }
  }

  /** One connection's hello and subscribe; the connection, or null after a failure (reported to new consumers). */
  async subscribeOnce() {
    let connection = null;
    try {
      connection = await this.sesame.connection();
      const hello = await connection.request('hello', { client: this.sesame.clientName }, { timeout: SETUP_TIMEOUT });
      if (this.consumers.size === 0) return null;
      this.tracker.connected(hello && typeof hello.instance === 'string' ? hello.instance : null);
      this.subscribingOn = connection;
      this.early = [];
      connection.keepAlive = true;
      const result = await connection.request('subscribe', {}, { timeout: SETUP_TIMEOUT });
      if (this.subscribingOn !== connection || connection.closed) return null;
      let outcome;
      try {
        outcome = this.tracker.snapshot(result && result.state);
      } catch {
        throw new errors.InvalidResponse(`sesamed at ${this.sesame.socketPath} answered subscribe without a State; ` +
          'check that the socket belongs to sesamed', this.sesame.socketPath);
      }
      this.subscription = result.subscription;
      this.live = connection;
      this.backoff.reset();
      this.deliver(outcome.states);
      const current = this.tracker.current();
      for (const consumer of [...this.consumers]) {
        if (!consumer.established) consumer.offer(current, this.tracker.instance);
      }
      const early = this.early;
      this.early = [];
      for (const [method, params] of early) this.notification(connection, method, params);
      return connection;
    } catch (error) {
      if (connection !== null) {
        if (error instanceof errors.InvalidResponse) connection.close(error);
        connection.keepAlive = false;
        connection.updateRef();
      }
      if (this.subscribingOn === connection) this.subscribingOn = null;
      this.failNew(error);
      return null;
    }
  }

  /** A notification on `connection` (ignored unless it carries this hub's subscription). */
  notification(connection, method, params) {
    if (connection !== this.subscribingOn) return;
    if (this.live !== connection) {
      if (this.early.length < 64) this.early.push([method, params]);
      return;
    }
    const outcome = this.tracker.notification(method, params);
    this.deliver(outcome.states);
    if (outcome.resync) this.resync(connection);
  }

  resync(connection) {
    connection.request('getState', {}, { timeout: SETUP_TIMEOUT }).then((json) => json, () => null).then((json) => {
      if (this.live !== connection) return; // a new connection starts over anyway
      let outcome;
      try {
        outcome = this.tracker.resynced(json);
      } catch {
        connection.close(new errors.InvalidResponse(`sesamed at ${this.sesame.socketPath} answered getState ` +
          'without a State; check that the socket belongs to sesamed', this.sesame.socketPath));
        return;
      }
      this.deliver(outcome.states);
      if (outcome.resync) this.resync(connection);
    });
  }

  deliver(states) {
    for (const state of states) {
      for (const consumer of [...this.consumers]) consumer.offer(state, this.tracker.instance);
    }
  }

  /** Consumers that have had no state yet end with `error`; the others wait for the next connection. */
  failNew(error) {
    for (const consumer of [...this.consumers]) {
      if (consumer.established) continue;
      this.consumers.delete(consumer);
      consumer.sink.error(error);
    }
  }

  sleep(ms) {
    let timer = null;
    return this.wait((resolve) => { timer = setTimeout(resolve, ms); }, () => clearTimeout(timer));
  }

  /** Waits until `start`'s resolve is called or wakeUp(); `cancel` runs when woken early. */
  wait(start, cancel) {
    return new Promise((resolve) => {
      let done = false;
      const finish = (early) => {
        if (done) return;
        done = true;
        this.wake = null;
        if (early) cancel();
        resolve();
      };
      this.wake = () => finish(true);
      start(() => finish(false));
    });
  }

  wakeUp() {
    if (this.wake !== null) this.wake();
  }
}

module.exports = { StreamHub };
