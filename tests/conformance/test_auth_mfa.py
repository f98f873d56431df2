"""Identity Platform TOTP second factors and account security, judged by firebase-admin.

The emulator serves the v2 multi-factor REST API; these tests drive it the way a client SDK
does (plain REST, codes computed from the shared secret with RFC 6238) and check the results
with firebase-admin.
"""
import json
import os
import urllib.parse
import urllib.request

from firebase_admin import auth

from conftest import rest, unique_email
from totp import totp


def rest_v2(operation, body):
    """POSTs to the emulator's Identity Toolkit v2 API (second factors); returns (status, json)."""
    return rest(f"accounts/{operation}", body, version="v2")


def test_totp_enrolment_and_second_factor_sign_in_verified_by_firebase_admin(app):
    email = unique_email("totp")
    user = auth.create_user(email=email, password="secret-pw", email_verified=True)
    status, first = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw"})
    assert status == 200
    status, started = rest_v2("mfaEnrollment:start", {"idToken": first["idToken"], "totpEnrollmentInfo": {}})
    assert status == 200, started
    info = started["totpSessionInfo"]
    assert info["verificationCodeLength"] == 6 and info["hashingAlgorithm"] == "SHA1" and info["periodSec"] == 30
    status, enrolled = rest_v2(
        "mfaEnrollment:finalize",
        {
            "idToken": first["idToken"],
            "displayName": "Phone",
            "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp(info["sharedSecretKey"])},
        },
    )
    assert status == 200, enrolled

    status, pending = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw"})
    assert status == 200 and "idToken" not in pending
    factor = pending["mfaInfo"][0]
    assert factor["displayName"] == "Phone" and "totpInfo" in factor
    status, signed_in = rest_v2(
        "mfaSignIn:finalize",
        {
            "mfaPendingCredential": pending["mfaPendingCredential"],
            "mfaEnrollmentId": factor["mfaEnrollmentId"],
            "totpVerificationInfo": {"verificationCode": totp(info["sharedSecretKey"])},
        },
    )
    assert status == 200, signed_in
    decoded = auth.verify_id_token(signed_in["idToken"], check_revoked=True)
    assert decoded["uid"] == user.uid
    assert decoded["firebase"]["sign_in_second_factor"] == "totp"
    assert decoded["firebase"]["second_factor_identifier"] == factor["mfaEnrollmentId"]
    # firebase-admin reads the account with its TOTP factor.
    assert auth.get_user(user.uid).email == email


def test_password_reset_link_from_firebase_admin_completed_through_the_emulator(app):
    email = unique_email("reset-done")
    user = auth.create_user(email=email, password="secret-pw")
    link = auth.generate_password_reset_link(email)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
    assert query["mode"] == ["resetPassword"]
    status, body = rest("accounts:resetPassword", {"oobCode": query["oobCode"][0], "newPassword": "n3w-secret"})
    assert status == 200 and body["email"] == email
    status, signed_in = rest("accounts:signInWithPassword", {"email": email, "password": "n3w-secret"})
    assert status == 200 and signed_in["localId"] == user.uid
    status, refused = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw"})
    assert status == 400


def test_email_change_link_moves_the_address_seen_by_firebase_admin(app):
    email = unique_email("mover")
    new_email = unique_email("moved")
    user = auth.create_user(email=email, password="secret-pw")
    status, first = rest("accounts:signInWithPassword", {"email": email, "password": "secret-pw"})
    status, _ = rest(
        "accounts:sendOobCode",
        {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": first["idToken"], "newEmail": new_email},
    )
    assert status == 200
    assert auth.get_user(user.uid).email == email
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    with urllib.request.urlopen(f"http://{host}/emulator/v1/projects/demo-project/oobCodes") as response:
        codes = json.loads(response.read())["oobCodes"]
    record = [c for c in codes if c["requestType"] == "VERIFY_AND_CHANGE_EMAIL" and c.get("newEmail") == new_email][-1]
    status, _ = rest("accounts:update", {"oobCode": record["oobCode"]})
    assert status == 200
    moved = auth.get_user(user.uid)
    assert moved.email == new_email and moved.email_verified
