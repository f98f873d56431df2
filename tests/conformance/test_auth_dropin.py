"""firebase_admin.auth session cookies and user import against sesame-emulator, as a drop-in for
Google's Firebase Auth Emulator (issue 22 §3)."""
import base64
import datetime
import json
import os
import time
import urllib.error
import urllib.request
import uuid

import pytest
from firebase_admin import auth

from conftest import PROJECT_ID, rest, unique_email


def sign_in(email, password):
    return rest("accounts:signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})


def claims_of(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def wait_for_next_second(after):
    """Revocation is second-granular: waits until the clock has left the second `after`."""
    while int(time.time()) <= after:
        time.sleep(0.05)


def test_session_cookie_round_trip_and_revocation(app):
    email = unique_email("cookie")
    user = auth.create_user(email=email, password="secret-pw")
    status, body = sign_in(email, "secret-pw")
    assert status == 200, body
    cookie = auth.create_session_cookie(body["idToken"], expires_in=datetime.timedelta(hours=2))
    claims = claims_of(cookie)
    assert claims["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"
    assert claims["exp"] - claims["iat"] == 7200
    decoded = auth.verify_session_cookie(cookie)
    assert decoded["uid"] == user.uid
    assert decoded["email"] == email
    assert auth.verify_session_cookie(cookie, check_revoked=True)["uid"] == user.uid
    wait_for_next_second(claims["iat"])
    auth.revoke_refresh_tokens(user.uid)
    with pytest.raises(auth.RevokedSessionCookieError):
        auth.verify_session_cookie(cookie, check_revoked=True)
    assert auth.verify_session_cookie(cookie)["uid"] == user.uid


def test_session_cookie_refuses_a_bad_duration_and_a_bad_token(app):
    email = unique_email("duration")
    auth.create_user(email=email, password="secret-pw")
    _, body = sign_in(email, "secret-pw")
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    url = f"http://{host}/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}:createSessionCookie"
    request = urllib.request.Request(
        url, data=json.dumps({"idToken": body["idToken"], "validDuration": 60}).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer owner"},
    )
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request)
    assert error.value.code == 400
    assert json.loads(error.value.read())["error"]["message"] == "INVALID_DURATION"
    with pytest.raises(auth.InvalidIdTokenError):
        auth.create_session_cookie("not-a-token", expires_in=datetime.timedelta(hours=1))


def test_import_users_with_hashes_fields_and_providers(app):
    suffix = uuid.uuid4().hex[:8]
    fake_email, opaque_email = unique_email("imported"), unique_email("opaque")
    users = [
        auth.ImportUserRecord(
            uid="imp-a-" + suffix, email=fake_email, email_verified=True, display_name="Imported",
            custom_claims={"role": "ops"}, password_hash=b"fakeHash:salt=s1:password=imported-pw", password_salt=b"s1",
            user_metadata=auth.UserMetadata(creation_timestamp=1600000000000, last_sign_in_timestamp=1600000100000),
            provider_data=[auth.UserProvider(uid="g-" + suffix, provider_id="google.com", email=fake_email)],
        ),
        auth.ImportUserRecord(
            uid="imp-b-" + suffix, email=opaque_email, password_hash=b"real-hmac-bytes", password_salt=b"x"
        ),
        auth.ImportUserRecord(uid="imp-c-" + suffix, disabled=True),
    ]
    result = auth.import_users(users, hash_alg=auth.UserImportHash.hmac_sha256(key=b"signer-key"))
    assert result.success_count == 3, [(e.index, e.reason) for e in result.errors]
    assert result.failure_count == 0
    status, body = sign_in(fake_email, "imported-pw")
    assert status == 200, body
    assert auth.verify_id_token(body["idToken"])["uid"] == "imp-a-" + suffix
    fetched = auth.get_user("imp-a-" + suffix)
    assert fetched.email_verified is True
    assert fetched.display_name == "Imported"
    assert fetched.custom_claims == {"role": "ops"}
    assert fetched.user_metadata.creation_timestamp == 1600000000000
    assert {p.provider_id for p in fetched.provider_data} == {"password", "google.com"}
    assert auth.get_user("imp-c-" + suffix).disabled is True
    # A hash of another algorithm is kept, but (as in Google's emulator) no password matches it.
    assert "password" in {p.provider_id for p in auth.get_user("imp-b-" + suffix).provider_data}
    status, body = sign_in(opaque_email, "anything")
    assert status == 400 and body["error"]["message"] == "INVALID_PASSWORD"


def test_import_users_reports_refused_users_by_index(app):
    existing = auth.create_user()
    fresh = "imp-ok-" + uuid.uuid4().hex[:8]
    result = auth.import_users([
        auth.ImportUserRecord(uid=existing.uid, display_name="Overwrite?"),
        auth.ImportUserRecord(uid=fresh, email=unique_email("ok")),
    ])
    assert result.success_count == 1
    assert result.failure_count == 1
    assert result.errors[0].index == 0
    assert result.errors[0].reason == "localId belongs to an existing account - can not overwrite."
    assert auth.get_user(fresh).uid == fresh
    assert auth.get_user(existing.uid).display_name is None


@pytest.mark.parametrize("operation, message", [
    ("accounts:signInWithPhoneNumber", "OPERATION_NOT_ALLOWED"),
    ("accounts:sendVerificationCode", "OPERATION_NOT_ALLOWED"),
    ("accounts:signInWithGameCenter", "OPERATION_NOT_ALLOWED : The identity provider configuration is not found."),
    ("accounts:issueSamlResponse", "CONFIGURATION_NOT_FOUND"),
])
def test_features_the_emulator_lacks_answer_as_turned_off(app, operation, message):
    status, body = rest(operation, {})
    assert status == 400
    assert body["error"]["message"] == message
