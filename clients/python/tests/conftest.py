"""Fixtures: one emulator for the session, a fresh daemon (keyring, socket) per test."""
from __future__ import annotations

from typing import Iterator

import pytest

from harness import Daemon, Emulator


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    instance = Emulator()
    yield instance
    instance.stop()


@pytest.fixture
def daemon(emulator: Emulator) -> Iterator[Daemon]:
    instance = Daemon(emulator)
    try:
        instance.wait_for_status()
        yield instance
    finally:
        instance.stop()
