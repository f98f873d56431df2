"""Stream repair against the real daemon, through a proxy that cuts connections or loses a
line: nothing given twice, nothing lost, gaps repaired with getState."""
from __future__ import annotations

import json
from typing import Iterator, List, Optional

import pytest

from harness import Daemon, Emulator, Recorder, expect_consecutive, reasons, wait_until
from proxy import Proxy
from sesame_client import Sesame, StateStream


@pytest.fixture
def proxy(daemon: Daemon) -> Iterator[Proxy]:
    instance = Proxy(daemon.socket_path)
    yield instance
    instance.close()


def test_a_cut_connection_resumes_without_duplicates(daemon: Daemon, proxy: Proxy) -> None:
    direct = daemon.client()
    recorder = Recorder()
    listener = Sesame(proxy.path).on_state_change(recorder)
    try:
        first = recorder.wait("the first state", lambda v: len(v) == 1)[0]
        proxy.cut()
        # Same daemon instance: the new subscription's snapshot has the same sequence and is not
        # given again; the changes after it are.
        proxy.lines.wait("a second subscription", lambda v: len([line for line in v if b'"subscription"' in line]) == 2)
        direct.sign_out(reset=True)
        values = recorder.wait("reset, anonymous-created", lambda v: reasons(v) == ["reset", "anonymous-created"])
        assert values[0] == first and [s.reason for s in values].count("snapshot") == 1
        expect_consecutive(values)

        # A change made while the connection is down arrives as one newer snapshot.
        proxy.open.clear()
        proxy.cut()
        direct.sign_out(reset=True)
        latest = direct.state().sequence
        proxy.open.set()
        values = recorder.wait("a newer snapshot", lambda v: v[-1].reason == "snapshot" and v[-1].sequence >= latest)
        assert [s.reason for s in values].count("snapshot") == 2
        sequences = [s.sequence for s in values]
        assert sequences == sorted(set(sequences))
    finally:
        listener.remove()


def test_a_lost_notification_is_repaired_with_get_state(daemon: Daemon, proxy: Proxy) -> None:
    direct = daemon.client()
    recorder = Recorder()
    stream = Sesame(proxy.path).state_changes()
    import threading

    def consume() -> None:
        for state in stream:
            recorder(state)
    thread = threading.Thread(target=consume)
    thread.start()
    try:
        recorder.wait("the first state", lambda v: len(v) == 1)
        proxy.drop = lambda line: json.loads(line).get("method") == "authStateChanged"
        direct.sign_out(reset=True)
        values = recorder.wait("a repaired state, then the rest", lambda v: v[-1].sequence == direct.state().sequence)
        assert len(proxy.dropped) == 1
        assert "resynchronized" in [s.reason for s in values]
        sequences = [s.sequence for s in values]
        assert sequences == sorted(set(sequences))
        assert values[-1].uid == direct.state().uid
    finally:
        stream.close()
        thread.join()


def test_a_stream_outlasts_too_many_connections_after_it_has_subscribed(emulator: Emulator) -> None:
    daemon = Daemon(emulator, {"socket": {"max_connections": "2"}})
    proxy = None
    try:
        daemon.wait_for_status()
        proxy = Proxy(daemon.socket_path)
        recorder = Recorder()
        listener = Sesame(proxy.path).on_state_change(recorder)
        guest = recorder.wait("the first state", lambda v: len(v) == 1)[0].uid
        proxy.open.clear()
        proxy.cut()
        holders: List[StateStream] = []

        def two_held() -> bool:  # every connection the daemon allows is taken
            stream = daemon.client().state_changes()
            next(stream)  # refused (and retried) until the daemon has let the others go
            holders.append(stream)
            return len(holders) == 2
        wait_until("two streams hold both connections", two_held)
        proxy.open.set()
        proxy.lines.wait("the listener refused", lambda v: any(b"too-many-connections" in line for line in v))
        for holder in holders:
            holder.close()
        # The reset's own answer names the new guest: another call could meet the two-connection
        # limit again while the daemon is still letting the reset's connection go.
        reset: List[Optional[str]] = []

        def reset_done() -> bool:
            reset.append(daemon.client().sign_out(reset=True).uid)
            return bool(reset[-1] != guest)
        wait_until("the reset went through", reset_done)
        new_uid = reset[-1]
        recorder.wait("the listener caught up", lambda v: v[-1].uid == new_uid)
        assert listener.is_running and listener.error is None
        listener.remove()
    finally:
        if proxy is not None:
            proxy.close()
        daemon.stop()
