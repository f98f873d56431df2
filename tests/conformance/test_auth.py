"""firebase_admin.auth against sesame-emulator: every call must behave as with Google's emulator."""
import time
import urllib.parse
import uuid

import pytest
from firebase_admin import auth

from conftest import rest, unique_email


def test_create_user_and_get_user(app):
    email = unique_email("create")
    uid = "uid-" + uuid.uuid4().hex[:12]
    user = auth.create_user(
        uid=uid, email=email, password="secret-pw", display_name="Create Me", email_verified=False,
        phone_number="+1555" + str(uuid.uuid4().int)[:7],
    )
    assert user.uid == uid
    assert user.email == email
    assert user.display_name == "Create Me"
    assert user.email_verified is False
    assert user.disabled is False
    assert user.user_metadata.creation_timestamp > 0
    assert "password" in [p.provider_id for p in user.provider_data]
    fetched = auth.get_user(uid)
    assert fetched.email == email
    assert fetched.phone_number == user.phone_number


def test_create_user_generates_uid_and_refuses_duplicates(app):
    email = unique_email("dup")
    user = auth.create_user(email=email, password="secret-pw")
    assert len(user.uid) == 28
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email=email, password="secret-pw")
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid=user.uid)


def test_get_user_by_email(app):
    email = unique_email("byemail")
    created = auth.create_user(email=email, password="secret-pw")
    assert auth.get_user_by_email(email).uid == created.uid
    assert auth.get_user_by_email(email.upper()).uid == created.uid
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email(unique_email("nobody"))
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("no-such-uid")


def test_update_user(app):
    user = auth.create_user(email=unique_email("update"), password="secret-pw", display_name="Before")
    new_email = unique_email("updated")
    updated = auth.update_user(
        user.uid, email=new_email, display_name="After", email_verified=True, disabled=True,
        photo_url="https://photos.example/a.png",
    )
    assert updated.email == new_email
    assert updated.display_name == "After"
    assert updated.email_verified is True
    assert updated.disabled is True
    assert updated.photo_url == "https://photos.example/a.png"
    cleared = auth.update_user(user.uid, display_name=auth.DELETE_ATTRIBUTE, disabled=False)
    assert cleared.display_name is None
    assert cleared.disabled is False
    auth.update_user(user.uid, password="changed-pw")
    status, body = rest("accounts:signInWithPassword", {"email": new_email, "password": "changed-pw"})
    assert status == 200, body


def test_set_custom_user_claims(app):
    email = unique_email("claims")
    user = auth.create_user(email=email, password="secret-pw")
    auth.set_custom_user_claims(user.uid, {"admin": True, "level": 3})
    assert auth.get_user(user.uid).custom_claims == {"admin": True, "level": 3}
    status, body = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw", "returnSecureToken": True})
    assert status == 200
    decoded = auth.verify_id_token(body["idToken"])
    assert decoded["admin"] is True
    assert decoded["level"] == 3
    auth.set_custom_user_claims(user.uid, None)
    assert not auth.get_user(user.uid).custom_claims
    with pytest.raises(ValueError):
        auth.set_custom_user_claims(user.uid, {"sub": "reserved"})


def test_revoke_refresh_tokens(app):
    email = unique_email("revoke")
    user = auth.create_user(email=email, password="secret-pw")
    status, body = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw", "returnSecureToken": True})
    assert status == 200
    token = body["idToken"]
    assert auth.verify_id_token(token, check_revoked=True)["uid"] == user.uid
    # Revocation is second-granular (validSince is in seconds): move past the token's iat.
    time.sleep(1.1)
    auth.revoke_refresh_tokens(user.uid)
    assert auth.get_user(user.uid).tokens_valid_after_timestamp > 0
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(token, check_revoked=True)
    assert auth.verify_id_token(token)["uid"] == user.uid
    status, body = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw", "returnSecureToken": True})
    assert auth.verify_id_token(body["idToken"], check_revoked=True)["uid"] == user.uid


