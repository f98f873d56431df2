"""Second factors and account security: the eight methods' request shapes and results against a
scripted socket (sync and asyncio), the challenge of ``second-factor-required`` on the error, and
the new fields of User and State."""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Any, Dict, Iterator

import pytest

from sesame_client import (AsyncSesame, AuthenticationError, InvalidVerificationCode, Reauthentication,
                           SecondFactor, SecondFactorRequired, Sesame, State, TotpEnrollment)
from sesame_client._wire import error_from_wire
from test_sign_in_flows import STATE, ScriptedDaemon

CHALLENGE: Dict[str, Any] = {"challengeId": "ch-1", "expiresAt": "2026-11-21T10:05:00Z",
                             "factors": [{"factorId": "f-1", "type": "totp", "displayName": "Phone",
                                          "enrolledAt": None}]}
ENROLLMENT: Dict[str, Any] = {"enrollmentId": "e-1", "secret": "JBSWY3DPEHPK3PXP",
                              "otpauthUri": "otpauth://totp/Sesame:ann?secret=JBSWY3DPEHPK3PXP&issuer=Sesame",
                              "expiresAt": "2026-11-21T10:10:00Z"}


@pytest.fixture
def scripted() -> Iterator[ScriptedDaemon]:
    daemon = ScriptedDaemon({"completeSecondFactor": {"state": STATE, "merge": None}, "enrollTotp": ENROLLMENT,
                             "confirmTotp": STATE, "unenrollFactor": STATE,
                             "reauthenticate": {"validUntil": "2026-11-21T10:10:00Z"}, "changePassword": {},
                             "changeEmail": {"pendingEmail": "new@example.com"},
                             "confirmPasswordReset": {"email": "ann@example.com"}})
    yield daemon
    daemon.close()


EXPECTED = [
    ("completeSecondFactor", {"challengeId": "ch-1", "code": "123456"}),
    ("completeSecondFactor", {"challengeId": "ch-1", "code": "123456", "factorId": "f-1"}),
    ("enrollTotp", {"displayName": "Phone"}),
    ("enrollTotp", {}),
    ("confirmTotp", {"enrollmentId": "e-1", "code": "123456"}),
    ("unenrollFactor", {"factorId": "f-1"}),
    ("reauthenticate", {"password": "pw"}),
    ("reauthenticate", {"code": "777777"}),
    ("reauthenticate", {}),
    ("changePassword", {"newPassword": "new-pw"}),
    ("changeEmail", {"newEmail": "new@example.com"}),
    ("confirmPasswordReset", {"link": "https://x/reset?oobCode=c", "newPassword": "n1"}),
    ("confirmPasswordReset", {"code": "123456", "email": "ann@example.com", "newPassword": "n2"}),
]


def test_the_eight_methods_send_the_protocols_params_and_read_the_results(scripted: ScriptedDaemon) -> None:
    sesame = Sesame(scripted.path)
    done = sesame.complete_second_factor("ch-1", "123456")
    assert done.state.uid == "g1" and done.merge is None
    sesame.complete_second_factor("ch-1", "123456", factor_id="f-1")
    enrollment = sesame.enroll_totp("Phone")
    assert isinstance(enrollment, TotpEnrollment) and enrollment.enrollment_id == "e-1"
    assert enrollment.secret == "JBSWY3DPEHPK3PXP" and enrollment.otpauth_uri.startswith("otpauth://totp/")
    assert "JBSWY3DPEHPK3PXP" not in repr(enrollment)
    sesame.enroll_totp()
    assert isinstance(sesame.confirm_totp("e-1", "123456"), State)
    assert isinstance(sesame.unenroll_factor("f-1"), State)
    proven = sesame.reauthenticate(password="pw")
    assert proven == Reauthentication(valid_until=datetime(2026, 11, 21, 10, 10, tzinfo=timezone.utc))
    sesame.reauthenticate(code="777777")
    sesame.reauthenticate()
    sesame.change_password("new-pw")
    assert sesame.change_email("new@example.com") == "new@example.com"
    assert sesame.confirm_password_reset("n1", link="https://x/reset?oobCode=c") == "ann@example.com"
    sesame.confirm_password_reset("n2", code="123456", email="ann@example.com")
    assert [(r["method"], r.get("params", {})) for r in scripted.requests] == EXPECTED


def test_the_async_client_has_the_same_methods(scripted: ScriptedDaemon) -> None:
    async def run() -> None:
        async with AsyncSesame(scripted.path) as sesame:
            await sesame.complete_second_factor("ch-1", "123456")
            await sesame.complete_second_factor("ch-1", "123456", factor_id="f-1")
            await sesame.enroll_totp("Phone")
            await sesame.enroll_totp()
            await sesame.confirm_totp("e-1", "123456")
            await sesame.unenroll_factor("f-1")
            await sesame.reauthenticate(password="pw")
            await sesame.reauthenticate(code="777777")
            await sesame.reauthenticate()
            await sesame.change_password("new-pw")
            assert await sesame.change_email("new@example.com") == "new@example.com"
            await sesame.confirm_password_reset("n1", link="https://x/reset?oobCode=c")
            await sesame.confirm_password_reset("n2", code="123456", email="ann@example.com")
    asyncio.run(run())
    assert [(r["method"], r.get("params", {})) for r in scripted.requests] == EXPECTED


def test_bad_combinations_are_refused_before_anything_is_sent(scripted: ScriptedDaemon) -> None:
    sesame = Sesame(scripted.path)
    with pytest.raises(ValueError):
        sesame.reauthenticate(password="pw", code="1")
    with pytest.raises(ValueError):
        sesame.confirm_password_reset("n", code="123456")
    with pytest.raises(ValueError):
        sesame.confirm_password_reset("n")
    assert scripted.requests == []


def test_second_factor_required_carries_the_challenge() -> None:
    error = error_from_wire({"code": 1000, "message": "Complete the sign-in with a code.",
                             "data": {"reason": "second-factor-required", **CHALLENGE}})
    assert type(error) is SecondFactorRequired and isinstance(error, AuthenticationError)
    challenge = error.challenge
    assert challenge is not None and challenge.challenge_id == "ch-1"
    assert challenge.factors == (SecondFactor(factor_id="f-1", type="totp", display_name="Phone"),)
    assert challenge.expires_at == datetime(2026, 11, 21, 10, 5, tzinfo=timezone.utc)
    wrong = error_from_wire({"code": 1000, "message": "No.", "data": {"reason": "invalid-verification-code"}})
    assert type(wrong) is InvalidVerificationCode and wrong.challenge is None


def test_user_and_state_read_factors_pending_email_and_the_challenge() -> None:
    user = {"uid": "ann", "isAnonymous": False, "providers": ["password"], "pendingEmail": "new@example.com",
            "factors": [{"factorId": "f-1", "type": "totp", "displayName": None,
                         "enrolledAt": "2026-11-21T10:00:00Z"}]}
    state = State.from_json({**STATE, "status": "authenticated", "user": user, "secondFactor": CHALLENGE})
    assert state.user is not None and state.user.pending_email == "new@example.com"
    assert state.user.factors[0].factor_id == "f-1" and state.user.factors[0].display_name is None
    assert state.user.factors[0].enrolled_at == datetime(2026, 11, 21, 10, 0, tzinfo=timezone.utc)
    assert state.second_factor is not None and state.second_factor.challenge_id == "ch-1"
    plain = State.from_json(STATE)
    assert plain.second_factor is None and plain.user is not None and plain.user.factors == ()
    assert plain.user.pending_email is None
