'use strict';
// Lines on the socket: requests out, answers and notifications in, errors as classes.

const errors = require('./errors.cjs');
const { REASON_CLASSES, RequestTooLarge } = require('./reasons.cjs');

/** Longest request line the daemon reads (bytes, without the newline). */
const MAX_REQUEST_LINE = 65536;
/** Longest line the daemon sends (bytes, without the newline). */
const MAX_RESPONSE_LINE = 1024 * 1024;

/** One request line, or RequestTooLarge (thrown before anything is sent). */
function encodeRequest(id, method, params) {
  const message = { jsonrpc: '2.0', id, method };
  if (params && Object.keys(params).length > 0) message.params = params;
  const line = Buffer.from(JSON.stringify(message), 'utf8');
  if (line.length > MAX_REQUEST_LINE) {
    throw new RequestTooLarge(
      `the ${method} request is ${line.length} bytes; sesamed reads at most ${MAX_REQUEST_LINE}: send shorter values`,
      { code: -32600, reason: 'request-too-large', data: { reason: 'request-too-large' } });
  }
  return Buffer.concat([line, Buffer.from('\n')]);
}

/**
 * Splits the bytes of a connection into lines. `push` returns the complete lines of a chunk;
 * a line longer than MAX_RESPONSE_LINE throws InvalidResponse without buffering more of it.
 */
class LineSplitter {
  constructor(socketPath, limit = MAX_RESPONSE_LINE) {
    this.socketPath = socketPath;
    this.limit = limit;
    this.parts = [];
    this.length = 0;
  }

  push(chunk) {
    const lines = [];
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end === -1) break;
      this.check(end - start);
      const piece = chunk.subarray(start, end);
      lines.push(this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece]));
      this.parts = [];
      this.length = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      this.check(chunk.length - start);
      this.parts.push(chunk.subarray(start));
      this.length += chunk.length - start;
    }
    return lines;
  }

  check(more) {
    if (this.length + more > this.limit) {
      throw new errors.InvalidResponse(
        `sesamed at ${this.socketPath} sent a line over ${this.limit} bytes, the protocol's limit; ` +
        'check that the socket belongs to sesamed', this.socketPath);
    }
  }
}

/** A message from the daemon, or null for a blank line; InvalidResponse for anything else. */
function decodeLine(line, socketPath) {
  const text = line.toString('utf8');
  if (text.trim() === '') return null;
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    message = undefined;
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    throw new errors.InvalidResponse(
      `sesamed at ${socketPath} sent a line that is not a JSON-RPC message; check that the socket belongs to sesamed`,
      socketPath);
  }
  return message;
}

/** The error for a JSON-RPC `error` object: the reason's class under its own code, else the code's, else DaemonError. */
function errorFromWire(error) {
  const object = error && typeof error === 'object' ? error : {};
  const code = Number.isInteger(object.code) ? object.code : 0;
  const data = object.data && typeof object.data === 'object' && !Array.isArray(object.data) ? object.data : {};
  const reason = typeof data.reason === 'string' ? data.reason : '';
  const message = typeof object.message === 'string' ? object.message : 'sesamed refused the request';
  let Class = errors.CODE_CLASSES.get(code) ?? errors.DaemonError;
  const known = REASON_CLASSES.get(reason);
  if (known !== undefined && errors.CODE_CLASSES.has(code) && known.prototype instanceof Class) Class = known;
  return new Class(message, { code, reason, data });
}

/** DaemonUnavailable for a failed connect, saying what to do next. */
function connectError(error, socketPath) {
  const start = 'start it: `systemctl start sesamed.socket` (system instance) or ' +
    '`systemctl --user start sesamed.socket` (user instance), or set SESAME_SOCKET';
  let message;
  switch (error && error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      message = `sesamed is not running: there is no socket at ${socketPath}; ${start}`;
      break;
    case 'EACCES':
    case 'EPERM':
      message = `you lack permission to use sesamed's socket at ${socketPath}: join the group \`sesame\` ` +
        '(then log in again) or ask an administrator to grant you access';
      break;
    case 'ECONNREFUSED':
      message = `sesamed is not running: nothing listens at ${socketPath}; ${start}`;
      break;
    default:
      message = `sesamed is not reachable at ${socketPath} (${(error && error.code) || error}); ${start}`;
  }
  return new errors.DaemonUnavailable(message, socketPath);
}

function connectionLost(socketPath, method) {
  const what = method ? ` before it answered ${method}` : '';
  return new errors.ConnectionLost(
    `the connection to sesamed at ${socketPath} closed${what}; it may have restarted: try again ` +
    '(read state() first if the call changes the session)', socketPath);
}

module.exports = {
  MAX_REQUEST_LINE, MAX_RESPONSE_LINE, encodeRequest, LineSplitter, decodeLine, errorFromWire, connectError,
  connectionLost,
};
