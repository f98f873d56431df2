"""sesame-client: Python access to sesamed, the machine's one account session.

    from sesame_client import Sesame
    sesame = Sesame()                        # $SESAME_SOCKET, else the user instance, else the system one
    token = sesame.id_token()                # send as "Authorization: Bearer " + token.token
    sesame.on_state_change(lambda state: print(state.status, state.uid))

``AsyncSesame`` has the same methods for asyncio. Errors are ``SesameError`` subclasses: one
per protocol reason (``EmailAlreadyInUse``, ...), grouped by code class, plus
``DaemonUnavailable`` and ``Timeout``.
"""
from ._async import AsyncSesame
from ._async_stream import AsyncListener, AsyncMergeStream, AsyncStateStream
from ._calls import email_link_credential, idp_credential, password_credential
from ._access import AccessGrant, AccessGrants, AccessRequest
from ._discovery import SYSTEM_SOCKET, resolve_socket_path, user_socket
from ._errors import (AuthenticationError, BackendUnavailable, ConnectionLost, DaemonError, DaemonUnavailable,
                      PermissionDenied, ProtocolError, SesameError, StateError, Timeout)
from ._models import (ANONYMOUS, AUTHENTICATED, SIGNED_OUT, STARTING, Hello, Merge, Peer, RateLimit, SignInFlow,
                      SignInPrompt, SignInResult, State, Token, User, UsernameAvailability)
from ._reasons import *  # noqa: F401,F403  (one class per protocol reason)
from ._reasons import REASON_CLASSES
from ._reasons import __all__ as _reason_names
from ._security import Reauthentication, SecondFactor, SecondFactorChallenge, TotpEnrollment
from ._sync import Sesame
from ._sync_stream import Listener, MergeStream, StateStream

__version__ = "0.1.0"

__all__ = [
    "Sesame", "AsyncSesame", "State", "RateLimit", "User", "Token", "Merge", "Hello", "Peer", "SignInResult", "SignInFlow",
    "SignInPrompt", "SecondFactor", "SecondFactorChallenge", "TotpEnrollment", "Reauthentication",
    "UsernameAvailability", "AccessRequest", "AccessGrant", "AccessGrants", "StateStream", "MergeStream", "Listener", "AsyncStateStream", "AsyncMergeStream",
    "AsyncListener", "password_credential", "email_link_credential", "idp_credential", "resolve_socket_path",
    "user_socket", "SYSTEM_SOCKET", "STARTING", "SIGNED_OUT", "ANONYMOUS", "AUTHENTICATED", "SesameError",
    "DaemonError", "ProtocolError", "AuthenticationError", "BackendUnavailable", "PermissionDenied", "StateError",
    "DaemonUnavailable", "ConnectionLost", "Timeout", "REASON_CLASSES", *_reason_names,
]
