"""Timeouts, permissions and other refusals."""
from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Iterator, List

import pytest

import sesame_client
from harness import Daemon, Emulator, wait_until
from sesame_client import AsyncSesame, PermissionDenied, Sesame, StateStream, Timeout


@pytest.fixture
def silent_socket() -> Iterator[str]:
    """A socket that accepts connections and reads requests but never answers."""
    directory = tempfile.mkdtemp(prefix="pysilent-", dir="/tmp")
    path = os.path.join(directory, "s.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(16)
    accepted = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                return
            accepted.append(connection)  # kept open, never answered
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield path
    stop.set()
    server.close()
    for connection in accepted:
        connection.close()
    os.unlink(path)
    os.rmdir(directory)


def test_sync_call_times_out_on_a_silent_socket(silent_socket: str) -> None:
    with pytest.raises(Timeout) as timed_out:
        Sesame(silent_socket, timeout=0.3).id_token()
    assert isinstance(timed_out.value, TimeoutError)
    assert "getIdToken" in str(timed_out.value) and silent_socket in str(timed_out.value)
    with pytest.raises(Timeout):
        Sesame(silent_socket).state(timeout=0.2)


def test_async_call_times_out_and_the_client_stays_usable(silent_socket: str) -> None:
    async def main() -> None:
        sesame = AsyncSesame(silent_socket, timeout=0.3)
        with pytest.raises(Timeout):
            await sesame.state()
        with pytest.raises(Timeout):
            await sesame.id_token(timeout=0.2)
        await sesame.close()
    asyncio.run(main())


def test_async_missing_socket_is_daemon_unavailable() -> None:
    async def main() -> None:
        with pytest.raises(sesame_client.DaemonUnavailable) as missing:
            await AsyncSesame("/tmp/no-such-sesame/s.sock").state()
        assert "/tmp/no-such-sesame/s.sock" in str(missing.value)
        with pytest.raises(sesame_client.DaemonUnavailable):
            await AsyncSesame("/tmp/no-such-sesame/s.sock").state_changes().__anext__()
    asyncio.run(main())


def test_stream_on_a_missing_socket_raises_at_once() -> None:
    with pytest.raises(sesame_client.DaemonUnavailable):
        next(Sesame("/tmp/no-such-sesame/s.sock").state_changes())


def test_socket_without_permission_says_to_join_the_group() -> None:
    directory = tempfile.mkdtemp(prefix="pyperm-", dir="/tmp")
    os.chmod(directory, 0o755)  # the directory is open: the socket's own mode refuses
    path = os.path.join(directory, "s.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    os.chmod(path, 0o600)
    code = ("import sesame_client, sys\n"
            "try:\n    sesame_client.Sesame(sys.argv[1]).state()\n"
            "except sesame_client.DaemonUnavailable as e:\n    print(e)\n")
    out = run_as_nobody(code, path)
    server.close()
    shutil.rmtree(directory)
    assert "permission" in out and "sesame" in out and path in out, out


def run_as_nobody(code: str, *arguments: str) -> str:
    # A copy of the package nobody can read wherever this checkout is (CI's clone may sit
    # under a 0700 home).
    source = tempfile.mkdtemp(prefix="pynobody-", dir="/tmp")
    os.chmod(source, 0o755)
    shutil.copytree(Path(sesame_client.__file__).resolve().parent, os.path.join(source, "sesame_client"))
    for root, directories, files in os.walk(source):
        for name in directories:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o644)
    # The test's own interpreter may sit under root's home; nobody needs one it can run.
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    result = subprocess.run([python, "-c", code, *arguments], env={"PYTHONPATH": source},
                            user="nobody", group="nogroup", extra_groups=[], capture_output=True, text=True,
                            timeout=60)
    shutil.rmtree(source, ignore_errors=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_permission_denied_carries_the_required_role(emulator: Emulator) -> None:
    daemon = Daemon(emulator, {"socket": {"mode": '"0666"'}, "access": {"observers": '["user:nobody"]'}})
    try:
        daemon.wait_for_status()
        code = ("import sesame_client, sys\n"
                "s = sesame_client.Sesame(sys.argv[1])\n"
                "print(s.hello().role, s.state().status)\n"
                "try:\n    s.id_token()\n"
                "except sesame_client.PermissionDenied as e:\n    print(e.code, e.reason, e.required_role)\n"
                "stream = s.merges()\n"
                "try:\n    next(stream)\n"
                "except sesame_client.PermissionDenied as e:\n    print('merges', e.required_role)\n")
        out = run_as_nobody(code, daemon.socket_path).split("\n")
        assert out[0] == "observer anonymous"
        assert out[1] == "3000 permission-denied reader"
        assert out[2] == "merges manager"
    finally:
        daemon.stop()
    assert issubclass(PermissionDenied, sesame_client.DaemonError)


def test_too_many_connections_is_a_typed_error(emulator: Emulator) -> None:
    daemon = Daemon(emulator, {"socket": {"max_connections": "1"}})
    try:
        daemon.wait_for_status()
        streams: List[StateStream] = []

        def holds_the_connection() -> bool:
            # The daemon frees the status check's connection soon after it closes: until then
            # the stream itself is refused.
            streams.append(daemon.client().state_changes())
            return next(streams[-1]).reason == "snapshot"
        wait_until("a stream holds the one connection", holds_the_connection)
        with streams[-1]:
            with pytest.raises(sesame_client.TooManyConnections) as refused:
                daemon.client().state()
            assert refused.value.code == 4000

            async def main() -> None:
                with pytest.raises(sesame_client.TooManyConnections):
                    await AsyncSesame(daemon.socket_path).state()
            asyncio.run(main())
    finally:
        daemon.stop()
