"""The protocol's objects as frozen dataclasses, read from their JSON shapes."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Optional, Tuple

from ._access import AccessRequest
from ._errors import ConnectionLost
from ._json import _object, _string
from ._json import parse_time as parse_time
from ._security import SecondFactor, SecondFactorChallenge

#: ``State.status`` values.
STARTING, SIGNED_OUT, ANONYMOUS, AUTHENTICATED = "starting", "signedOut", "anonymous", "authenticated"


@dataclass(frozen=True)
class User:
    """The signed-in user (``State.user``)."""

    uid: str
    is_anonymous: bool
    email: Optional[str] = None
    email_verified: bool = False
    display_name: Optional[str] = None
    username: Optional[str] = None
    providers: Tuple[str, ...] = ()
    created_at: Optional[datetime] = None
    last_sign_in_at: Optional[datetime] = None
    #: The active second factors; empty when none.
    factors: Tuple[SecondFactor, ...] = ()
    #: An address change waiting for its owner's confirmation (``change_email``), or None.
    pending_email: Optional[str] = None

    @classmethod
    def from_json(cls, value: Any) -> User:
        obj = _object(value, "User")
        pending = obj.get("pendingEmail")
        return cls(
            uid=_string(obj, "uid", "User"), is_anonymous=obj.get("isAnonymous") is True,
            email=obj.get("email"), email_verified=obj.get("emailVerified") is True,
            display_name=obj.get("displayName"), username=obj.get("username"),
            providers=tuple(p for p in obj.get("providers") or () if isinstance(p, str)),
            created_at=parse_time(obj.get("createdAt")), last_sign_in_at=parse_time(obj.get("lastSignInAt")),
            factors=tuple(SecondFactor.from_json(f) for f in obj.get("factors") or () if isinstance(f, dict)),
            pending_email=pending if isinstance(pending, str) else None)


@dataclass(frozen=True)
class Merge:
    """A pending hand-over of an anonymous user's data (``fromUid``) to an account (``toUid``)."""

    merge_id: str
    from_uid: str
    to_uid: str
    created_at: Optional[datetime] = None

    @classmethod
    def from_json(cls, value: Any) -> Merge:
        obj = _object(value, "Merge")
        return cls(merge_id=_string(obj, "mergeId", "Merge"), from_uid=_string(obj, "fromUid", "Merge"),
                   to_uid=_string(obj, "toUid", "Merge"), created_at=parse_time(obj.get("createdAt")))


@dataclass(frozen=True)
class SignInPrompt:
    """The open interactive sign-in any program may show the person (``State.sign_in_prompt``):
    the page to open and the code to enter. Never a secret."""

    flow_id: str
    provider_id: str
    flow: str
    verification_uri: Optional[str] = None
    verification_uri_complete: Optional[str] = None
    user_code: Optional[str] = None
    expires_at: Optional[datetime] = None

    @classmethod
    def from_json(cls, value: Any) -> SignInPrompt:
        obj = _object(value, "signInPrompt")
        return cls(flow_id=_string(obj, "flowId", "signInPrompt"), provider_id=_string(obj, "providerId", "signInPrompt"),
                   flow=_string(obj, "flow", "signInPrompt"), verification_uri=obj.get("verificationUri"),
                   verification_uri_complete=obj.get("verificationUriComplete"), user_code=obj.get("userCode"),
                   expires_at=parse_time(obj.get("expiresAt")))


@dataclass(frozen=True)
class SignInFlow:
    """An interactive sign-in flow (``start_sign_in``'s result, ``signInFlowChanged``).
    ``flow`` is ``device`` or ``browser``; ``status`` is ``pending``, ``completed``, ``failed``,
    ``expired`` or ``cancelled``; fields that do not apply to the flow are None."""

    flow_id: str
    provider_id: str
    flow: str
    status: str
    verification_uri: Optional[str] = None
    verification_uri_complete: Optional[str] = None
    user_code: Optional[str] = None
    authorization_url: Optional[str] = None
    expires_at: Optional[datetime] = None
    interval_seconds: Optional[int] = None
    purpose: str = "sign-in"

    @classmethod
    def from_json(cls, value: Any) -> SignInFlow:
        obj = _object(value, "SignInFlow")
        interval = obj.get("intervalSeconds")
        return cls(flow_id=_string(obj, "flowId", "SignInFlow"), provider_id=_string(obj, "providerId", "SignInFlow"),
                   flow=_string(obj, "flow", "SignInFlow"), status=_string(obj, "status", "SignInFlow"),
                   verification_uri=obj.get("verificationUri"),
                   verification_uri_complete=obj.get("verificationUriComplete"), user_code=obj.get("userCode"),
                   authorization_url=obj.get("authorizationUrl"), expires_at=parse_time(obj.get("expiresAt")),
                   interval_seconds=interval if isinstance(interval, int) else None,
                   purpose=str(obj.get("purpose") or "sign-in"))

    @property
    def is_pending(self) -> bool:
        """Whether the flow is still open."""
        return self.status == "pending"


@dataclass(frozen=True)
class RateLimit:
    """The backend's rate limit while ``State.connectivity`` is ``rate-limited``: which operation
    (a method's name, or ``refresh``) and when sesamed tries again by itself (``retry_at``)."""

    operation: str
    retry_at: Optional[datetime]
    limit: Optional[str] = None

    @classmethod
    def from_json(cls, value: Any) -> RateLimit:
        obj = _object(value, "RateLimit")
        return cls(operation=_string(obj, "operation", "RateLimit"), retry_at=parse_time(obj.get("retryAt")),
                   limit=obj.get("limit") if isinstance(obj.get("limit"), str) else None)


