"""AsyncSesame against the real daemon: multiplexed calls, typed errors, reconnecting."""
from __future__ import annotations

import asyncio

import pytest

from harness import Daemon, Emulator, unique_email
from sesame_client import AsyncSesame, EmailAlreadyInUse, RequiresResetConfirmation


def test_pipelined_calls_share_one_connection(daemon: Daemon) -> None:
    async def main() -> None:
        async with AsyncSesame(daemon.socket_path) as sesame:
            state = await sesame.state()
            tokens = await asyncio.gather(*[sesame.id_token() for _ in range(100)])
            assert {t.uid for t in tokens} == {state.uid}
            connection = sesame._connection
            assert connection is not None and connection.next_id == 102  # one connection carried all 101
            forced = await asyncio.gather(*[sesame.id_token(force_refresh=True) for _ in range(10)])
            assert all(f.uid == state.uid for f in forced)
    asyncio.run(main())


def test_async_typed_errors_and_merge(daemon: Daemon, emulator: Emulator) -> None:
    async def main() -> None:
        async with AsyncSesame(daemon.socket_path) as sesame:
            email = unique_email("async")
            owner = emulator.create_account(email, "secret-12")
            with pytest.raises(RequiresResetConfirmation):
                await sesame.sign_out()
            with pytest.raises(EmailAlreadyInUse) as taken:
                await sesame.create_account(email, "another-1")
            assert taken.value.email == email
            guest = (await sesame.state()).uid
            result = await sesame.sign_in(email, "secret-12")
            assert result.merge is not None and result.merge.from_uid == guest and result.state.uid == owner
            async with sesame.merges() as merges:  # a migrator is given the pending merge
                merge = await merges.__anext__()
            assert merge == result.merge
            state = await sesame.complete_merge(merge.merge_id)
            assert state.pending_merges == ()
    asyncio.run(main())


def test_async_calls_reconnect_after_the_daemon_restarts(daemon: Daemon) -> None:
    async def main() -> None:
        async with AsyncSesame(daemon.socket_path) as sesame:
            before = await sesame.hello()
            await asyncio.get_running_loop().run_in_executor(None, daemon.kill_and_restart)
            after = await sesame.hello()
            assert after.instance != before.instance
    asyncio.run(main())
