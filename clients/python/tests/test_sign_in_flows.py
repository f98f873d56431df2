"""The sign-in flow methods: their request shapes against a scripted socket, the SignInFlow and
SignInPrompt objects, signInFlowChanged on the stream, and the real daemon's answer."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import tempfile
import threading
from typing import Any, Dict, Iterator, List

import pytest

from harness import Daemon
from sesame_client import (AccessDenied, AsyncSesame, AuthenticationError, ExpiredSignInFlow, InvalidCustomToken,
                           Sesame, SignInCancelled, SignInFlow, SignInPrompt, State)
from sesame_client._calls import await_call_timeout
from sesame_client._tracker import StreamSession, StreamTracker

STATE: Dict[str, Any] = {"status": "anonymous", "user": {"uid": "g1", "isAnonymous": True, "providers": []},
                         "token": None, "connectivity": "online", "needsUsername": False, "pendingMerges": [],
                         "sequence": 4}
FLOW: Dict[str, Any] = {"flowId": "f1", "providerId": "google.com", "flow": "device", "status": "pending",
                        "verificationUri": "https://www.google.com/device", "verificationUriComplete": None,
                        "userCode": "WDJB-MJHT", "authorizationUrl": None, "expiresAt": "2026-11-21T10:15:00Z",
                        "intervalSeconds": 5, "purpose": "sign-in"}
PROMPT = {key: FLOW[key] for key in ("flowId", "providerId", "flow", "verificationUri", "verificationUriComplete",
                                     "userCode", "expiresAt")}


class ScriptedDaemon:
    """A Unix socket that records each request line and answers it with ``answers[method]``,
    once ``release`` is set for the methods in ``held``."""

    def __init__(self, answers: Dict[str, Any]) -> None:
        self.path = os.path.join(tempfile.mkdtemp(), "s.sock")
        self.answers = answers
        self.requests: List[Dict[str, Any]] = []
        self.held: set[str] = set()
        self.release = threading.Event()
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(8)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            self._answer(connection)
        except OSError:
            pass  # the client gave up (its timeout) and closed

    def _answer(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rwb") as stream:
            for raw in stream:
                request = json.loads(raw)
                self.requests.append(request)
                if request["method"] in self.held:
                    self.release.wait(30)
                answer = {"jsonrpc": "2.0", "id": request["id"], "result": self.answers.get(request["method"], {})}
                stream.write(json.dumps(answer).encode() + b"\n")
                stream.flush()

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def scripted() -> Iterator[ScriptedDaemon]:
    result = {"state": STATE, "merge": None}
    daemon = ScriptedDaemon({"startSignIn": FLOW, "completeSignIn": result, "awaitSignIn": result,
                             "cancelSignIn": {}, "signInWithCustomToken": result})
    yield daemon
    daemon.close()


def test_sync_methods_send_the_protocols_names_and_params(scripted: ScriptedDaemon) -> None:
    sesame = Sesame(scripted.path)
    flow = sesame.start_sign_in("google.com", "device")
    assert flow == SignInFlow.from_json(FLOW) and flow.user_code == "WDJB-MJHT" and flow.is_pending
    sesame.start_sign_in("github.com", "browser", redirect_uri="http://127.0.0.1:9/callback", purpose="reauthenticate")
    done = sesame.complete_sign_in("f1", "http://127.0.0.1:9/callback?code=c&state=s")
    assert done.state.uid == "g1" and done.merge is None
    sesame.await_sign_in("f1", wait=60)
    sesame.cancel_sign_in("f1")
    sesame.sign_in_with_custom_token("tok")
    assert [(r["method"], r["params"]) for r in scripted.requests] == [
        ("startSignIn", {"providerId": "google.com", "flow": "device"}),
        ("startSignIn", {"providerId": "github.com", "flow": "browser", "redirectUri": "http://127.0.0.1:9/callback",
                         "purpose": "reauthenticate"}),
        ("completeSignIn", {"flowId": "f1", "callbackUrl": "http://127.0.0.1:9/callback?code=c&state=s"}),
        ("awaitSignIn", {"flowId": "f1", "timeout": 60}),
        ("cancelSignIn", {"flowId": "f1"}),
        ("signInWithCustomToken", {"token": "tok"}),
    ]


def test_await_outlasts_the_clients_own_timeout(scripted: ScriptedDaemon) -> None:
    assert await_call_timeout(5.0, 60) == 65.0 and await_call_timeout(5.0, None) == 305.0
    assert await_call_timeout(None, 60) is None
    scripted.held = {"awaitSignIn"}
    # The client's timeout (0.3 s) is shorter than the daemon's wait (1 s): the answer that comes
    # once the daemon lets go must still arrive. The daemon is released only after the client's
    # own timeout has passed (a plain call with that timeout times out meanwhile).
    sesame = Sesame(scripted.path, timeout=0.3)
    outcome: List[Any] = []
    waiter = threading.Thread(target=lambda: outcome.append(sesame.await_sign_in("f1", wait=1)))
    waiter.start()
    scripted.held.add("cancelSignIn")
    with pytest.raises(TimeoutError):
        sesame.cancel_sign_in("f1")
    scripted.release.set()
    waiter.join(30)
    assert outcome and outcome[0].state.uid == "g1"

    async def main() -> None:
        async with AsyncSesame(scripted.path, timeout=0.3) as client:
            done = await client.await_sign_in("f1", wait=1)
            assert done.state.sequence == 4
            await client.cancel_sign_in("f1")
            assert (await client.start_sign_in("google.com", "device")).flow_id == "f1"
            assert (await client.sign_in_with_custom_token("tok")).merge is None
            assert (await client.complete_sign_in("f1", "http://127.0.0.1:9/callback?code=c")).state.uid == "g1"
    asyncio.run(main())


def test_sign_in_prompt_and_flow_objects() -> None:
    state = State.from_json(dict(STATE, signInPrompt=PROMPT))
    assert state.sign_in_prompt == SignInPrompt.from_json(PROMPT)
    assert state.sign_in_prompt is not None and state.sign_in_prompt.user_code == "WDJB-MJHT"
    assert state.sign_in_prompt.expires_at is not None and state.sign_in_prompt.expires_at.minute == 15
    assert State.from_json(dict(STATE, signInPrompt=None)).sign_in_prompt is None
    assert State.from_json(STATE).sign_in_prompt is None
    browser = SignInFlow.from_json(dict(FLOW, flow="browser", status="completed", userCode=None, verificationUri=None,
                                        authorizationUrl="https://accounts.example/auth", intervalSeconds=None))
    assert (browser.authorization_url, browser.interval_seconds, browser.is_pending) == (
        "https://accounts.example/auth", None, False)


def test_sign_in_flow_changed_is_a_state_notification_on_the_stream() -> None:
    session = StreamSession(StreamTracker(), "t", "/s")
    session.start()
    session.feed(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"instance": "i1"}}).encode())
    session.feed(json.dumps({"jsonrpc": "2.0", "id": 2, "result": {"subscription": 1, "state": STATE}}).encode())
    changed = {"flow": FLOW, "state": dict(STATE, signInPrompt=PROMPT, sequence=5), "sequence": 5}
    events, replies = session.feed(json.dumps({"jsonrpc": "2.0", "method": "signInFlowChanged",
                                               "params": changed}).encode())
    assert replies == []
    assert len(events) == 1 and isinstance(events[0], State)
    assert (events[0].sequence, events[0].reason) == (5, "sign-in-flow-changed")
    assert events[0].sign_in_prompt is not None and events[0].sign_in_prompt.flow_id == "f1"
    # The next state notification follows without a gap.
    events, replies = session.feed(json.dumps({"jsonrpc": "2.0", "method": "userUpdated",
                                               "params": {"state": dict(STATE, sequence=6), "sequence": 6}}).encode())
    assert replies == [] and isinstance(events[0], State) and events[0].sequence == 6


def test_the_flow_reasons_are_authentication_errors() -> None:
    for cls in (AccessDenied, ExpiredSignInFlow, SignInCancelled, InvalidCustomToken):
        assert issubclass(cls, AuthenticationError)


def test_the_daemon_refuses_a_custom_token_it_cannot_use(daemon: Daemon) -> None:
    sesame = daemon.client()
    before = sesame.state()
    with pytest.raises(AuthenticationError) as refused:
        sesame.sign_in_with_custom_token("not-a-custom-token")
    assert refused.value.reason == "invalid-custom-token"
    assert isinstance(refused.value, InvalidCustomToken)
    assert "not-a-custom-token" not in str(refused.value)
    assert sesame.state().uid == before.uid


def test_a_device_flow_approved_at_the_emulator_links_the_guest(daemon: Daemon) -> None:
    daemon.emulator.request("POST", "/emulator/v1/idp/config", {"intervalSeconds": 1})
    sesame = daemon.client()
    guest = sesame.state().uid
    flow = sesame.start_sign_in("google.com", "device")
    assert flow.status == "pending" and flow.user_code
    assert sesame.state().sign_in_prompt is not None
    daemon.emulator.request("POST", "/emulator/v1/idp/google.com/device/approve",
                            {"userCode": flow.user_code, "email": "py-device@example.com"})
    result = sesame.await_sign_in(flow.flow_id, wait=60)
    assert result.merge is None
    assert result.state.uid == guest and result.state.status == "authenticated"
    assert result.state.sign_in_prompt is None