@dataclass(frozen=True)
class State:
    """The daemon's session state. ``reason`` says why a stream yielded it: an
    ``authStateChanged`` reason (``signed-in``, ``merged``, ...), ``snapshot`` (the state as of
    subscribing), ``token-refreshed``, ``user-updated``, ``connectivity-changed``, ``sign-in-flow-changed`` or
    ``resynchronized`` (read again after missed events); None for ``state()``."""

    status: str
    user: Optional[User]
    token_expires_at: Optional[datetime]
    connectivity: str
    needs_username: bool
    pending_merges: Tuple[Merge, ...]
    sequence: int
    reason: Optional[str] = None
    #: The open interactive sign-in (see ``SignInPrompt``), or None.
    sign_in_prompt: Optional[SignInPrompt] = None
    #: The open second-factor challenge of a sign-in (see ``complete_second_factor``), or None.
    second_factor: Optional[SecondFactorChallenge] = None
    #: The backend's rate limit while ``connectivity`` is ``rate-limited``, or None.
    rate_limit: Optional[RateLimit] = None
    #: Programs' open requests for a role (managers only; empty for other roles).
    access_requests: Tuple[AccessRequest, ...] = ()

    @classmethod
    def from_json(cls, value: Any, reason: Optional[str] = None) -> State:
        obj = _object(value, "State")
        sequence = obj.get("sequence")
        if not isinstance(sequence, int):
            raise ConnectionLost("sesamed sent a State without sequence; update sesame-client or sesamed")
        token = obj.get("token")
        return cls(
            status=_string(obj, "status", "State"),
            user=User.from_json(obj["user"]) if obj.get("user") is not None else None,
            token_expires_at=parse_time(token.get("expiresAt")) if isinstance(token, dict) else None,
            connectivity=str(obj.get("connectivity") or "online"),
            needs_username=obj.get("needsUsername") is True,
            pending_merges=tuple(Merge.from_json(m) for m in obj.get("pendingMerges") or ()),
            sequence=sequence, reason=reason,
            sign_in_prompt=SignInPrompt.from_json(obj["signInPrompt"]) if obj.get("signInPrompt") else None,
            second_factor=SecondFactorChallenge.from_json(obj["secondFactor"]) if obj.get("secondFactor") else None,
            rate_limit=RateLimit.from_json(obj["rateLimit"]) if obj.get("rateLimit") else None,
            access_requests=tuple(AccessRequest.from_json(r) for r in obj.get("accessRequests") or ()))

    @property
    def uid(self) -> Optional[str]:
        """The user's uid, None when signed out."""
        return self.user.uid if self.user else None


@dataclass(frozen=True)
class SignInResult:
    """What the sign-in methods return: the new state, and the merge recorded when an anonymous
    user signed in to an existing account (None otherwise)."""

    state: State
    merge: Optional[Merge]

    @classmethod
    def from_json(cls, value: Any) -> SignInResult:
        obj = _object(value, "sign-in result")
        merge = obj.get("merge")
        return cls(state=State.from_json(obj.get("state")), merge=Merge.from_json(merge) if merge else None)


@dataclass(frozen=True)
class Token:
    """An ID token. Send ``token`` as ``Authorization: Bearer <token>``; it is left out of repr."""

    token: str = field(repr=False)
    uid: str
    expires_at: Optional[datetime]
    issued_at: Optional[datetime]
    sign_in_provider: Optional[str]

    @classmethod
    def from_json(cls, value: Any) -> Token:
        obj = _object(value, "token result")
        return cls(token=_string(obj, "token", "token result"), uid=_string(obj, "uid", "token result"),
                   expires_at=parse_time(obj.get("expiresAt")), issued_at=parse_time(obj.get("issuedAt")),
                   sign_in_provider=obj.get("signInProvider"))

    def __str__(self) -> str:
        return repr(self)


@dataclass(frozen=True)
class Peer:
    """This process as the daemon sees it (SO_PEERCRED)."""

    uid: int
    gid: int
    pid: int


@dataclass(frozen=True)
class Hello:
    """The daemon's greeting. ``role`` is this caller's: none, observer, reader or manager."""

    server: str
    version: str
    protocol: int
    instance: str
    backend: str
    role: str
    peer: Optional[Peer]

    @classmethod
    def from_json(cls, value: Any) -> Hello:
        obj = _object(value, "hello result")
        peer = obj.get("peer")
        return cls(
            server=_string(obj, "server", "hello result"), version=str(obj.get("version", "")),
            protocol=int(obj.get("protocol") or 0),
            instance=_string(obj, "instance", "hello result"), backend=str(obj.get("backend", "firebase")),
            role=str(obj.get("role", "none")),
            peer=Peer(uid=peer.get("uid", -1), gid=peer.get("gid", -1), pid=peer.get("pid", -1))
            if isinstance(peer, dict) else None)


@dataclass(frozen=True)
class UsernameAvailability:
    """``check_username``'s answer; ``reason`` says why a name is not available."""

    username: str
    available: bool
    reason: Optional[str] = None

    @classmethod
    def from_json(cls, value: Any) -> UsernameAvailability:
        obj = _object(value, "checkUsername result")
        return cls(username=_string(obj, "username", "checkUsername result"), available=obj.get("available") is True,
                   reason=obj.get("reason"))
