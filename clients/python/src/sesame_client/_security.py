"""The objects of "Second factors" and "Account security": enrolled factors, the challenge of a
sign-in that needs one, a TOTP enrolment and a reauthentication."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Tuple

from ._json import _object, _string, parse_time


@dataclass(frozen=True)
class SecondFactor:
    """An enrolled second factor (``User.factors``). ``type`` is ``totp``, or the backend's own
    kind passed through."""

    factor_id: str
    type: str = "totp"
    display_name: Optional[str] = None
    enrolled_at: Optional[datetime] = None

    @classmethod
    def from_json(cls, value: Any) -> SecondFactor:
        obj = _object(value, "factor")
        name = obj.get("displayName")
        return cls(factor_id=_string(obj, "factorId", "factor"), type=str(obj.get("type") or "totp"),
                   display_name=name if isinstance(name, str) else None,
                   enrolled_at=parse_time(obj.get("enrolledAt")))


@dataclass(frozen=True)
class SecondFactorChallenge:
    """The open challenge of a sign-in that needs a second factor (``State.second_factor``, and
    ``SecondFactorRequired.challenge``): answer it with ``complete_second_factor``. Never a
    secret."""

    challenge_id: str
    factors: Tuple[SecondFactor, ...] = ()
    expires_at: Optional[datetime] = None

    @classmethod
    def from_json(cls, value: Any) -> SecondFactorChallenge:
        obj = _object(value, "second-factor challenge")
        return cls(challenge_id=_string(obj, "challengeId", "second-factor challenge"),
                   factors=tuple(SecondFactor.from_json(f) for f in obj.get("factors") or () if isinstance(f, dict)),
                   expires_at=parse_time(obj.get("expiresAt")))


@dataclass(frozen=True)
class TotpEnrollment:
    """``enroll_totp``'s answer: show ``otpauth_uri`` as a QR code (or ``secret`` to type in),
    then ``confirm_totp(enrollment_id, code)``. The secret is left out of repr."""

    enrollment_id: str
    secret: str = field(repr=False)
    otpauth_uri: str = field(repr=False)
    expires_at: Optional[datetime] = None

    @classmethod
    def from_json(cls, value: Any) -> TotpEnrollment:
        obj = _object(value, "enrollTotp result")
        return cls(enrollment_id=_string(obj, "enrollmentId", "enrollTotp result"),
                   secret=_string(obj, "secret", "enrollTotp result"),
                   otpauth_uri=_string(obj, "otpauthUri", "enrollTotp result"),
                   expires_at=parse_time(obj.get("expiresAt")))


@dataclass(frozen=True)
class Reauthentication:
    """``reauthenticate``'s answer: until when sensitive calls are allowed (None when only a code
    was mailed: ``code_sent``)."""

    valid_until: Optional[datetime]
    code_sent: bool = False

    @classmethod
    def from_json(cls, value: Any) -> Reauthentication:
        obj = _object(value, "reauthenticate result")
        return cls(valid_until=parse_time(obj.get("validUntil")), code_sent=obj.get("codeSent") is True)
