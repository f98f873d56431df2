"""``AsyncSesame``: the asyncio client. Calls share one connection and are multiplexed by
request id (pipelined; answers may come back in any order); it reconnects on the next call after
the daemon restarts. Each stream keeps a connection of its own."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Mapping, Optional, TypeVar, Union

from . import _calls as calls
from ._async_connection import AsyncConnection, open_lines
from ._async_stream import AsyncListener, AsyncMergeStream, AsyncStateStream
from ._connection import DEFAULT, TimeoutArg
from ._discovery import resolve_socket_path
from ._models import Hello, SignInFlow, SignInResult, State, Token, UsernameAvailability
from ._security import Reauthentication, TotpEnrollment
from ._wire import timeout_error

T = TypeVar("T")


class AsyncSesame:
    """The asyncio client of sesamed; same methods as ``Sesame``, awaited.

    ``socket_path`` defaults to ``$SESAME_SOCKET``, else the user instance's socket when it
    exists, else the system one. ``timeout`` (seconds; None for no limit) bounds every call that
    does not pass its own ``timeout=``; streams have none. ``await close()`` (or ``async with``)
    when done.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = 5.0,
                 client_name: str = "sesame-client-python") -> None:
        self.socket_path = socket_path or resolve_socket_path()
        self.timeout = timeout
        self.client_name = client_name
        self._connection: Optional[AsyncConnection] = None
        self._connecting: Optional["asyncio.Future[AsyncConnection]"] = None

    def __repr__(self) -> str:
        return f"AsyncSesame(socket_path={self.socket_path!r})"

    async def __aenter__(self) -> AsyncSesame:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Closes the calls' connection (streams are closed on their own)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()

    async def _connect(self) -> AsyncConnection:
        loop = asyncio.get_running_loop()
        if self._connection is not None and self._connection.is_usable(loop):
            return self._connection
        if self._connecting is None or self._connecting.get_loop() is not loop or self._connecting.done():
            self._connecting = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._connecting)

    async def _open(self) -> AsyncConnection:
        reader, writer = await open_lines(self.socket_path)
        connection = AsyncConnection(self.socket_path, reader, writer)
        self._connection = connection
        return connection

    async def _run(self, call: calls.Call[T], timeout: TimeoutArg) -> T:
        seconds = self.timeout if timeout is DEFAULT else timeout
        assert not isinstance(seconds, type(DEFAULT))

        async def attempt() -> Any:
            connection = await self._connect()
            return await connection.request(call.method, call.params)

        try:
            result = await asyncio.wait_for(attempt(), seconds)
        except asyncio.TimeoutError:
            raise timeout_error(call.method, seconds or 0.0, self.socket_path) from None
        return call.decode(result)

    # Reading.

    async def hello(self, *, timeout: TimeoutArg = DEFAULT) -> Hello:
        """The daemon's version, instance and backend, and this caller's role."""
        return await self._run(calls.hello(client=self.client_name), timeout)

    async def state(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        """The current state."""
        return await self._run(calls.get_state(), timeout)

    async def id_token(self, min_validity: Optional[int] = None, force_refresh: bool = False, uid: Optional[str] = None,
                 *, timeout: TimeoutArg = DEFAULT) -> Token:
        """An ID token valid for at least ``min_validity`` seconds (the daemon's default: 300).
        ``uid`` may name the ``from_uid`` of a pending merge (managers only)."""
        call = calls.get_id_token(force_refresh=force_refresh, min_validity=min_validity, uid=uid)
        return await self._run(call, timeout)

    async def check_username(self, username: str, *, timeout: TimeoutArg = DEFAULT) -> UsernameAvailability:
        return await self._run(calls.check_username(username), timeout)

    # Signing in and out.

    async def sign_in_anonymously(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.sign_in_anonymously(), timeout)

    async def create_account(self, email: str, password: str, username: Optional[str] = None,
                       *, timeout: TimeoutArg = DEFAULT) -> State:
        """Links an email and password to the guest (uid and data kept), or signs up when signed out."""
        return await self._run(calls.create_account(email, password, username=username), timeout)

    async def sign_in(self, identifier: str, password: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Signs in by email or username; from a guest, records a merge of its data."""
        return await self._run(calls.sign_in(identifier, password), timeout)

    async def send_sign_in_link(self, email: str, continue_url: Optional[str] = None,
                          *, timeout: TimeoutArg = DEFAULT) -> str:
        return await self._run(calls.send_sign_in_link(email, continue_url=continue_url), timeout)

    async def complete_sign_in_link(self, link: Optional[str] = None, email: Optional[str] = None,
                              code: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Completes an email link (or, on backends that send codes, ``email`` and ``code``)."""
        return await self._run(calls.complete_sign_in_link(link=link, code=code, email=email), timeout)

    async def sign_in_with_idp(self, provider_id: str, id_token: Optional[str] = None, access_token: Optional[str] = None,
                         *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        call = calls.sign_in_with_idp(provider_id, id_token=id_token, access_token=access_token)
        return await self._run(call, timeout)

    async def link_credential(self, credential: Mapping[str, Any], *, timeout: TimeoutArg = DEFAULT) -> State:
        """Adds a sign-in method; build ``credential`` with ``password_credential``,
        ``email_link_credential`` or ``idp_credential``."""
        return await self._run(calls.link_credential(credential), timeout)

    async def unlink(self, provider_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.unlink(provider_id), timeout)

    async def sign_out(self, reset: bool = False, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Signs out; a guest needs ``reset=True`` (its data is lost)."""
        return await self._run(calls.sign_out(reset=reset), timeout)

    async def delete_account(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.delete_account(), timeout)

    # The account.

    async def reload(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.reload(), timeout)

    async def update_profile(self, display_name: Optional[str], *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.update_profile(display_name=display_name), timeout)

    async def send_password_reset(self, identifier: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        await self._run(calls.send_password_reset(identifier), timeout)

    async def send_email_verification(self, *, timeout: TimeoutArg = DEFAULT) -> None:
        await self._run(calls.send_email_verification(), timeout)

    async def set_username(self, username: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        return await self._run(calls.set_username(username), timeout)

    async def complete_merge(self, merge_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Tells the daemon the guest's data has been moved; the guest account is then deleted."""
        return await self._run(calls.complete_merge(merge_id), timeout)

    # Interactive sign-in flows and provisioning.

    async def start_sign_in(self, provider_id: str, flow: str, redirect_uri: Optional[str] = None,
                      purpose: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> SignInFlow:
        """Starts a ``device`` or ``browser`` sign-in with ``provider_id`` (``google.com``, ...); a
        new one cancels the open one. A browser flow needs ``redirect_uri``, your loopback
        listener (``http://127.0.0.1:PORT/callback``): open ``authorization_url``, then pass the
        URL the browser came back to to ``complete_sign_in``. A device flow has
        ``verification_uri`` and ``user_code`` to show: then ``await_sign_in``."""
        call = calls.start_sign_in(provider_id, flow, redirect_uri=redirect_uri, purpose=purpose)
        return await self._run(call, timeout)

    async def complete_sign_in(self, flow_id: str, callback_url: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Finishes a browser flow with the full URL the browser came back to."""
        return await self._run(calls.complete_sign_in(flow_id, callback_url), timeout)

    async def await_sign_in(self, flow_id: str, wait: Optional[float] = None,
                      *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Waits until the flow ends (the daemon waits ``wait`` seconds, its default 300) and
        returns its outcome. ``OperationInProgress`` at ``wait``: the flow goes on, call again.
        The client's timeout is lengthened by ``wait``, so it never cuts the wait short."""
        if timeout is DEFAULT:
            timeout = calls.await_call_timeout(self.timeout, wait)
        return await self._run(calls.await_sign_in(flow_id, timeout=wait), timeout)

    async def cancel_sign_in(self, flow_id: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        """Cancels the flow; whoever waits on it gets ``SignInCancelled``."""
        await self._run(calls.cancel_sign_in(flow_id), timeout)

    async def sign_in_with_custom_token(self, token: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Signs in with a token minted by your project's server (``InvalidCustomToken`` when
        it is malformed, expired or refused; the guest is then unchanged)."""
        return await self._run(calls.sign_in_with_custom_token(token), timeout)

    # Second factors and account security.

    async def complete_second_factor(self, challenge_id: str, code: str, factor_id: Optional[str] = None,
                                     *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Finishes a sign-in that raised ``SecondFactorRequired`` (its ``challenge.challenge_id``)
        with a code from the authenticator app: the result the first call would have had.
        ``InvalidVerificationCode``: the challenge stays open, ask again; ``ExpiredSignInFlow``:
        sign in again."""
        return await self._run(calls.complete_second_factor(challenge_id, code, factor_id=factor_id), timeout)

    async def enroll_totp(self, display_name: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> TotpEnrollment:
        """Starts enrolling an authenticator app: show ``otpauth_uri`` as a QR code (or
        ``secret``), then ``confirm_totp`` with a code from the app."""
        return await self._run(calls.enroll_totp(display_name=display_name), timeout)

    async def confirm_totp(self, enrollment_id: str, code: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Activates the enrolment with a current code; the user's ``factors`` then list it."""
        return await self._run(calls.confirm_totp(enrollment_id, code), timeout)

    async def unenroll_factor(self, factor_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Removes a second factor (``RequiresRecentLogin``: ``reauthenticate`` first)."""
        return await self._run(calls.unenroll_factor(factor_id), timeout)

    async def reauthenticate(self, password: Optional[str] = None, code: Optional[str] = None,
                             *, timeout: TimeoutArg = DEFAULT) -> Reauthentication:
        """Proves a recent sign-in with the password, or with a code the backend mailed. With
        neither, asks the backend to mail a code (Supabase: ``code_sent``; Firebase raises
        ``OperationNotAllowed``)."""
        return await self._run(calls.reauthenticate(password=password, code=code), timeout)

    async def change_password(self, new_password: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        """Changes the password (``WeakPassword``, ``RequiresRecentLogin``)."""
        await self._run(calls.change_password(new_password), timeout)

    async def change_email(self, new_email: str, *, timeout: TimeoutArg = DEFAULT) -> str:
        """Asks to change the address; the backend mails ``new_email``, and the change shows in
        ``User.email`` once it is confirmed (``User.pending_email`` until then). Returns the
        pending address."""
        return await self._run(calls.change_email(new_email), timeout)

    async def confirm_password_reset(self, new_password: str, link: Optional[str] = None, code: Optional[str] = None,
                                     email: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> str:
        """Completes a password reset from the ``link`` of its email, or its ``code`` and the
        account's ``email``; returns the account's address. Needs no session."""
        return await self._run(calls.confirm_password_reset(new_password, link=link, code=code, email=email), timeout)

    # Streams.

    def state_changes(self) -> AsyncStateStream:
        """``async for state in sesame.state_changes()``: the current state, then every change,
        across daemon restarts, never stale or twice. ``await stream.aclose()`` (or
        ``async with``) to stop early."""
        return AsyncStateStream(self.socket_path, self.client_name, migrator=False)

    def merges(self) -> AsyncMergeStream:
        """For migrators (managers): every pending merge once, then each new one, across
        restarts. Move the guest's data, then ``await complete_merge(merge.merge_id)``."""
        return AsyncMergeStream(self.socket_path, self.client_name)

    def on_state_change(self, callback: Callable[[State], Union[None, Awaitable[None]]],
                        on_error: Optional[Callable[[BaseException], None]] = None) -> AsyncListener:
        """Calls ``callback`` (a function or a coroutine function) with the current state and
        every change, from a task of the running loop; ``await listener.remove()`` to stop."""
        return AsyncListener(self.state_changes(), callback, on_error)
