"""The shared tracker table (tests/fixtures/stream-tracker.json), run against ``StreamTracker``:
the same rows the Node client's tracker tests run, so the clients cannot drift."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import pytest

from harness import REPO
from sesame_client import State
from sesame_client._models import parse_time
from sesame_client._tracker import Event, StreamTracker

FIXTURE = json.loads((REPO / "tests" / "fixtures" / "stream-tracker.json").read_text(encoding="utf-8"))


def full_state(partial: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    return None if partial is None else {**FIXTURE["base"], **partial}


def observed(state: State, fields: Dict[str, Any]) -> Dict[str, Any]:
    values: Dict[str, Any] = {
        "sequence": state.sequence, "reason": state.reason, "status": state.status, "uid": state.uid,
        "connectivity": state.connectivity, "tokenExpiresAt": state.token_expires_at,
        "rateLimitOperation": state.rate_limit.operation if state.rate_limit else None,
    }
    return {key: values[key] for key in fields}


def expected(fields: Dict[str, Any]) -> Dict[str, Any]:
    return {key: parse_time(value) if key == "tokenExpiresAt" else value for key, value in fields.items()}


def run_step(tracker: StreamTracker, step: Dict[str, Any]) -> "tuple[List[Event], bool]":
    op = step["op"]
    if op == "connect":
        tracker.connected(step["instance"])
        return [], False
    if op == "snapshot":
        return tracker.snapshot(full_state(step["state"]), "snapshot"), False
    if op == "notification":
        params = dict(step["params"])
        if isinstance(params.get("state"), dict):
            params["state"] = full_state(params["state"])
        return tracker.notification(step["method"], params)
    if op == "resynced":
        return tracker.resynced(full_state(step["state"]))
    raise AssertionError(f"unknown op {op}")


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=[case["name"] for case in FIXTURE["cases"]])
def test_tracker_follows_the_shared_table(case: Dict[str, Any]) -> None:
    tracker = StreamTracker()
    for index, step in enumerate(case["steps"]):
        events, resync = run_step(tracker, step)
        states = [event for event in events if isinstance(event, State)]
        assert len(states) == len(events), f"step {index}: only states are given"
        wanted = step.get("expect", [])
        assert [observed(s, w) for s, w in zip(states, wanted)] == [expected(w) for w in wanted] and \
            len(states) == len(wanted), f"step {index} ({step['op']}): gave {states}"
        assert resync == step.get("resync", False), f"step {index} ({step['op']}): resync"


def test_the_table_covers_every_rule() -> None:
    names = " ".join(case["name"] for case in FIXTURE["cases"])
    for rule in ("snapshot comes first", "gap", "new instance", "no duplicates"):
        assert rule in names, rule
