"""``Sesame``: the blocking client. Each call opens its own connection, sends one request and
waits for its answer, so a client may be shared by threads and a daemon restart between calls
goes unnoticed. Streams keep one connection each."""
from __future__ import annotations

import socket
from typing import Any, Callable, Mapping, Optional, TypeVar

from . import _calls as calls
from ._connection import DEFAULT, Deadline, LineSocket, TimeoutArg
from ._discovery import resolve_socket_path
from ._errors import ConnectionLost
from ._models import Hello, SignInFlow, SignInResult, State, Token, UsernameAvailability
from ._security import Reauthentication, TotpEnrollment
from ._sync_stream import Listener, MergeStream, StateStream
from ._wire import decode_line, encode_request, error_from_wire, lost, timeout_error

T = TypeVar("T")


class Sesame:
    """A client of sesamed.

    ``socket_path`` defaults to ``$SESAME_SOCKET``, else the user instance's socket when it
    exists, else the system one. ``timeout`` (seconds; None for no limit) bounds every call that
    does not pass its own ``timeout=``; streams have none.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = 5.0,
                 client_name: str = "sesame-client-python") -> None:
        self.socket_path = socket_path or resolve_socket_path()
        self.timeout = timeout
        self.client_name = client_name

    def __repr__(self) -> str:
        return f"Sesame(socket_path={self.socket_path!r})"

    def _run(self, call: calls.Call[T], timeout: TimeoutArg) -> T:
        seconds = self.timeout if timeout is DEFAULT else timeout
        assert not isinstance(seconds, type(DEFAULT))
        deadline = Deadline(seconds)
        line = encode_request(1, call.method, call.params)
        try:
            connection = LineSocket(self.socket_path, deadline.remaining())
            try:
                try:
                    connection.send(line, deadline.remaining())
                except ConnectionLost:
                    pass  # the daemon may have said why before closing (too-many-connections): read it
                while True:
                    received = connection.readline(deadline.remaining())
                    if received is None:
                        raise lost(self.socket_path, call.method)
                    message = decode_line(received, self.socket_path)
                    if message is None or "id" not in message:
                        continue
                    if "error" in message and message.get("id") in (1, None):
                        raise error_from_wire(message["error"])
                    if message.get("id") == 1:
                        return call.decode(message.get("result"))
            finally:
                connection.close()
        except socket.timeout:
            raise timeout_error(call.method, seconds or 0.0, self.socket_path) from None

    # Reading.

    def hello(self, *, timeout: TimeoutArg = DEFAULT) -> Hello:
        """The daemon's version, instance and backend, and this caller's role."""
        return self._run(calls.hello(client=self.client_name), timeout)

    def state(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        """The current state."""
        return self._run(calls.get_state(), timeout)

    def id_token(self, min_validity: Optional[int] = None, force_refresh: bool = False, uid: Optional[str] = None,
                 *, timeout: TimeoutArg = DEFAULT) -> Token:
        """An ID token valid for at least ``min_validity`` seconds (the daemon's default: 300).
        ``uid`` may name the ``from_uid`` of a pending merge (managers only)."""
        return self._run(calls.get_id_token(force_refresh=force_refresh, min_validity=min_validity, uid=uid), timeout)

    def check_username(self, username: str, *, timeout: TimeoutArg = DEFAULT) -> UsernameAvailability:
        return self._run(calls.check_username(username), timeout)

    # Signing in and out.

    def sign_in_anonymously(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.sign_in_anonymously(), timeout)

    def create_account(self, email: str, password: str, username: Optional[str] = None,
                       *, timeout: TimeoutArg = DEFAULT) -> State:
        """Links an email and password to the guest (uid and data kept), or signs up when signed out."""
        return self._run(calls.create_account(email, password, username=username), timeout)

    def sign_in(self, identifier: str, password: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Signs in by email or username; from a guest, records a merge of its data."""
        return self._run(calls.sign_in(identifier, password), timeout)

    def send_sign_in_link(self, email: str, continue_url: Optional[str] = None,
                          *, timeout: TimeoutArg = DEFAULT) -> str:
        return self._run(calls.send_sign_in_link(email, continue_url=continue_url), timeout)

    def complete_sign_in_link(self, link: Optional[str] = None, email: Optional[str] = None,
                              code: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Completes an email link (or, on backends that send codes, ``email`` and ``code``)."""
        return self._run(calls.complete_sign_in_link(link=link, code=code, email=email), timeout)

    def sign_in_with_idp(self, provider_id: str, id_token: Optional[str] = None, access_token: Optional[str] = None,
                         *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        return self._run(calls.sign_in_with_idp(provider_id, id_token=id_token, access_token=access_token), timeout)

    def link_credential(self, credential: Mapping[str, Any], *, timeout: TimeoutArg = DEFAULT) -> State:
        """Adds a sign-in method; build ``credential`` with ``password_credential``,
        ``email_link_credential`` or ``idp_credential``."""
        return self._run(calls.link_credential(credential), timeout)

    def unlink(self, provider_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.unlink(provider_id), timeout)

    def sign_out(self, reset: bool = False, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Signs out; a guest needs ``reset=True`` (its data is lost)."""
        return self._run(calls.sign_out(reset=reset), timeout)

    def delete_account(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.delete_account(), timeout)

    # The account.

    def reload(self, *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.reload(), timeout)

    def update_profile(self, display_name: Optional[str], *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.update_profile(display_name=display_name), timeout)

    def send_password_reset(self, identifier: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        self._run(calls.send_password_reset(identifier), timeout)

    def send_email_verification(self, *, timeout: TimeoutArg = DEFAULT) -> None:
        self._run(calls.send_email_verification(), timeout)

    def set_username(self, username: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        return self._run(calls.set_username(username), timeout)

    def complete_merge(self, merge_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Tells the daemon the guest's data has been moved; the guest account is then deleted."""
        return self._run(calls.complete_merge(merge_id), timeout)

    # Interactive sign-in flows and provisioning.

    def start_sign_in(self, provider_id: str, flow: str, redirect_uri: Optional[str] = None,
                      purpose: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> SignInFlow:
        """Starts a ``device`` or ``browser`` sign-in with ``provider_id`` (``google.com``, ...); a
        new one cancels the open one. A browser flow needs ``redirect_uri``, your loopback
        listener (``http://127.0.0.1:PORT/callback``): open ``authorization_url``, then pass the
        URL the browser came back to to ``complete_sign_in``. A device flow has
        ``verification_uri`` and ``user_code`` to show: then ``await_sign_in``."""
        return self._run(calls.start_sign_in(provider_id, flow, redirect_uri=redirect_uri, purpose=purpose), timeout)

    def complete_sign_in(self, flow_id: str, callback_url: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Finishes a browser flow with the full URL the browser came back to."""
        return self._run(calls.complete_sign_in(flow_id, callback_url), timeout)

    def await_sign_in(self, flow_id: str, wait: Optional[float] = None,
                      *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Waits until the flow ends (the daemon waits ``wait`` seconds, its default 300) and
        returns its outcome. ``OperationInProgress`` at ``wait``: the flow goes on, call again.
        The client's timeout is lengthened by ``wait``, so it never cuts the wait short."""
        if timeout is DEFAULT:
            timeout = calls.await_call_timeout(self.timeout, wait)
        return self._run(calls.await_sign_in(flow_id, timeout=wait), timeout)

    def cancel_sign_in(self, flow_id: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        """Cancels the flow; whoever waits on it gets ``SignInCancelled``."""
        self._run(calls.cancel_sign_in(flow_id), timeout)

    def sign_in_with_custom_token(self, token: str, *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Signs in with a token minted by your project's server (``InvalidCustomToken`` when
        it is malformed, expired or refused; the guest is then unchanged)."""
        return self._run(calls.sign_in_with_custom_token(token), timeout)

    # Second factors and account security.

    def complete_second_factor(self, challenge_id: str, code: str, factor_id: Optional[str] = None,
                               *, timeout: TimeoutArg = DEFAULT) -> SignInResult:
        """Finishes a sign-in that raised ``SecondFactorRequired`` (its ``challenge.challenge_id``)
        with a code from the authenticator app: the result the first call would have had.
        ``InvalidVerificationCode``: the challenge stays open, ask again; ``ExpiredSignInFlow``:
        sign in again."""
        return self._run(calls.complete_second_factor(challenge_id, code, factor_id=factor_id), timeout)

    def enroll_totp(self, display_name: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> TotpEnrollment:
        """Starts enrolling an authenticator app: show ``otpauth_uri`` as a QR code (or
        ``secret``), then ``confirm_totp`` with a code from the app."""
        return self._run(calls.enroll_totp(display_name=display_name), timeout)

    def confirm_totp(self, enrollment_id: str, code: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Activates the enrolment with a current code; the user's ``factors`` then list it."""
        return self._run(calls.confirm_totp(enrollment_id, code), timeout)

    def unenroll_factor(self, factor_id: str, *, timeout: TimeoutArg = DEFAULT) -> State:
        """Removes a second factor (``RequiresRecentLogin``: ``reauthenticate`` first)."""
        return self._run(calls.unenroll_factor(factor_id), timeout)

    def reauthenticate(self, password: Optional[str] = None, code: Optional[str] = None,
                       *, timeout: TimeoutArg = DEFAULT) -> Reauthentication:
        """Proves a recent sign-in with the password, or with a code the backend mailed. With
        neither, asks the backend to mail a code (Supabase: ``code_sent``; Firebase raises
        ``OperationNotAllowed``)."""
        return self._run(calls.reauthenticate(password=password, code=code), timeout)

    def change_password(self, new_password: str, *, timeout: TimeoutArg = DEFAULT) -> None:
        """Changes the password (``WeakPassword``, ``RequiresRecentLogin``)."""
        self._run(calls.change_password(new_password), timeout)

    def change_email(self, new_email: str, *, timeout: TimeoutArg = DEFAULT) -> str:
        """Asks to change the address; the backend mails ``new_email``, and the change shows in
        ``User.email`` once it is confirmed (``User.pending_email`` until then). Returns the
        pending address."""
        return self._run(calls.change_email(new_email), timeout)

    def confirm_password_reset(self, new_password: str, link: Optional[str] = None, code: Optional[str] = None,
                               email: Optional[str] = None, *, timeout: TimeoutArg = DEFAULT) -> str:
        """Completes a password reset from the ``link`` of its email, or its ``code`` and the
        account's ``email``; returns the account's address. Needs no session."""
        return self._run(calls.confirm_password_reset(new_password, link=link, code=code, email=email), timeout)

    # Streams.

    def state_changes(self) -> StateStream:
        """The current state, then every change, across daemon restarts, never stale or twice.
        Iterate it; ``close()`` it (or use ``with``) from any thread to stop."""
        return StateStream(self.socket_path, self.client_name, migrator=False)

    def merges(self) -> MergeStream:
        """For migrators (managers): every pending merge once, then each new one, across
        restarts. Move the guest's data, then ``complete_merge(merge.merge_id)``."""
        return MergeStream(self.socket_path, self.client_name)

    def on_state_change(self, callback: Callable[[State], None],
                        on_error: Optional[Callable[[BaseException], None]] = None) -> Listener:
        """Calls ``callback`` from a background thread with the current state and every change.
        ``remove()`` the returned listener to stop. An error that ends the stream (the daemon
        was not reachable at the start, or refused) goes to ``on_error``, else to the log."""
        return Listener(self.state_changes(), callback, on_error)
