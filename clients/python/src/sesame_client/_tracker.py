"""The state stream's logic, free of I/O: one ``StreamTracker`` per stream keeps what it has
given (so nothing is given twice) across connections, and one ``StreamSession`` per connection
speaks hello, subscribe and gap repair. The sync and asyncio clients only move lines."""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Set, Tuple, Union

from ._models import Merge, State
from ._wire import decode_line, encode_request, error_from_wire

#: Notifications that advance ``sequence``.
STATE_EVENTS = ("authStateChanged", "idTokenChanged", "userUpdated", "connectivityChanged", "signInFlowChanged")
ALL_EVENTS = STATE_EVENTS + ("accountMerge", "shutdown")

Event = Union[State, Merge]


class StreamTracker:
    """What one stream holds and has given, across the connections it makes.

    Within one daemon instance, a state is given only when its ``sequence`` is newer than the
    last one given; a new instance (the daemon restarted) starts over with its snapshot.
    """

    def __init__(self, migrator: bool = False) -> None:
        self.migrator = migrator
        self.instance: Optional[str] = None
        self.last_sequence = 0
        self.state_json: Optional[Dict[str, Any]] = None
        self.given: Optional[Tuple[Optional[str], int]] = None
        self.given_merges: Set[str] = set()
        self.resyncing = False
        self.held: List[Tuple[str, Dict[str, Any]]] = []

    def connected(self, instance: Optional[str]) -> None:
        """A new connection greeted by ``instance`` (None when the daemon did not say)."""
        if instance != self.instance or instance is None:
            self.instance = instance
            self.last_sequence = 0
            self.state_json = None
        self.resyncing = False
        self.held = []

    def snapshot(self, json: Any, reason: str) -> List[Event]:
        """An authoritative state (``subscribe``'s, or ``getState``'s after a gap)."""
        candidate = State.from_json(json)
        if self.state_json is None or self.last_sequence == 0 or candidate.sequence > self.last_sequence:
            self.state_json = dict(json)
            self.last_sequence = candidate.sequence
        events: List[Event] = []
        self._offer(State.from_json(self.state_json, reason), events)
        if self.migrator:
            for merge in State.from_json(self.state_json).pending_merges:
                self._offer_merge(merge, events)
        return events

    def notification(self, method: str, params: Dict[str, Any]) -> Tuple[List[Event], bool]:
        """A notification; the flag is True when a gap needs a ``getState``."""
        events: List[Event] = []
        if method == "accountMerge" and isinstance(params.get("merge"), dict):
            self._offer_merge(Merge.from_json(params["merge"]), events)
            return events, False
        sequence = params.get("sequence")
        if method not in STATE_EVENTS or not isinstance(sequence, int):
            return events, False
        if self.resyncing:
            self.held.append((method, params))
            return events, False
        if self.last_sequence:
            if sequence <= self.last_sequence:
                return events, False
            if sequence > self.last_sequence + 1:
                self.resyncing = True
                self.held.append((method, params))
                return events, True
        self._apply(method, params, sequence, events)
        return events, False

    def resynced(self, json: Optional[Any]) -> Tuple[List[Event], bool]:
        """The ``getState`` answer after a gap (None when it failed: the gap is accepted)."""
        self.resyncing = False
        held, self.held = self.held, []
        events: List[Event] = []
        if json is not None:
            events += self.snapshot(json, "resynchronized")
        elif held:
            self.last_sequence = int(held[0][1]["sequence"]) - 1
        again = False
        for method, params in held:
            more, gap = self.notification(method, params)
            events += more
            again = again or gap
        return events, again

    def _apply(self, method: str, params: Dict[str, Any], sequence: int, events: List[Event]) -> None:
        self.last_sequence = sequence
        new: Optional[Dict[str, Any]] = None
        if method == "authStateChanged":
            new, reason = _dict(params.get("state")), str(params.get("reason", "auth-state-changed"))
        elif method == "userUpdated":
            new, reason = _dict(params.get("state")), "user-updated"
        elif method == "signInFlowChanged":
            new, reason = _dict(params.get("state")), "sign-in-flow-changed"
        elif method == "idTokenChanged" and self.state_json is not None:
            new, reason = dict(self.state_json, token={"expiresAt": params.get("expiresAt")}), "token-refreshed"
        elif method == "connectivityChanged" and self.state_json is not None:
            new = dict(self.state_json, connectivity=params.get("connectivity"), rateLimit=params.get("rateLimit"))
            reason = "connectivity-changed"
        if new is None:
            return
        new["sequence"] = sequence
        self.state_json = new
        self._offer(State.from_json(new, reason), events)

    def _offer(self, state: State, events: List[Event]) -> None:
        if self.given is not None and self.given[0] == self.instance and state.sequence <= self.given[1]:
            return
        self.given = (self.instance, state.sequence)
        events.append(state)

    def _offer_merge(self, merge: Merge, events: List[Event]) -> None:
        if self.migrator and merge.merge_id not in self.given_merges:
            self.given_merges.add(merge.merge_id)
            events.append(merge)


