"""``Sesame``: the blocking client. Each call opens its own connection, sends one request and
waits for its answer, so a client may be shared by threads and a daemon restart between calls
goes unnoticed. Streams keep one connection each."""
from __future__ import annotations

import socket
from typing import Callable, Optional, TypeVar

from . import _calls as calls
from ._connection import DEFAULT, Deadline, LineSocket, TimeoutArg
from ._discovery import resolve_socket_path
from ._errors import ConnectionLost
from ._models import Hello, SignInResult, State, Token
from ._sync_methods import SyncMethods
from ._sync_stream import Listener, MergeStream, StateStream
from ._wire import decode_line, encode_request, error_from_wire, lost, timeout_error

T = TypeVar("T")


class Sesame(SyncMethods):
    """A client of sesamed.

    ``socket_path`` defaults to ``$SESAME_SOCKET``, else the user instance's socket when it
    exists, else the system one. ``timeout`` (seconds; None for no limit) bounds every call that
    does not pass its own ``timeout=``; streams have none.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = 5.0,
                 client_name: str = "sesame-client-python") -> None:
        self.socket_path = socket_path or resolve_socket_path()
        self.timeout = timeout
        self.client_name = client_name

    def __repr__(self) -> str:
        return f"Sesame(socket_path={self.socket_path!r})"

    def _run(self, call: calls.Call[T], timeout: TimeoutArg) -> T:
        seconds = self.timeout if timeout is DEFAULT else timeout
        assert not isinstance(seconds, type(DEFAULT))
        deadline = Deadline(seconds)
        line = encode_request(1, call.method, call.params)
        try:
            connection = LineSocket(self.socket_path, deadline.remaining())
            try:
                try:
                    connection.send(line, deadline.remaining())
                except ConnectionLost:
                    pass  # the daemon may have said why before closing (too-many-connections): read it
                while True:
                    received = connection.readline(deadline.remaining())
                    if received is None:
                        raise lost(self.socket_path, call.method)
                    message = decode_line(received, self.socket_path)
                    if message is None or "id" not in message:
                        continue
                    if "error" in message and message.get("id") in (1, None):
                        raise error_from_wire(message["error"])
                    if message.get("id") == 1:
                        return call.decode(message.get("result"))
            finally:
                connection.close()
        except socket.timeout:
            raise timeout_error(call.method, seconds or 0.0, self.socket_path) from None

    # The methods that are more than their call (the rest: _sync_methods.py, generated).

    def hello(self, *, timeout: TimeoutArg = DEFAULT) -> Hello:
        """The daemon's version, instance and backend, and this caller's role."""
        return self._run(calls.hello(client=self.client_name), timeout)

    def state(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        """The current state."""
        return self._run(calls.get_state(), timeout)

    def id_token(self, min_validity: Optional[int] = None, force_refresh: bool = False, uid: Optional[str] = None,
                 *, timeout: TimeoutArg = DEFAULT) -> Token:
        """An ID token valid for at least ``min_validity`` seconds (the daemon's default: 300).
        ``uid`` may name the ``from_uid`` of a pending merge (managers only)."""
        return self._run(calls.get_id_token(force_refresh=force_refresh, min_validity=min_validity, uid=uid), timeout)

    def await_sign_in(self, flow_id: str, wait: Optional[float] = None,
                      *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Waits until the flow ends (the daemon waits ``wait`` seconds, its default 300) and
        returns its outcome. ``OperationInProgress`` at ``wait``: the flow goes on, call again.
        The client's timeout is lengthened by ``wait``, so it never cuts the wait short."""
        if timeout is DEFAULT:
            timeout = calls.await_call_timeout(self.timeout, wait)
        return self._run(calls.await_sign_in(flow_id, timeout=wait), timeout)

    # Streams.

    def state_changes(self) -> StateStream:
        """The current state, then every change, across daemon restarts, never stale or twice.
        Iterate it; ``close()`` it (or use ``with``) from any thread to stop."""
        return StateStream(self.socket_path, self.client_name, migrator=False)

    def merges(self) -> MergeStream:
        """For migrators (managers): every pending merge once, then each new one, across
        restarts. Move the guest's data, then ``complete_merge(merge.merge_id)``."""
        return MergeStream(self.socket_path, self.client_name)

    def on_state_change(self, callback: Callable[[State], None],
                        on_error: Optional[Callable[[BaseException], None]] = None) -> Listener:
        """Calls ``callback`` from a background thread with the current state and every change.
        ``remove()`` the returned listener to stop. An error that ends the stream (the daemon
        was not reachable at the start, or refused) goes to ``on_error``, else to the log."""
        return Listener(self.state_changes(), callback, on_error)
