"""What the generated call table (``_calls``) uses beside the methods: the credentials that
``link_credential`` takes, and the client's limit for an ``awaitSignIn``."""
from __future__ import annotations

from typing import Any, Dict, Optional


def _present(**values: Any) -> Dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def password_credential(email: str, password: str) -> Dict[str, Any]:
    """The ``credential`` that adds an email and password to the current user."""
    return {"providerId": "password", "email": email, "password": password}


def email_link_credential(link: str, email: Optional[str] = None) -> Dict[str, Any]:
    """The ``credential`` that adds the email of a sign-in link to the current user."""
    return _present(providerId="emailLink", email=email, link=link)


def idp_credential(provider_id: str, id_token: Optional[str] = None,
                   access_token: Optional[str] = None) -> Dict[str, Any]:
    """The ``credential`` of a federated provider (``google.com``, ``apple.com``, ...)."""
    return _present(providerId=provider_id, idToken=id_token, accessToken=access_token)


#: ``awaitSignIn``'s timeout at the daemon when the call gives none (seconds).
DEFAULT_AWAIT_TIMEOUT = 300.0


def await_call_timeout(client_timeout: Optional[float], wait: Optional[float]) -> Optional[float]:
    """The client's limit for an ``awaitSignIn`` that the daemon holds ``wait`` seconds: never
    shorter than the wait, so the client's own timeout does not cut it short."""
    if client_timeout is None:
        return None
    return client_timeout + (DEFAULT_AWAIT_TIMEOUT if wait is None else wait)
