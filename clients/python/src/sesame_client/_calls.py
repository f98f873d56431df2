"""Every method of the protocol once: its wire name, params and how its result is read.
``Sesame`` and ``AsyncSesame`` run these; neither repeats a method's shape."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Generic, Mapping, Optional, TypeVar

from ._models import Hello, SignInFlow, SignInResult, State, Token, UsernameAvailability
from ._security import Reauthentication, TotpEnrollment

T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request. ``params`` may hold a password: it is left out of repr."""

    method: str
    params: Dict[str, Any] = field(repr=False)
    decode: Callable[[Any], T] = field(repr=False)


def _none(_: Any) -> None:
    return None


def _present(**values: Any) -> Dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def hello(client: str) -> Call[Hello]:
    return Call("hello", {"client": client}, Hello.from_json)


def get_state() -> Call[State]:
    return Call("getState", {}, State.from_json)


def get_id_token(min_validity: Optional[int], force_refresh: bool, uid: Optional[str]) -> Call[Token]:
    params = _present(minValidity=min_validity, uid=uid)
    if force_refresh:
        params["forceRefresh"] = True
    return Call("getIdToken", params, Token.from_json)


def sign_in_anonymously() -> Call[State]:
    return Call("signInAnonymously", {}, State.from_json)


def create_account(email: str, password: str, username: Optional[str]) -> Call[State]:
    return Call("createAccount", _present(email=email, password=password, username=username), State.from_json)


def sign_in(identifier: str, password: str) -> Call[SignInResult]:
    return Call("signIn", {"identifier": identifier, "password": password}, SignInResult.from_json)


def send_sign_in_link(email: str, continue_url: Optional[str]) -> Call[str]:
    return Call("sendSignInLink", _present(email=email, continueUrl=continue_url),
                lambda value: str(value.get("email", email)) if isinstance(value, dict) else email)


def complete_sign_in_link(link: Optional[str], email: Optional[str], code: Optional[str]) -> Call[SignInResult]:
    return Call("completeSignInLink", _present(link=link, email=email, code=code), SignInResult.from_json)


def sign_in_with_idp(provider_id: str, id_token: Optional[str], access_token: Optional[str]) -> Call[SignInResult]:
    return Call("signInWithIdp", _present(providerId=provider_id, idToken=id_token, accessToken=access_token),
                SignInResult.from_json)


def link_credential(credential: Mapping[str, Any]) -> Call[State]:
    return Call("linkCredential", {"credential": dict(credential)}, State.from_json)


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


def unlink(provider_id: str) -> Call[State]:
    return Call("unlink", {"providerId": provider_id}, State.from_json)


def sign_out(reset: bool) -> Call[State]:
    return Call("signOut", {"reset": True} if reset else {}, State.from_json)


def delete_account() -> Call[State]:
    return Call("deleteAccount", {}, State.from_json)


def reload() -> Call[State]:
    return Call("reload", {}, State.from_json)


def update_profile(display_name: Optional[str]) -> Call[State]:
    return Call("updateProfile", {"displayName": display_name}, State.from_json)


def send_password_reset(identifier: str) -> Call[None]:
    return Call("sendPasswordReset", {"identifier": identifier}, _none)


def send_email_verification() -> Call[None]:
    return Call("sendEmailVerification", {}, _none)


def set_username(username: str) -> Call[State]:
    return Call("setUsername", {"username": username}, State.from_json)


def check_username(username: str) -> Call[UsernameAvailability]:
    return Call("checkUsername", {"username": username}, UsernameAvailability.from_json)


def complete_merge(merge_id: str) -> Call[State]:
    return Call("completeMerge", {"mergeId": merge_id}, State.from_json)


def start_sign_in(provider_id: str, flow: str, redirect_uri: Optional[str], purpose: Optional[str]) -> Call[SignInFlow]:
    return Call("startSignIn", _present(providerId=provider_id, flow=flow, redirectUri=redirect_uri, purpose=purpose),
                SignInFlow.from_json)


def complete_sign_in(flow_id: str, callback_url: str) -> Call[SignInResult]:
    return Call("completeSignIn", {"flowId": flow_id, "callbackUrl": callback_url}, SignInResult.from_json)


#: ``awaitSignIn``'s timeout at the daemon when the call gives none (seconds).
DEFAULT_AWAIT_TIMEOUT = 300.0


def await_sign_in(flow_id: str, wait: Optional[float]) -> Call[SignInResult]:
    return Call("awaitSignIn", _present(flowId=flow_id, timeout=wait), SignInResult.from_json)


def await_call_timeout(client_timeout: Optional[float], wait: Optional[float]) -> Optional[float]:
    """The client's limit for an ``awaitSignIn`` that the daemon holds ``wait`` seconds: never
    shorter than the wait, so the client's own timeout does not cut it short."""
    if client_timeout is None:
        return None
    return client_timeout + (DEFAULT_AWAIT_TIMEOUT if wait is None else wait)


def cancel_sign_in(flow_id: str) -> Call[None]:
    return Call("cancelSignIn", {"flowId": flow_id}, _none)


def sign_in_with_custom_token(token: str) -> Call[SignInResult]:
    return Call("signInWithCustomToken", {"token": token}, SignInResult.from_json)


def complete_second_factor(challenge_id: str, code: str, factor_id: Optional[str]) -> Call[SignInResult]:
    return Call("completeSecondFactor", _present(challengeId=challenge_id, code=code, factorId=factor_id),
                SignInResult.from_json)


def enroll_totp(display_name: Optional[str]) -> Call[TotpEnrollment]:
    return Call("enrollTotp", _present(displayName=display_name), TotpEnrollment.from_json)


def confirm_totp(enrollment_id: str, code: str) -> Call[State]:
    return Call("confirmTotp", {"enrollmentId": enrollment_id, "code": code}, State.from_json)


def unenroll_factor(factor_id: str) -> Call[State]:
    return Call("unenrollFactor", {"factorId": factor_id}, State.from_json)


def reauthenticate(password: Optional[str], code: Optional[str]) -> Call[Reauthentication]:
    if password is not None and code is not None:
        raise ValueError("reauthenticate takes a password or a code, not both")
    return Call("reauthenticate", _present(password=password, code=code), Reauthentication.from_json)


def change_password(new_password: str) -> Call[None]:
    return Call("changePassword", {"newPassword": new_password}, _none)


def change_email(new_email: str) -> Call[str]:
    return Call("changeEmail", {"newEmail": new_email},
                lambda value: str(value.get("pendingEmail", new_email)) if isinstance(value, dict) else new_email)


def confirm_password_reset(new_password: str, link: Optional[str], code: Optional[str],
                           email: Optional[str]) -> Call[str]:
    if (link is None) == (code is None):
        raise ValueError("confirm_password_reset takes the link or the code of the reset email")
    if code is not None and email is None:
        raise ValueError("a reset code needs the account's email")
    return Call("confirmPasswordReset", _present(link=link, code=code, email=email, newPassword=new_password),
                lambda value: str(value.get("email", email or "")) if isinstance(value, dict) else (email or ""))
