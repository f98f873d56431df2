"""Sesame (blocking) against the real daemon and emulator."""
from __future__ import annotations

import pytest

import sesame_client
from harness import Daemon, Emulator, unique_email
from sesame_client import (AlreadySignedIn, AuthenticationError, EmailAlreadyInUse, InvalidLoginCredentials,
                           OperationNotAllowed, RequiresResetConfirmation, Sesame, StateError)


def test_token_and_state(daemon: Daemon) -> None:
    sesame = daemon.client()
    state = sesame.state()
    assert state.status == sesame_client.ANONYMOUS
    assert state.user is not None and state.user.is_anonymous
    assert state.sequence >= 1
    token = sesame.id_token()
    assert token.uid == state.uid
    assert token.token.count(".") == 2
    assert token.token not in repr(token) and token.token not in str(token)
    assert token.expires_at is not None and token.issued_at is not None
    forced = sesame.id_token(force_refresh=True, min_validity=60)
    assert forced.uid == state.uid


def test_hello_names_the_instance_and_role(daemon: Daemon) -> None:
    hello = daemon.client().hello()
    assert hello.server == "sesamed"
    assert hello.protocol == 1
    assert hello.role == "manager"
    assert hello.backend == "firebase"
    assert hello.instance


def test_create_account_keeps_the_guest_uid(daemon: Daemon) -> None:
    sesame = daemon.client()
    guest = sesame.state().uid
    email = unique_email()
    state = sesame.create_account(email, "secret-12")
    assert state.status == sesame_client.AUTHENTICATED
    assert state.uid == guest
    assert state.user is not None and state.user.email == email and not state.user.is_anonymous
    assert "password" in state.user.providers
    with pytest.raises(AlreadySignedIn) as refused:
        sesame.sign_in_anonymously()
    assert refused.value.code == 4000 and isinstance(refused.value, StateError)


def test_email_already_in_use_carries_the_email_then_sign_in_merges(daemon: Daemon, emulator: Emulator) -> None:
    sesame = daemon.client()
    email = unique_email("taken")
    owner = emulator.create_account(email, "secret-12")
    guest = sesame.state().uid
    with pytest.raises(EmailAlreadyInUse) as taken:
        sesame.create_account(email, "another-1")
    error = taken.value
    assert isinstance(error, AuthenticationError)
    assert (error.code, error.reason, error.email) == (1000, "email-already-in-use", email)
    assert "another-1" not in str(error) and "another-1" not in repr(error)
    assert error.message  # says what to do next

    with pytest.raises(InvalidLoginCredentials):
        sesame.sign_in(email, "wrong-password")
    result = sesame.sign_in(email, "secret-12")
    assert result.state.uid == owner
    assert result.merge is not None
    assert (result.merge.from_uid, result.merge.to_uid) == (guest, owner)
    assert result.state.pending_merges == (result.merge,)


def test_sign_out_of_a_guest_needs_reset(daemon: Daemon, emulator: Emulator) -> None:
    sesame = daemon.client()
    guest = sesame.state().uid
    assert guest is not None
    with pytest.raises(RequiresResetConfirmation) as refused:
        sesame.sign_out()
    assert refused.value.reason == "requires-reset-confirmation"
    state = sesame.sign_out(reset=True)
    assert state.status == sesame_client.ANONYMOUS
    assert state.uid != guest
    assert not emulator.account_exists(guest)


def test_sign_out_scopes_on_firebase_are_refused_naming_what_to_deploy(daemon: Daemon) -> None:
    sesame = daemon.client()
    state = sesame.create_account(unique_email("scope"), "secret-12")
    for scope in ("others", "everywhere"):
        with pytest.raises(OperationNotAllowed) as refused:
            sesame.sign_out(scope=scope)
        assert refused.value.code == 1000 and "revokeRefreshTokens" in refused.value.message
    assert sesame.state().uid == state.uid


