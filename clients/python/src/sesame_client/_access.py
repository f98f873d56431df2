"""Consent (PROTOCOL.md, "Access"): programs' requests for a role and the grants managers made."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Optional, Tuple

from ._json import _object, _string
from ._json import parse_time as parse_time


def _optional_str(obj: Mapping[str, Any], name: str) -> Optional[str]:
    value = obj.get(name)
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class AccessRequest:
    """A program's open request for a role (``State.access_requests``, managers only). Every
    field but ``reason`` was read by sesamed about the process; ``reason`` is the program's own."""

    request_id: str
    role: str
    reason: Optional[str]
    uid: int
    user: Optional[str]
    pid: int
    executable: Optional[str]
    unit: Optional[str]
    flatpak_app_id: Optional[str]
    expires_at: Optional[datetime]

    @classmethod
    def from_json(cls, value: Any) -> AccessRequest:
        obj = _object(value, "AccessRequest")
        return cls(
            request_id=_string(obj, "requestId", "AccessRequest"), role=_string(obj, "role", "AccessRequest"),
            reason=_optional_str(obj, "reason"), uid=int(obj.get("uid") or 0), user=_optional_str(obj, "user"),
            pid=int(obj.get("pid") or 0), executable=_optional_str(obj, "executable"),
            unit=_optional_str(obj, "unit"), flatpak_app_id=_optional_str(obj, "flatpakAppId"),
            expires_at=parse_time(obj.get("expiresAt")))


@dataclass(frozen=True)
class AccessGrant:
    """A role a manager granted: ``remember`` is ``connection`` (then ``pid`` is the
    connection's process), ``boot`` or ``always``."""

    grant_id: str
    role: str
    remember: str
    uid: int
    user: Optional[str]
    executable: Optional[str]
    pid: Optional[int]
    granted_at: Optional[datetime]

    @classmethod
    def from_json(cls, value: Any) -> AccessGrant:
        obj = _object(value, "AccessGrant")
        pid = obj.get("pid")
        return cls(
            grant_id=_string(obj, "grantId", "AccessGrant"), role=_string(obj, "role", "AccessGrant"),
            remember=_string(obj, "remember", "AccessGrant"), uid=int(obj.get("uid") or 0),
            user=_optional_str(obj, "user"), executable=_optional_str(obj, "executable"),
            pid=pid if isinstance(pid, int) else None, granted_at=parse_time(obj.get("grantedAt")))


@dataclass(frozen=True)
class AccessGrants:
    """The result of ``list_access_grants``."""

    grants: Tuple[AccessGrant, ...]

    @classmethod
    def from_json(cls, value: Any) -> AccessGrants:
        obj = _object(value, "AccessGrants")
        return cls(grants=tuple(AccessGrant.from_json(g) for g in obj.get("grants") or ()))
