"""State streams and listeners (sync and asyncio) against the real daemon: the current state
first, every change in order, and across a SIGKILL + restart a fresh snapshot with nothing
duplicated or lost."""
from __future__ import annotations

import asyncio
import threading
from typing import List

from harness import Daemon, Emulator, Recorder, expect_consecutive, reasons, unique_email
from sesame_client import AsyncSesame, State


def test_state_changes_current_state_first_then_changes_in_order(daemon: Daemon) -> None:
    sesame = daemon.client()
    guest = sesame.state().uid
    recorder = Recorder()
    stream = sesame.state_changes()
    def consume() -> None:
        for state in stream:
            recorder(state)
    thread = threading.Thread(target=consume)
    thread.start()
    try:
        first = recorder.wait("the first state", lambda v: len(v) >= 1)[0]
        assert first.reason == "snapshot" and first.uid == guest
        sesame.create_account(unique_email(), "secret-12")
        sesame.sign_out()
        values = recorder.wait("linked, signed-out, anonymous-created",
                               lambda v: reasons(v) == ["linked", "signed-out", "anonymous-created"])
        assert [v.reason for v in values].count("snapshot") == 1
        expect_consecutive(values)
        linked = next(v for v in values if v.reason == "linked")
        assert linked.uid == guest and linked.user is not None and not linked.user.is_anonymous
        assert values[-1].uid != guest
    finally:
        stream.close()
        thread.join()
    assert sesame.state().sequence >= values[-1].sequence


def test_listener_survives_sigkill_and_restart_without_duplicates(daemon: Daemon) -> None:
    sesame = daemon.client()
    before = sesame.hello().instance
    recorder = Recorder()
    listener = sesame.on_state_change(recorder)
    try:
        recorder.wait("the first state", lambda v: len(v) >= 1)
        sesame.sign_out(reset=True)
        recorder.wait("reset, anonymous-created", lambda v: reasons(v) == ["reset", "anonymous-created"])
        uid = recorder.values[-1].uid

        daemon.kill()
        daemon.restart()
        values = recorder.wait("a snapshot from the new instance",
                               lambda v: [s.reason for s in v].count("snapshot") == 2)
        assert sesame.hello().instance != before
        fresh = [s for s in values if s.reason == "snapshot"][-1]
        assert fresh.uid == uid and fresh.status == "anonymous"

        sesame.sign_out(reset=True)
        values = recorder.wait("the next changes", lambda v: reasons(v) == ["reset", "anonymous-created"] * 2)
        expect_consecutive(values)
        # Within the new instance the listener agrees with the daemon, each sequence once.
        recorder.wait("caught up", lambda v: v[-1].sequence == sesame.state().sequence)
        after_restart = recorder.values[recorder.values.index(fresh):]
        sequences = [s.sequence for s in after_restart]
        assert sequences == sorted(set(sequences))
    finally:
        listener.remove()
    assert not listener.is_running and listener.error is None


def test_a_removed_listener_stops_and_others_go_on(daemon: Daemon) -> None:
    sesame = daemon.client()
    first, second = Recorder(), Recorder()
    one = sesame.on_state_change(first)
    two = sesame.on_state_change(second)
    first.wait("a state", lambda v: len(v) == 1)
    second.wait("a state", lambda v: len(v) == 1)
    one.remove()
    sesame.sign_out(reset=True)
    second.wait("reset, anonymous-created", lambda v: reasons(v) == ["reset", "anonymous-created"])
    two.remove()
    assert len(first.values) == 1


def test_async_state_changes_across_restart(daemon: Daemon) -> None:
    async def main() -> List[State]:
        async with AsyncSesame(daemon.socket_path) as sesame:
            seen: List[State] = []
            stream = sesame.state_changes()
            restarted = False
            async for state in stream:
                seen.append(state)
                if len(seen) == 1:
                    await sesame.sign_out(reset=True)
                if reasons(seen) == ["reset", "anonymous-created"] and not restarted:
                    restarted = True
                    await asyncio.get_running_loop().run_in_executor(None, daemon.kill_and_restart)
                if restarted and state.reason == "snapshot":
                    await sesame.sign_out(reset=True)
                if reasons(seen) == ["reset", "anonymous-created"] * 2:
                    break
            await stream.aclose()
            return seen

    seen = asyncio.run(asyncio.wait_for(main(), 60))
    expect_consecutive(seen)
    assert seen[0].reason == "snapshot"


def test_async_listener_calls_a_coroutine(daemon: Daemon) -> None:
    async def main() -> List[State]:
        sesame = AsyncSesame(daemon.socket_path)
        got: "asyncio.Queue[State]" = asyncio.Queue()

        async def on_change(state: State) -> None:
            await got.put(state)
        listener = sesame.on_state_change(on_change)
        first = await got.get()
        await sesame.sign_out(reset=True)
        values = [first]
        while reasons(values) != ["reset", "anonymous-created"]:
            values.append(await got.get())
        await listener.remove()
        await sesame.close()
        return values

    values = asyncio.run(asyncio.wait_for(main(), 60))
    assert values[0].reason == "snapshot"
    expect_consecutive(values)


def test_migrator_gets_each_merge_once_and_completes_it(daemon: Daemon, emulator: Emulator) -> None:
    sesame = daemon.client()
    email = unique_email("merge")
    owner = emulator.create_account(email, "secret-12")
    guest = sesame.state().uid
    assert guest is not None
    result = sesame.sign_in(email, "secret-12")
    assert result.merge is not None
    with sesame.merges() as merges:
        merge = next(merges)
        assert merge == result.merge
        # The migrator may still read the guest's data with the guest's token.
        assert sesame.id_token(uid=merge.from_uid).uid == guest
        state = sesame.complete_merge(merge.merge_id)
    assert state.pending_merges == () and state.uid == owner
    from harness import wait_until
    wait_until("the guest account is deleted", lambda: not emulator.account_exists(guest))
