"""``AsyncSesame``: the asyncio client. Calls share one connection and are multiplexed by
request id (pipelined; answers may come back in any order); it reconnects on the next call after
the daemon restarts. Each stream keeps a connection of its own."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Optional, TypeVar, Union

from . import _calls as calls
from ._async_connection import AsyncConnection, open_lines
from ._async_methods import AsyncMethods
from ._async_stream import AsyncListener, AsyncMergeStream, AsyncStateStream
from ._connection import DEFAULT, TimeoutArg
from ._discovery import resolve_socket_path
from ._models import Hello, SignInResult, State, Token
from ._wire import timeout_error

T = TypeVar("T")


class AsyncSesame(AsyncMethods):
    """The asyncio client of sesamed; same methods as ``Sesame``, awaited.

    ``socket_path`` defaults to ``$SESAME_SOCKET``, else the user instance's socket when it
    exists, else the system one. ``timeout`` (seconds; None for no limit) bounds every call that
    does not pass its own ``timeout=``; streams have none. ``await close()`` (or ``async with``)
    when done.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = 5.0,
                 client_name: str = "sesame-client-python") -> None:
        self.socket_path = socket_path or resolve_socket_path()
        self.timeout = timeout
        self.client_name = client_name
        self._connection: Optional[AsyncConnection] = None
        self._connecting: Optional["asyncio.Future[AsyncConnection]"] = None

    def __repr__(self) -> str:
        return f"AsyncSesame(socket_path={self.socket_path!r})"

    async def __aenter__(self) -> AsyncSesame:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the calls' connection (streams are closed on their own)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()

    async def _connect(self) -> AsyncConnection:
        loop = asyncio.get_running_loop()
        if self._connection is not None and self._connection.is_usable(loop):
            return self._connection
        if self._connecting is None or self._connecting.get_loop() is not loop or self._connecting.done():
            self._connecting = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._connecting)

    async def _open(self) -> AsyncConnection:
        reader, writer = await open_lines(self.socket_path)
        connection = AsyncConnection(self.socket_path, reader, writer)
        self._connection = connection
        return connection

    async def _run(self, call: calls.Call[T], timeout: TimeoutArg) -> T:
        seconds = self.timeout if timeout is DEFAULT else timeout
        assert not isinstance(seconds, type(DEFAULT))

        async def attempt() -> Any:
            connection = await self._connect()
            return await connection.request(call.method, call.params)

        try:
            result = await asyncio.wait_for(attempt(), seconds)
        except asyncio.TimeoutError:
            raise timeout_error(call.method, seconds or 0.0, self.socket_path) from None
        return call.decode(result)

    # The methods that are more than their call (the rest: _async_methods.py, generated).

    async def hello(self, *, timeout: TimeoutArg = DEFAULT) -> Hello:
        """The daemon's version, instance and backend, and this caller's role."""
        return await self._run(calls.hello(client=self.client_name), timeout)

    async def state(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        """The current state."""
        return await self._run(calls.get_state(), timeout)

    async def id_token(self, min_validity: Optional[int] = None, force_refresh: bool = False, uid: Optional[str] = None,
                 *, timeout: TimeoutArg = DEFAULT) -> Token:
        """An ID token valid for at least ``min_validity`` seconds (the daemon's default: 300).
        ``uid`` may name the ``from_uid`` of a pending merge (managers only)."""
        call = calls.get_id_token(force_refresh=force_refresh, min_validity=min_validity, uid=uid)
        return await self._run(call, timeout)

    async def await_sign_in(self, flow_id: str, wait: Optional[float] = None,
                      *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Waits until the flow ends (the daemon waits ``wait`` seconds, its default 300) and
        returns its outcome. ``OperationInProgress`` at ``wait``: the flow goes on, call again.
        The client's timeout is lengthened by ``wait``, so it never cuts the wait short."""
        if timeout is DEFAULT:
            timeout = calls.await_call_timeout(self.timeout, wait)
        return await self._run(calls.await_sign_in(flow_id, timeout=wait), timeout)

    # Streams.

    def state_changes(self) -> AsyncStateStream:
        """``async for state in sesame.state_changes()``: the current state, then every change,
        across daemon restarts, never stale or twice. ``await stream.aclose()`` (or
        ``async with``) to stop early."""
        return AsyncStateStream(self.socket_path, self.client_name, migrator=False)

    def merges(self) -> AsyncMergeStream:
        """For migrators (managers): every pending merge once, then each new one, across
        restarts. Move the guest's data, then ``await complete_merge(merge.merge_id)``."""
        return AsyncMergeStream(self.socket_path, self.client_name)

    def on_state_change(self, callback: Callable[[State], Union[None, Awaitable[None]]],
                        on_error: Optional[Callable[[BaseException], None]] = None) -> AsyncListener:
        """Calls ``callback`` (a function or a coroutine function) with the current state and
        every change, from a task of the running loop; ``await listener.remove()`` to stop."""
        return AsyncListener(self.state_changes(), callback, on_error)
