'use strict';
// The CommonJS entry (require('sesame-client')). index.mjs re-exports the very same objects for
// import (so `instanceof` holds whichever entry loaded them); keep this an object literal of
// names and require() spreads, which is what lets Node see the named exports.

const { Sesame } = require('./sesame.cjs');
const { IdToken } = require('./models.cjs');
const { sesameFetch } = require('./fetch.cjs');
const { resolveSocketPath, SYSTEM_SOCKET } = require('./discovery.cjs');
const {
  SesameError, DaemonError, ProtocolError, AuthenticationError, BackendUnavailable, PermissionDenied, StateError,
  DaemonUnavailable, ConnectionLost, InvalidResponse, Timeout, Aborted,
} = require('./errors.cjs');

module.exports = {
  Sesame, IdToken, sesameFetch, resolveSocketPath, SYSTEM_SOCKET,
  SesameError, DaemonError, ProtocolError, AuthenticationError, BackendUnavailable, PermissionDenied, StateError,
  DaemonUnavailable, ConnectionLost, InvalidResponse, Timeout, Aborted,
  ...require('./reasons.cjs'),
};
