'use strict';
// Listeners (onAuthStateChanged, ...) and the stateChanges() iterator, both consumers of the
// client's one subscription.

const { Consumer } = require('./consumer.cjs');
const { Aborted } = require('./errors.cjs');

/** States an iterator keeps for a reader that falls behind; past this it skips to the newest. */
const ITERATOR_BUFFER = 256;

/**
 * Registers a listener; returns the function that removes it. A listener that throws (or whose
 * promise rejects) keeps listening: the error goes to `onError` (the listener's, else the
 * client's), else console.error prints the first one.
 */
function listen(sesame, kind, nextOrObserver, onError) {
  let listener = nextOrObserver;
  if (listener !== null && typeof listener === 'object' && typeof listener.next === 'function') {
    const observer = listener;
    listener = (state) => observer.next(state);
    if (onError === undefined && typeof observer.error === 'function') onError = (error) => observer.error(error);
  }
  if (typeof listener !== 'function') throw new TypeError('the listener must be a function or an observer with next()');
  let printed = false;
  const report = (error, what) => {
    const handler = typeof onError === 'function' ? onError : sesame.onError;
    if (handler) {
      try {
        handler(error);
      } catch (inner) {
        console.error('sesame: an onError handler threw:', inner);
      }
    } else if (!printed) {
      printed = true;
      console.error(`sesame: ${what} (further errors of this listener are not printed; pass onError to see them all):`, error);
    }
  };
  const consumer = new Consumer(kind, {
    next: (state) => {
      try {
        const result = listener(state);
        if (result && typeof result.then === 'function') {
          result.then(undefined, (error) => report(error, 'a state listener rejected; it keeps listening'));
        }
      } catch (error) {
        report(error, 'a state listener threw; it keeps listening');
      }
    },
    error: (error) => report(error, 'a state listener stopped'),
  });
  if (sesame.closed) {
    queueMicrotask(() => report(new Aborted('this Sesame client was closed'), 'a state listener stopped'));
    return () => {};
  }
  sesame.hub.add(consumer);
  return () => sesame.hub.remove(consumer);
}

/** An async iterator of every state; `return()` (a `break` out of `for await`) removes it. */
function iterate(sesame, options) {
  const buffer = [];
  let failure = null;
  let ended = false;
  let waiter = null;
  let registered = false;
  const wakeWaiter = () => {
    if (waiter === null || (buffer.length === 0 && failure === null && !ended)) return;
    const { resolve, reject } = waiter;
    waiter = null;
    if (buffer.length > 0) {
      resolve({ value: buffer.shift(), done: false });
    } else if (failure !== null) {
      const error = failure;
      failure = null;
      ended = true;
      reject(error);
    } else {
      resolve({ value: undefined, done: true });
    }
  };
  const consumer = new Consumer('state', {
    next: (state) => {
      if (ended) return;
      if (buffer.length >= ITERATOR_BUFFER) buffer.splice(0, buffer.length - 1);
      buffer.push(state);
      wakeWaiter();
    },
    error: (error) => {
      failure = error;
      wakeWaiter();
    },
    end: () => {
      ended = true;
      wakeWaiter();
    },
  });
  const stop = () => {
    ended = true;
    buffer.length = 0;
    sesame.hub.remove(consumer);
    wakeWaiter();
  };
  if (options && options.signal) {
    if (options.signal.aborted) ended = true;
    else options.signal.addEventListener('abort', stop, { once: true });
  }
  const iterator = {
    next() {
      if (!registered && !ended) {
        registered = true;
        if (sesame.closed) ended = true;
        else sesame.hub.add(consumer);
      }
      return new Promise((resolve, reject) => {
        if (waiter !== null) {
          reject(new TypeError('stateChanges(): call next() again only after the previous one settled'));
          return;
        }
        waiter = { resolve, reject };
        wakeWaiter();
      });
    },
    return() {
      stop();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return iterator;
}

module.exports = { listen, iterate };
