"""A Unix socket proxy in front of the daemon, for tests of stream repair."""
from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
from typing import Any, Callable, List, Optional

from harness import Recorder


class Proxy:
    """A Unix socket in front of the daemon's that forwards both ways, line by line from the
    daemon, so a test can cut every connection (the daemon keeps running) or drop one line."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.directory = tempfile.mkdtemp(prefix="pyproxy-", dir="/tmp")
        self.path = os.path.join(self.directory, "p.sock")
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(16)
        self.lock = threading.Lock()
        self.pairs: List[Any] = []
        self.drop: Optional[Callable[[bytes], bool]] = None
        self.dropped: List[bytes] = []
        self.lines = Recorder()  # every line the daemon sent through
        self.open = threading.Event()  # cleared: new connections wait before reaching the daemon
        self.open.set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.open.wait()
            daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            daemon.connect(self.upstream)
            with self.lock:
                self.pairs.append((client, daemon))
            threading.Thread(target=self._pump, args=(client, daemon, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(daemon, client, True), daemon=True).start()

    def _pump(self, source: Any, target: Any, filtered: bool) -> None:
        buffer = b""
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                if not filtered:
                    target.sendall(chunk)
                    continue
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    with self.lock:
                        drop = self.drop
                        if drop is not None and drop(line):
                            self.drop = None
                            self.dropped.append(line)
                            continue
                    target.sendall(line + b"\n")
                    self.lines(line)
        except OSError:
            pass
        finally:
            # Half-close, so a line the other direction still carries (the daemon's refusal
            # before it closes) reaches its reader.
            for end, how in ((source, socket.SHUT_RD), (target, socket.SHUT_WR)):
                try:
                    end.shutdown(how)
                except OSError:
                    pass

    def cut(self) -> None:
        """Closes every connection through the proxy (new ones still work)."""
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                try:
                    end.shutdown(2)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()
        self.cut()
        shutil.rmtree(self.directory, ignore_errors=True)
