"""The pure parts of `make fleet-sim`: Prometheus text, the hourly accounting, the refresh spread.

Nothing here starts a process or reads a clock, so tests/test_fleet_metrics.py checks it alone.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_prometheus(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of a Prometheus text-format file: (name, sorted labels) to value.

    Comments (`# HELP`, `# TYPE`) and blank lines are skipped; a line that is not a sample
    raises ValueError, so a half-written file is noticed (the daemon writes atomically).
    """
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _SAMPLE.match(line)
        if not match:
            raise ValueError(f"line {number} is not a sample: {line[:80]!r}")
        name, labels, value = match.groups()
        pairs = []
        if labels:
            pairs = [(key, raw.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\"))
                     for key, raw in _LABEL.findall(labels)]
        samples[(name, tuple(sorted(pairs)))] = float(value)
    return samples


@dataclass
class DaemonReading:
    """What one metrics file says about one machine."""

    requests: dict[tuple[str, str], float] = field(default_factory=dict)  # (operation, outcome)
    changes: dict[str, float] = field(default_factory=dict)  # reason
    status: str = "starting"
    connectivity: str = "online"
    token_issued: float = 0.0
    token_expiry: float = 0.0

    @property
    def has_session(self) -> bool:
        return self.status in ("anonymous", "authenticated")

    @property
    def sign_outs(self) -> float:
        """Changes of the user that ended a session: every reason but the first guest's."""
        return sum(count for reason, count in self.changes.items() if reason != "anonymous-created")


def reading(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> DaemonReading:
    result = DaemonReading()
    for (name, labels), value in samples.items():
        label = dict(labels)
        if name == "sesame_backend_requests_total":
            result.requests[(label.get("operation", ""), label.get("outcome", ""))] = value
        elif name == "sesame_session_changes_total":
            result.changes[label.get("reason", "")] = value
        elif name == "sesame_session_status" and value == 1:
            result.status = label.get("status", "")
        elif name == "sesame_connectivity" and value == 1:
            result.connectivity = label.get("state", "")
        elif name == "sesame_token_issued_timestamp_seconds":
            result.token_issued = value
        elif name == "sesame_token_expiry_timestamp_seconds":
            result.token_expiry = value
    return result


def counter_deltas(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """How much each counter grew (a key new in `after` counts from 0; a counter never shrinks,
    so a smaller value means a restart and counts from 0 again)."""
    deltas = {}
    for key, value in after.items():
        old = before.get(key, 0.0)
        deltas[key] = value - old if value >= old else value
    return deltas


def hourly(events: list[tuple[float, str, float]], start: float, hour_seconds: float) -> list[dict[str, float]]:
    """Events (time, key, count) summed per simulated hour from `start` (an hour being
    `hour_seconds` real seconds); hour i covers [start + i h, start + (i+1) h)."""
    hours: list[dict[str, float]] = []
    for time, key, count in events:
        if time < start or count == 0:
            continue
        index = int((time - start) // hour_seconds)
        while len(hours) <= index:
            hours.append({})
        hours[index][key] = hours[index].get(key, 0.0) + count
    return hours


def peak_per_hour(events: list[tuple[float, str, float]], key: str, hour_seconds: float) -> float:
    """The most events of `key` in any window one simulated hour long (sliding, not aligned
    to the hour), which is what a token bucket refilling over the hour sees."""
    times = sorted(time for time, name, count in events if name == key for _ in range(int(count)))
    best = 0
    first = 0
    for last, time in enumerate(times):
        while times[first] <= time - hour_seconds:
            first += 1
        best = max(best, last - first + 1)
    return float(best)


def spread_histogram(fractions: list[float], buckets: int = 20) -> list[int]:
    """Refresh moments as fractions of the token's lifetime, counted in `buckets` equal
    slices of 0..1; a refresh at or past the expiry (a lapsed token) goes in the last."""
    counts = [0] * buckets
    for fraction in fractions:
        if math.isfinite(fraction):
            counts[min(buckets - 1, max(0, int(fraction * buckets)))] += 1
    return counts


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (share in 0..1) of `values`; NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]