def _dict(value: Any) -> Optional[Dict[str, Any]]:
    return dict(value) if isinstance(value, dict) else None


class StreamSession:
    """One connection of a stream: ``start()`` gives the first line to send; ``feed(line)``
    gives the events to hand out and the lines to send. Ids: 1 hello, 2 subscribe, 3... getState."""

    def __init__(self, tracker: StreamTracker, client_name: str, socket_path: str) -> None:
        self.tracker = tracker
        self.client_name = client_name
        self.socket_path = socket_path
        self.subscribed = False
        self.next_id = 3
        self.resync_ids: Set[int] = set()

    def start(self) -> bytes:
        return encode_request(1, "hello", {"client": self.client_name})

    def feed(self, line: bytes) -> Tuple[List[Event], List[bytes]]:
        """Raises the daemon's error when it refuses the subscription (``PermissionDenied``...)."""
        message = decode_line(line, self.socket_path)
        if message is None:
            return [], []
        if "id" not in message:
            params = message.get("params")
            events, gap = self.tracker.notification(str(message.get("method")), params if isinstance(params, dict) else {})
            return events, [self._get_state()] if gap else []
        request_id = message.get("id")
        if request_id is None and "error" in message:
            raise error_from_wire(message["error"])
        if request_id == 1:
            result = message.get("result")
            instance = result.get("instance") if isinstance(result, dict) else None
            self.tracker.connected(instance if isinstance(instance, str) else None)
            subscribe: Dict[str, Any] = {}
            if self.tracker.migrator:
                subscribe = {"migrator": True, "events": list(ALL_EVENTS)}
            return [], [encode_request(2, "subscribe", subscribe)]
        if request_id == 2:
            if "error" in message:
                raise error_from_wire(message["error"])
            result = message.get("result")
            self.subscribed = True
            return self.tracker.snapshot(result.get("state") if isinstance(result, dict) else None, "snapshot"), []
        if request_id in self.resync_ids:
            self.resync_ids.discard(request_id)
            events, gap = self.tracker.resynced(message.get("result") if "result" in message else None)
            return events, [self._get_state()] if gap else []
        return [], []

    def _get_state(self) -> bytes:
        request_id = self.next_id
        self.next_id += 1
        self.resync_ids.add(request_id)
        return encode_request(request_id, "getState")


class Backoff:
    """Reconnection delays: 50 ms doubling to 2 s, each times a random 0.5...1.0."""

    def __init__(self, initial: float = 0.05, maximum: float = 2.0) -> None:
        self.initial, self.maximum, self.current = initial, maximum, initial

    def next(self) -> float:
        delay = self.current
        self.current = min(self.current * 2, self.maximum)
        return delay * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        self.current = self.initial
