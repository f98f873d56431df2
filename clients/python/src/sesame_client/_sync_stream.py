"""``Sesame``'s streams: blocking iterators over one subscription connection each, and
listeners that run one on a background thread."""
from __future__ import annotations

import logging
import socket
import threading
from typing import Callable, Generator, Generic, Iterator, Optional, Type, TypeVar

from ._connection import LineSocket
from ._errors import ConnectionLost, DaemonUnavailable
from ._models import Merge, State
from ._reasons import TooManyConnections
from ._tracker import Backoff, Event, StreamSession, StreamTracker
from ._wire import timeout_error

E = TypeVar("E", State, Merge)
log = logging.getLogger("sesame_client")

#: How long connecting to the socket may take before a stream gives up (or retries).
CONNECT_TIMEOUT = 5.0


class _Stream(Generic[E]):
    """Events of one kind from a subscription that survives daemon restarts.

    The first connection must succeed (else ``DaemonUnavailable`` is raised from the first
    ``next``); after that, a lost connection is retried with backoff until ``close()``.
    """

    kind: Type[E]

    def __init__(self, socket_path: str, client_name: str, migrator: bool) -> None:
        self.socket_path = socket_path
        self._client_name = client_name
        self._tracker = StreamTracker(migrator)
        self._closed = threading.Event()
        self._connection: Optional[LineSocket] = None
        self._events = self._run()

    def __iter__(self) -> Iterator[E]:
        return self

    def __next__(self) -> E:
        while True:
            event = next(self._events)
            if isinstance(event, self.kind):
                return event

    def __enter__(self) -> _Stream[E]:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops the stream; safe from any thread. A blocked ``next`` then ends the iteration."""
        self._closed.set()
        connection = self._connection
        if connection is not None:
            connection.close()
        try:
            self._events.close()
        except ValueError:
            pass  # running in another thread: it sees the closed connection and returns

    def _run(self) -> Generator[Event, None, None]:
        backoff = Backoff()
        connected_once = False
        subscribed_once = False
        while not self._closed.is_set():
            try:
                connection = LineSocket(self.socket_path, CONNECT_TIMEOUT)
            except (DaemonUnavailable, socket.timeout) as error:
                if not connected_once:
                    if isinstance(error, socket.timeout):
                        raise timeout_error("connect", CONNECT_TIMEOUT, self.socket_path) from None
                    raise
                self._closed.wait(backoff.next())
                continue
            self._connection = connection
            if self._closed.is_set():
                connection.close()
                break
            connected_once = True
            session = StreamSession(self._tracker, self._client_name, self.socket_path)
            try:
                connection.send(session.start(), None)
                while True:
                    line = connection.readline(None)
                    if line is None:
                        break
                    events, replies = session.feed(line)
                    for reply in replies:
                        connection.send(reply, None)
                    if session.subscribed:
                        subscribed_once = True
                        backoff.reset()
                    yield from events
            except ConnectionLost:
                pass
            except TooManyConnections:
                if not subscribed_once:
                    raise  # the first connection must succeed; later the daemon is only busy
            finally:
                connection.close()
                self._connection = None
            if not self._closed.is_set():
                self._closed.wait(backoff.next())


class StateStream(_Stream[State]):
    """``Sesame.state_changes()``: the current state, then every change."""

    kind = State

    def __init__(self, socket_path: str, client_name: str, migrator: bool = False) -> None:
        super().__init__(socket_path, client_name, migrator)


class MergeStream(_Stream[Merge]):
    """``Sesame.merges()``: every pending merge once, then each new one (migrators only)."""

    kind = Merge

    def __init__(self, socket_path: str, client_name: str) -> None:
        super().__init__(socket_path, client_name, migrator=True)


class Listener:
    """A state listener on a daemon thread; ``remove()`` stops it."""

    def __init__(self, stream: StateStream, callback: Callable[[State], None],
                 on_error: Optional[Callable[[BaseException], None]]) -> None:
        self._stream = stream
        self._callback = callback
        self._on_error = on_error
        self.error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._loop, name="sesame-state-listener", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        try:
            for state in self._stream:
                try:
                    self._callback(state)
                except Exception:
                    log.exception("a sesame state listener raised; it keeps listening")
        except Exception as error:
            self.error = error
            if self._on_error is not None:
                self._on_error(error)
            else:
                log.warning("sesame state listener stopped: %s", error)

    def remove(self) -> None:
        """Stops calling back; returns once the thread has ended (unless called from it)."""
        self._stream.close()
        if threading.current_thread() is not self._thread:
            self._thread.join()

    @property
    def is_running(self) -> bool:
        return self._thread.is_alive()
