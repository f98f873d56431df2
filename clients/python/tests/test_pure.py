"""Pure tests: discovery, the error table, and the stream tracker's sequence logic."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import sesame_client
from harness import REPO
from sesame_client import REASON_CLASSES, State, resolve_socket_path
from sesame_client._tracker import StreamSession, StreamTracker
from sesame_client._wire import error_from_wire


def test_discovery_order() -> None:
    assert resolve_socket_path({"SESAME_SOCKET": "/x.sock", "XDG_RUNTIME_DIR": "/run/user/1"}, lambda p: True) == "/x.sock"
    assert resolve_socket_path({"SESAME_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1/"},
                               lambda p: True) == "/run/user/1/sesame/sesamed.sock"
    assert resolve_socket_path({"XDG_RUNTIME_DIR": "/run/user/1"}, lambda p: False) == "/run/sesame/sesamed.sock"
    assert resolve_socket_path({}, lambda p: True) == "/run/sesame/sesamed.sock"


def test_generated_reasons_match_docs_protocol_table() -> None:
    script = Path(__file__).resolve().parent.parent / "scripts" / "generate_reasons.py"
    assert subprocess.run([sys.executable, str(script), "--check"]).returncode == 0
    table = (REPO / "docs" / "protocol.md").read_text().split("\n## Errors", 1)[1]
    documented = set(re.findall(r"`([a-z]+(?:-[a-z]+)+|[a-z]+-[a-z]+)`", table.split("\n## ", 1)[0]))
    assert {"email-already-in-use", "permission-denied", "too-many-connections"} <= set(REASON_CLASSES)
    assert set(REASON_CLASSES) <= documented | {"parse-error"}


def test_errors_map_reason_then_code() -> None:
    error = error_from_wire({"code": 1000, "message": "Sign in instead.",
                             "data": {"reason": "email-already-in-use", "email": "a@b.c", "providerId": "password"}})
    assert type(error) is sesame_client.EmailAlreadyInUse
    assert (error.email, error.provider_id, str(error)) == ("a@b.c", "password", "Sign in instead. (email-already-in-use, 1000)")
    unknown = error_from_wire({"code": 2000, "message": "later", "data": {"reason": "new-reason", "retryAfterMs": 1500}})
    assert type(unknown) is sesame_client.BackendUnavailable and unknown.retry_after_ms == 1500
    odd = error_from_wire({"code": 7, "message": "?", "data": {"reason": "email-already-in-use"}})
    assert type(odd) is sesame_client.DaemonError
    assert issubclass(sesame_client.InvalidParams, sesame_client.ProtocolError)
    assert issubclass(sesame_client.TooManyConnections, sesame_client.StateError)
    assert issubclass(sesame_client.TooManyRequests, sesame_client.BackendUnavailable)


def state(sequence: int, uid: str = "u1", status: str = "anonymous") -> Dict[str, Any]:
    return {"status": status, "user": {"uid": uid, "isAnonymous": True, "providers": []},
            "token": {"expiresAt": "2026-11-21T11:05:00Z"}, "connectivity": "online", "needsUsername": False,
            "pendingMerges": [], "sequence": sequence}


def line(message: Dict[str, Any]) -> bytes:
    return json.dumps(message).encode()


def connect(session: StreamSession, instance: str, snapshot: Dict[str, Any]) -> List[Any]:
    session.start()
    _, replies = session.feed(line({"jsonrpc": "2.0", "id": 1, "result": {"instance": instance}}))
    assert b'"subscribe"' in replies[0]
    events, _ = session.feed(line({"jsonrpc": "2.0", "id": 2, "result": {"subscription": 1, "state": snapshot}}))
    return events


def notify(session: StreamSession, method: str, params: Dict[str, Any]) -> Any:
    return session.feed(line({"jsonrpc": "2.0", "method": method, "params": params}))


def test_tracker_repairs_a_gap_with_get_state_and_holds_later_events() -> None:
    tracker = StreamTracker()
    session = StreamSession(tracker, "t", "/s")
    assert [s.sequence for s in connect(session, "i1", state(5))] == [5]
    events, _ = notify(session, "connectivityChanged", {"connectivity": "offline", "sequence": 6})
    assert events[0].connectivity == "offline" and events[0].reason == "connectivity-changed"
    events, replies = notify(session, "idTokenChanged", {"uid": "u1", "expiresAt": "2026-11-21T12:00:00Z", "sequence": 8})
    assert events == [] and b'"getState"' in replies[0]
    held, _ = notify(session, "authStateChanged", {"state": state(9, "u2"), "previousUid": "u1", "reason": "signed-in",
                                                    "sequence": 9})
    assert held == []
    request_id = json.loads(replies[0])["id"]
    events, _ = session.feed(line({"jsonrpc": "2.0", "id": request_id, "result": state(8)}))
    assert [(e.sequence, e.reason) for e in events if isinstance(e, State)] == [(8, "resynchronized"), (9, "signed-in")]
    assert len(events) == 2


def test_tracker_gives_nothing_twice_on_reconnect_and_starts_over_on_a_new_instance() -> None:
    tracker = StreamTracker()
    assert len(connect(StreamSession(tracker, "t", "/s"), "i1", state(3))) == 1
    again = StreamSession(tracker, "t", "/s")
    assert connect(again, "i1", state(3)) == []  # same instance, nothing new
    assert notify(again, "userUpdated", {"state": state(3), "sequence": 3})[0] == []  # stale
    fresh = connect(StreamSession(tracker, "t", "/s"), "i2", state(1))
    assert [(s.sequence, s.reason) for s in fresh] == [(1, "snapshot")]


def test_migrator_tracker_gives_each_merge_once() -> None:
    tracker = StreamTracker(migrator=True)
    merge = {"mergeId": "m1", "fromUid": "a", "toUid": "b", "createdAt": "2026-11-21T10:00:00Z"}
    snapshot = dict(state(2), pendingMerges=[merge])
    events = connect(StreamSession(tracker, "t", "/s"), "i1", snapshot)
    assert [type(e).__name__ for e in events] == ["State", "Merge"]
    session = StreamSession(tracker, "t", "/s")
    connect(session, "i1", snapshot)
    assert notify(session, "accountMerge", {"merge": merge, "sequence": 2})[0] == []


def test_token_and_credentials_stay_out_of_reprs() -> None:
    token = sesame_client.Token("header.payload.signature", "u", None, None, "anonymous")
    assert "signature" not in repr(token) and "signature" not in str(token)
    from sesame_client import _calls
    assert "hunter2" not in repr(_calls.sign_in("ann@example.com", "hunter2"))
