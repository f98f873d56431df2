"""``AsyncSesame``'s streams: async iterators over one subscription connection each, and
listeners that run one as a task."""
from __future__ import annotations

import asyncio
import inspect
import logging
from typing import AsyncGenerator, Awaitable, Callable, Generic, Optional, Type, TypeVar, Union

from ._async_connection import open_lines
from ._errors import ConnectionLost, DaemonUnavailable
from ._models import Merge, State
from ._reasons import TooManyConnections
from ._tracker import Backoff, Event, StreamSession, StreamTracker
from ._wire import timeout_error

E = TypeVar("E", State, Merge)
log = logging.getLogger("sesame_client")
CONNECT_TIMEOUT = 5.0


class _AsyncStream(Generic[E]):
    """Events of one kind from a subscription that survives daemon restarts.

    The first connection must succeed (else ``DaemonUnavailable`` is raised from the first
    ``__anext__``); after that, a lost connection is retried with backoff until ``aclose()``.
    """

    kind: Type[E]

    def __init__(self, socket_path: str, client_name: str, migrator: bool) -> None:
        self.socket_path = socket_path
        self._client_name = client_name
        self._tracker = StreamTracker(migrator)
        self._events = self._run()

    def __aiter__(self) -> _AsyncStream[E]:
        return self

    async def __anext__(self) -> E:
        while True:
            event = await self._events.__anext__()
            if isinstance(event, self.kind):
                return event

    async def __aenter__(self) -> _AsyncStream[E]:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stops the stream and closes its connection."""
        await self._events.aclose()

    async def _run(self) -> AsyncGenerator[Event, None]:
        backoff = Backoff()
        connected_once = False
        subscribed_once = False
        while True:
            try:
                reader, writer = await asyncio.wait_for(open_lines(self.socket_path), CONNECT_TIMEOUT)
            except (DaemonUnavailable, asyncio.TimeoutError) as error:
                if not connected_once:
                    if isinstance(error, asyncio.TimeoutError):
                        raise timeout_error("connect", CONNECT_TIMEOUT, self.socket_path) from None
                    raise
                await asyncio.sleep(backoff.next())
                continue
            connected_once = True
            session = StreamSession(self._tracker, self._client_name, self.socket_path)
            try:
                writer.write(session.start())
                await writer.drain()
                while True:
                    try:
                        line = await reader.readline()
                    except (ValueError, OSError):
                        break
                    if not line:
                        break
                    events, replies = session.feed(line)
                    for reply in replies:
                        writer.write(reply)
                    if replies:
                        await writer.drain()
                    if session.subscribed:
                        subscribed_once = True
                        backoff.reset()
                    for event in events:
                        yield event
            except (ConnectionLost, ConnectionError):
                pass
            except TooManyConnections:
                if not subscribed_once:
                    raise  # the first connection must succeed; later the daemon is only busy
            finally:
                writer.close()
            await asyncio.sleep(backoff.next())


class AsyncStateStream(_AsyncStream[State]):
    """``AsyncSesame.state_changes()``: the current state, then every change."""

    kind = State

    def __init__(self, socket_path: str, client_name: str, migrator: bool = False) -> None:
        super().__init__(socket_path, client_name, migrator)


class AsyncMergeStream(_AsyncStream[Merge]):
    """``AsyncSesame.merges()``: every pending merge once, then each new one (migrators only)."""

    kind = Merge

    def __init__(self, socket_path: str, client_name: str) -> None:
        super().__init__(socket_path, client_name, migrator=True)


class AsyncListener:
    """A state listener running as a task of the loop; ``await remove()`` stops it."""

    def __init__(self, stream: AsyncStateStream, callback: Callable[[State], Union[None, Awaitable[None]]],
                 on_error: Optional[Callable[[BaseException], None]]) -> None:
        self._stream = stream
        self._callback = callback
        self._on_error = on_error
        self.error: Optional[BaseException] = None
        self._task = asyncio.ensure_future(self._loop())

    async def _loop(self) -> None:
        try:
            async for state in self._stream:
                try:
                    result = self._callback(state)
                    if inspect.isawaitable(result):
                        await result
                except Exception:
                    log.exception("a sesame state listener raised; it keeps listening")
        except Exception as error:
            self.error = error
            if self._on_error is not None:
                self._on_error(error)
            else:
                log.warning("sesame state listener stopped: %s", error)
        finally:
            await self._stream.aclose()

    async def remove(self) -> None:
        """Stops calling back and closes the stream's connection."""
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass

    @property
    def is_running(self) -> bool:
        return not self._task.done()
