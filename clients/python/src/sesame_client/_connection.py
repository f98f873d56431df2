"""Blocking line I/O on a Unix socket, shared by ``Sesame``'s calls and its streams."""
from __future__ import annotations

import enum
import socket
import threading
import time
from typing import Optional, Union

from ._wire import MAX_RESPONSE_LINE, connect_error, lost


class _Default(enum.Enum):
    TIMEOUT = 0


#: "Use the client's default timeout" (as opposed to None: no limit).
DEFAULT = _Default.TIMEOUT
TimeoutArg = Union[float, None, _Default]


class Deadline:
    """A monotonic deadline; None means none."""

    def __init__(self, seconds: Optional[float]) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> Optional[float]:
        """Seconds left (None: no limit); raises ``socket.timeout`` once none are left (a zero
        socket timeout would mean non-blocking, not expired)."""
        if self.at is None:
            return None
        left = self.at - time.monotonic()
        if left <= 0:
            raise socket.timeout("the deadline passed")
        return left


class LineSocket:
    """A connected socket read line by line. ``close()`` may be called from another thread and
    wakes a blocked ``readline`` (which then reports end of stream)."""

    def __init__(self, socket_path: str, connect_timeout: Optional[float]) -> None:
        self.socket_path = socket_path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.buffer = b""
        self.closed = False
        self.lock = threading.Lock()
        try:
            self.sock.settimeout(connect_timeout)
            self.sock.connect(socket_path)
        except socket.timeout:
            self.sock.close()
            raise
        except OSError as error:
            self.sock.close()
            raise connect_error(error, socket_path) from None

    def send(self, data: bytes, timeout: Optional[float]) -> None:
        try:
            self.sock.settimeout(timeout)
            self.sock.sendall(data)
        except socket.timeout:
            raise
        except OSError:
            raise lost(self.socket_path) from None

    def readline(self, timeout: Optional[float]) -> Optional[bytes]:
        """The next line without its newline; None at the end of the stream."""
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_RESPONSE_LINE:
                raise lost(self.socket_path)
            try:
                self.sock.settimeout(timeout)
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise
            except OSError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
