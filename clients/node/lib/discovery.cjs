'use strict';
// Where the daemon's socket is, decided the way sesamectl and the Swift and Python clients decide it.

const fs = require('node:fs');

const SYSTEM_SOCKET = '/run/sesame/sesamed.sock';

/** The user instance's socket under `$XDG_RUNTIME_DIR`. */
function userSocket(runtimeDirectory) {
  return runtimeDirectory.replace(/\/+$/, '') + '/sesame/sesamed.sock';
}

/**
 * `$SESAME_SOCKET` when set and not empty, else the user instance's socket when it exists,
 * else the system one.
 */
function resolveSocketPath(env = process.env, exists = fs.existsSync) {
  if (env.SESAME_SOCKET) return env.SESAME_SOCKET;
  if (env.XDG_RUNTIME_DIR) {
    const candidate = userSocket(env.XDG_RUNTIME_DIR);
    if (exists(candidate)) return candidate;
  }
  return SYSTEM_SOCKET;
}

module.exports = { SYSTEM_SOCKET, userSocket, resolveSocketPath };