def test_manager_methods_round_trip(daemon: Daemon) -> None:
    sesame = daemon.client()
    email = unique_email("mgr")
    sesame.create_account(email, "secret-12")
    assert sesame.update_profile("Ann Lee").user.display_name == "Ann Lee"  # type: ignore[union-attr]
    assert sesame.reload().uid == sesame.state().uid
    sesame.send_email_verification()
    sesame.send_password_reset(email)
    assert sesame.send_sign_in_link(email) == email
    name = "ann_" + email.split("@")[0].split("-")[1]
    assert sesame.check_username(name) == sesame_client.UsernameAvailability(name, True, None)
    reserved = sesame.check_username("admin")
    assert (reserved.available, reserved.reason) == (False, "username-reserved")
    with pytest.raises(sesame_client.UsernameReserved):
        sesame.set_username("admin")
    assert sesame.set_username(name).user.username == name  # type: ignore[union-attr]
    state = sesame.delete_account()
    assert state.status == sesame_client.ANONYMOUS


def test_missing_socket_is_daemon_unavailable_naming_the_path() -> None:
    path = "/tmp/no-such-dir-for-sesame/s.sock"
    with pytest.raises(sesame_client.DaemonUnavailable) as missing:
        Sesame(path).state()
    assert path in str(missing.value)
    assert "sesamed.socket" in str(missing.value)
    assert missing.value.socket_path == path


def test_discovery_prefers_sesame_socket(daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SESAME_SOCKET", daemon.socket_path)
    assert Sesame().socket_path == daemon.socket_path
    assert Sesame().state().status == sesame_client.ANONYMOUS


def test_email_link_links_the_guest_and_credentials_link_and_unlink(daemon: Daemon, emulator: Emulator) -> None:
    sesame = daemon.client()
    guest = sesame.state().uid
    email = unique_email("link")
    assert sesame.send_sign_in_link(email) == email
    link = emulator.oob_link(email)
    assert link is not None
    result = sesame.complete_sign_in_link(link)  # the daemon remembers the address it sent to
    assert result.merge is None and result.state.uid == guest
    assert result.state.user is not None and result.state.user.email == email
    assert "password" in result.state.user.providers

    with pytest.raises(sesame_client.ProviderAlreadyLinked):
        sesame.link_credential(sesame_client.password_credential(email, "secret-12"))
    with pytest.raises(sesame_client.InvalidParams) as bad:
        sesame.link_credential({"providerId": "password"})
    assert bad.value.code == -32602 and isinstance(bad.value, sesame_client.ProtocolError)


def test_password_credential_links_a_guest(daemon: Daemon) -> None:
    sesame = daemon.client()
    guest = sesame.state().uid
    email = unique_email("cred")
    state = sesame.link_credential(sesame_client.password_credential(email, "secret-12"))
    assert state.uid == guest and state.status == sesame_client.AUTHENTICATED
    assert state.user is not None and state.user.providers == ("password",)
    with pytest.raises(sesame_client.NoSuchProvider):
        sesame.unlink("google.com")


def test_federated_sign_in_links_the_guest_then_unlink(daemon: Daemon) -> None:
    import json
    import uuid
    sesame = daemon.client()
    guest = sesame.state().uid
    email = unique_email("idp")
    claims = json.dumps({"sub": "g-" + uuid.uuid4().hex[:8], "email": email, "email_verified": True})
    result = sesame.sign_in_with_idp("google.com", id_token=claims)  # the emulator takes unsigned claims
    assert result.merge is None and result.state.uid == guest
    assert result.state.user is not None and "google.com" in result.state.user.providers
    state = sesame.link_credential(sesame_client.password_credential(unique_email("pw"), "secret-12"))
    assert set(state.user.providers) == {"google.com", "password"}  # type: ignore[union-attr]
    assert sesame.unlink("google.com").user.providers == ("password",)  # type: ignore[union-attr]