def test_delete_user(app):
    user = auth.create_user(email=unique_email("delete"))
    auth.delete_user(user.uid)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(user.uid)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user(user.uid)


def test_delete_users(app):
    users = [auth.create_user() for _ in range(3)]
    result = auth.delete_users([u.uid for u in users])
    assert result.success_count == 3
    assert result.failure_count == 0


def test_list_users(app):
    created = {auth.create_user(email=unique_email("list")).uid for _ in range(5)}
    listed = {u.uid for u in auth.list_users().iterate_all()}
    assert created <= listed
    page = auth.list_users(max_results=2)
    assert len(page.users) == 2
    assert page.has_next_page
    uids = [u.uid for u in page.users]
    second = page.get_next_page()
    assert second is not None
    assert not set(uids) & {u.uid for u in second.users}


def test_generate_sign_in_with_email_link(app):
    email = unique_email("link")
    settings = auth.ActionCodeSettings(url="https://app.example/finish", handle_code_in_app=True)
    link = auth.generate_sign_in_with_email_link(email, settings)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
    assert query["mode"] == ["signIn"]
    assert query["continueUrl"] == ["https://app.example/finish"]
    code = query["oobCode"][0]
    status, body = rest("accounts:signInWithEmailLink", {"email": email, "oobCode": code})
    assert status == 200, body
    assert body["isNewUser"] is True
    assert auth.get_user_by_email(email).email_verified is True
    status, body = rest("accounts:signInWithEmailLink", {"email": email, "oobCode": code})
    assert status == 400
    assert body["error"]["message"] == "INVALID_OOB_CODE"


def test_generate_password_reset_and_verification_links(app):
    email = unique_email("reset")
    auth.create_user(email=email, password="secret-pw")
    assert "mode=resetPassword" in auth.generate_password_reset_link(email)
    assert "mode=verifyEmail" in auth.generate_email_verification_link(email)
    with pytest.raises(auth.UserNotFoundError):
        auth.generate_email_verification_link(unique_email("ghost"))


def test_verify_id_token_from_sign_up(app):
    email = unique_email("verify")
    status, body = rest("accounts:signUp", {"email": email, "password": "secret-pw", "returnSecureToken": True})
    assert status == 200
    decoded = auth.verify_id_token(body["idToken"])
    assert decoded["uid"] == body["localId"]
    assert decoded["email"] == email
    assert decoded["firebase"]["sign_in_provider"] == "password"
    assert auth.verify_id_token(body["idToken"], check_revoked=True)["uid"] == body["localId"]


def test_verify_id_token_anonymous(app):
    status, body = rest("accounts:signUp", {"returnSecureToken": True})
    assert status == 200
    decoded = auth.verify_id_token(body["idToken"], check_revoked=True)
    assert decoded["uid"] == body["localId"]
    assert decoded["firebase"]["sign_in_provider"] == "anonymous"
    auth.update_user(body["localId"], disabled=True)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(body["idToken"], check_revoked=True)


def test_verify_id_token_rejects_garbage(app):
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token("not-a-token")


def test_get_users_and_phone_lookup(app):
    phone = "+1666" + str(uuid.uuid4().int)[:7]
    with_phone = auth.create_user(phone_number=phone)
    with_email = auth.create_user(email=unique_email("getusers"))
    assert auth.get_user_by_phone_number(phone).uid == with_phone.uid
    result = auth.get_users([
        auth.UidIdentifier(with_phone.uid),
        auth.EmailIdentifier(with_email.email),
        auth.PhoneIdentifier(phone),
        auth.UidIdentifier("missing-uid"),
    ])
    assert {u.uid for u in result.users} == {with_phone.uid, with_email.uid}
    assert [i.uid for i in result.not_found if isinstance(i, auth.UidIdentifier)] == ["missing-uid"]
    cleared = auth.update_user(with_phone.uid, phone_number=auth.DELETE_ATTRIBUTE)
    assert cleared.phone_number is None
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_phone_number(phone)
