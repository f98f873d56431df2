"""``AsyncSesame``'s one connection: requests multiplexed by id, answered in any order."""
from __future__ import annotations

import asyncio
from typing import Any, Dict, Optional

from ._errors import DaemonError, SesameError
from ._wire import MAX_RESPONSE_LINE, connect_error, decode_line, encode_request, error_from_wire, lost


async def open_lines(socket_path: str) -> "tuple[asyncio.StreamReader, asyncio.StreamWriter]":
    """Connects, with ``DaemonUnavailable`` for every connect failure."""
    try:
        return await asyncio.open_unix_connection(socket_path, limit=MAX_RESPONSE_LINE + 1)
    except OSError as error:
        raise connect_error(error, socket_path) from None


class AsyncConnection:
    """Pending requests by id; one reader task hands each answer to its future. When the
    connection ends, every pending call fails with ``ConnectionLost``."""

    def __init__(self, socket_path: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.socket_path = socket_path
        self.reader = reader
        self.writer = writer
        self.pending: Dict[int, "asyncio.Future[Any]"] = {}
        self.next_id = 1
        self.closed = False
        #: Why the daemon ended the connection, when it said (``TooManyConnections``).
        self.failure: Optional[DaemonError] = None
        self.reader_task = asyncio.ensure_future(self._read())

    async def request(self, method: str, params: Dict[str, Any]) -> Any:
        """Sends one request and waits for its result (cancelling forgets the request)."""
        request_id = self.next_id
        self.next_id += 1
        line = encode_request(request_id, method, params)
        if self.closed:
            raise self.failure or lost(self.socket_path, method)
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        try:
            try:
                self.writer.write(line)
                await self.writer.drain()
            except ConnectionError:
                pass  # the reader fails the future with how the connection ended
            return await future
        finally:
            self.pending.pop(request_id, None)

    async def _read(self) -> None:
        failure: SesameError = lost(self.socket_path)
        try:
            while True:
                try:
                    line = await self.reader.readline()
                except (ValueError, asyncio.LimitOverrunError, OSError):
                    break
                if not line:
                    break
                message = decode_line(line, self.socket_path)
                if message is None or "id" not in message:
                    continue  # notifications: this connection does not subscribe
                request_id = message.get("id")
                if request_id is None and "error" in message:
                    failure = self.failure = error_from_wire(message["error"])  # about the whole connection
                    break
                future = self.pending.get(request_id) if isinstance(request_id, int) else None
                if future is None or future.done():
                    continue
                if "error" in message:
                    future.set_exception(error_from_wire(message["error"]))
                else:
                    future.set_result(message.get("result"))
        except SesameError as error:
            failure = error
        finally:
            self.closed = True
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(failure)
            self.writer.close()

    async def close(self) -> None:
        self.closed = True
        self.writer.close()
        self.reader_task.cancel()
        try:
            await self.reader_task
        except (asyncio.CancelledError, Exception):
            pass

    def is_usable(self, loop: Optional[asyncio.AbstractEventLoop]) -> bool:
        return not self.closed and self.reader_task.get_loop() is loop
