"""The sesamed wire protocol, just enough for the soak: one JSON-RPC line per request."""

from __future__ import annotations

import json
import os
import socket
import time
from typing import Any


class RpcError(Exception):
    def __init__(self, error: dict) -> None:
        super().__init__(error.get("message", "error"))
        self.code = error.get("code")
        self.reason = (error.get("data") or {}).get("reason")


class Connection:
    """One connection; `call` waits for its answer and hands notifications to `on_notification`."""

    def __init__(self, path: str, timeout: float = 5.0, on_notification=None) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0
        self.on_notification = on_notification

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self, method: str, params: dict | None = None) -> int:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        return self.next_id

    def read_message(self) -> dict:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("sesamed closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method: str, params: dict | None = None) -> Any:
        request_id = self.send(method, params)
        while True:
            message = self.read_message()
            if message.get("id") == request_id:
                if "error" in message:
                    raise RpcError(message["error"])
                return message["result"]
            if "method" in message and self.on_notification:
                self.on_notification(message)


def wait_for_socket(path: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return
        time.sleep(0.01)
    raise TimeoutError(path)
