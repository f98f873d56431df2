"""SesameAuth with requests and httpx against a local HTTP server that answers 401 once."""
from __future__ import annotations

import asyncio
import http.server
import threading
from typing import Iterator, List, Tuple

import httpx
import pytest
import requests

from harness import Daemon, Emulator
from sesame_client.auth import SesameAuth


class Server:
    """Answers 401 to the first request of each `/once` path and to every `/always` path, 200
    to the rest; records the
    Authorization headers and bodies it saw."""

    def __init__(self) -> None:
        self.seen: List[Tuple[str, str, bytes]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.answer(b"")

            def do_POST(self) -> None:
                self.answer(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

            def answer(self, body: bytes) -> None:
                first = not any(path == self.path for path, _, _ in outer.seen)
                outer.seen.append((self.path, self.headers.get("Authorization", ""), body))
                refuse = self.path.startswith("/always") or (first and self.path.startswith("/once"))
                status = 401 if refuse else 200
                payload = b"unauthorized" if status == 401 else b"ok"
                self.send_response(status)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *_: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[Server]:
    instance = Server()
    yield instance
    instance.httpd.shutdown()
    instance.httpd.server_close()


def refreshes(emulator: Emulator) -> int:
    calls = emulator.request("GET", "/sesame/v1/faults").get("calls", {})
    return sum(count for name, count in calls.items() if "token" in name.lower())


def test_requests_sends_the_token_and_retries_a_401_once_with_a_fresh_token(
        daemon: Daemon, emulator: Emulator, server: Server) -> None:
    auth = SesameAuth(daemon.client())
    response = requests.get(server.url + "/plain", auth=auth)
    assert response.status_code == 200 and len(server.seen) == 1
    assert server.seen[0][1].startswith("Bearer ") and server.seen[0][1].count(".") == 2

    before = refreshes(emulator)
    response = requests.post(server.url + "/once", data=b"payload", auth=auth)
    assert response.status_code == 200
    assert [r.status_code for r in response.history] == [401]
    retried = [s for s in server.seen if s[0] == "/once"]
    assert len(retried) == 2 and retried[1][2] == b"payload"
    assert all(header.startswith("Bearer ") for _, header, _ in retried)
    assert refreshes(emulator) == before + 1  # the retry forced one refresh


def test_requests_gives_up_after_one_retry(daemon: Daemon, server: Server) -> None:
    response = requests.get(server.url + "/always", auth=SesameAuth(daemon.client()))
    assert response.status_code == 401 and len(response.history) == 1
    assert len(server.seen) == 2


def test_httpx_sync_and_async(daemon: Daemon, emulator: Emulator, server: Server) -> None:
    auth = SesameAuth(daemon.client())
    before = refreshes(emulator)
    response = httpx.get(server.url + "/once-sync", auth=auth)
    assert response.status_code == 200 and refreshes(emulator) == before + 1

    async def main() -> int:
        async with httpx.AsyncClient(auth=auth) as client:
            answer = await client.post(server.url + "/once-async", content=b"body")
            return answer.status_code
    assert asyncio.run(main()) == 200
    retried = [s for s in server.seen if s[0] == "/once-async"]
    assert len(retried) == 2 and retried[1][1].startswith("Bearer ") and retried[1][2] == b"body"
