"""The daemon's metrics file (metrics.textfile_path, issue 35 item 4), read with the Prometheus
project's own text-format parser: it parses, and its counters move as the test drives the daemon."""
from __future__ import annotations

import os
from typing import Dict, Iterator, Tuple

import pytest
from prometheus_client.parser import text_string_to_metric_families

from harness import Daemon, Emulator, wait_until

Samples = Dict[Tuple[str, Tuple[Tuple[str, str], ...]], float]


def samples(path: str) -> Samples:
    """Every sample of the file by name and sorted labels; parsing fails the test on bad text."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(path: str, name: str, **labels: str) -> float:
    return samples(path).get((name, tuple(sorted(labels.items()))), -1.0)


@pytest.fixture
def metered(emulator: Emulator) -> Iterator[Tuple[Daemon, str]]:
    import tempfile
    directory = tempfile.mkdtemp(prefix="pym-", dir="/tmp")
    path = os.path.join(directory, "sesame.prom")
    instance = Daemon(emulator, {"metrics": {"textfile_path": f'"{path}"'}})
    try:
        instance.wait_for_status()
        yield instance, path
    finally:
        instance.stop()


def test_the_metrics_file_parses_and_its_counters_move(metered: Tuple[Daemon, str]) -> None:
    daemon, path = metered
    wait_until("the guest's sign-up is counted", lambda: os.path.exists(path) and value(
        path, "sesame_backend_requests_total", operation="signInAnonymously", outcome="ok") == 1)
    families = {family.name: family.type for family in text_string_to_metric_families(open(path).read())}
    # prometheus_client names a counter family without its _total suffix.
    assert families["sesame_backend_requests"] == "counter"
    assert families["sesame_connections"] == "gauge"
    assert value(path, "sesame_session_status", status="anonymous") == 1
    assert value(path, "sesame_connectivity", state="online") == 1
    before = value(path, "sesame_backend_requests_total", operation="refresh", outcome="ok")
    assert before == 0

    client = daemon.client()
    # A stream holds its connection open (each plain call of the sync client opens its own).
    with client.state_changes() as stream:
        next(iter(stream))
        client.id_token(force_refresh=True)
        client.update_profile(display_name="Metered")
        wait_until("the refresh, the profile change and the open stream are counted", lambda: (
            value(path, "sesame_backend_requests_total", operation="refresh", outcome="ok") == before + 1
            and value(path, "sesame_backend_requests_total", operation="updateProfile", outcome="ok") >= 1
            and value(path, "sesame_connections") == 1))
        issued = value(path, "sesame_token_issued_timestamp_seconds")
        expires = value(path, "sesame_token_expiry_timestamp_seconds")
        assert 0 < issued < expires
    wait_until("the closed stream is counted", lambda: value(path, "sesame_connections") == 0)
