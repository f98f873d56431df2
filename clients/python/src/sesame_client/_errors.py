"""The exception hierarchy: one base per protocol code class, client-side errors beside them.

The per-reason classes (``EmailAlreadyInUse``, ...) are generated into ``_reasons.py`` from
the error table of docs/protocol.md by ``scripts/generate_reasons.py``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

if TYPE_CHECKING:
    from ._security import SecondFactorChallenge


class SesameError(Exception):
    """Every error this package raises.

    ``code`` and ``reason`` are PROTOCOL.md's (``code`` is None for errors the client itself
    detects); ``message`` is a sentence that says what to do next; ``data`` is the error's
    ``data`` object. None of them ever holds a password, token or link.
    """

    code: Optional[int] = None
    reason: str = ""

    def __init__(self, message: str, *, code: Optional[int] = None, reason: Optional[str] = None,
                 data: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if reason is not None:
            self.reason = reason
        self.data: Dict[str, Any] = dict(data or {})

    def __str__(self) -> str:
        if self.code is None:
            return self.message
        return f"{self.message} ({self.reason}, {self.code})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, reason={self.reason!r}, message={self.message!r})"

    @property
    def email(self) -> Optional[str]:
        """``data.email`` of conflicts (``email-already-in-use``, ...), when known."""
        value = self.data.get("email")
        return value if isinstance(value, str) else None

    @property
    def provider_id(self) -> Optional[str]:
        """``data.providerId`` of conflicts."""
        value = self.data.get("providerId")
        return value if isinstance(value, str) else None

    @property
    def providers(self) -> Optional[List[str]]:
        """``data.providers``: the sign-in methods an existing account has."""
        value = self.data.get("providers")
        return [p for p in value if isinstance(p, str)] if isinstance(value, list) else None

    @property
    def retry_after_ms(self) -> Optional[int]:
        """``data.retryAfterMs`` of backend errors (code 2000)."""
        value = self.data.get("retryAfterMs")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def challenge(self) -> Optional[SecondFactorChallenge]:
        """The open challenge of ``second-factor-required`` (``data.challengeId``, ``factors``,
        ``expiresAt``): pass ``challenge.challenge_id`` to ``complete_second_factor``. None for
        other errors."""
        from ._security import SecondFactorChallenge  # _security reads objects with this module's errors
        if not isinstance(self.data.get("challengeId"), str):
            return None
        return SecondFactorChallenge.from_json(self.data)

    @property
    def required_role(self) -> Optional[str]:
        """``data.requiredRole`` of ``permission-denied``."""
        value = self.data.get("requiredRole")
        return value if isinstance(value, str) else None


class DaemonError(SesameError):
    """An error sesamed answered with (an unknown code is raised as this class)."""


class ProtocolError(DaemonError):
    """-32700...-32603: the request was not protocol (a bug in the caller or in this package)."""


class AuthenticationError(DaemonError):
    """1000: the person must do something (sign in instead, choose another password, ...)."""


class BackendUnavailable(DaemonError):
    """2000: the backend cannot be reached or refuses for now; retry after ``retry_after_ms``."""


class PermissionDenied(DaemonError):
    """3000: this user's role is too low; ``required_role`` says which is needed."""


class StateError(DaemonError):
    """4000: the operation does not fit the current state."""


class DaemonUnavailable(SesameError):
    """The daemon cannot be reached: no socket, nothing listening, or no permission."""

    reason = "daemon-unavailable"

    def __init__(self, message: str, *, socket_path: str = "") -> None:
        super().__init__(message)
        self.socket_path = socket_path


class ConnectionLost(DaemonUnavailable):
    """The connection closed (or sesamed sent something that is not protocol) before the answer.

    The request may or may not have been carried out; read ``state()`` before repeating a
    session-changing call.
    """

    reason = "connection-lost"


class Timeout(SesameError, TimeoutError):
    """No answer within the call's ``timeout``."""

    reason = "timeout"


CODE_CLASSES: Mapping[int, type] = {
    -32700: ProtocolError, -32600: ProtocolError, -32601: ProtocolError, -32602: ProtocolError,
    -32603: ProtocolError, 1000: AuthenticationError, 2000: BackendUnavailable, 3000: PermissionDenied,
    4000: StateError,
}
