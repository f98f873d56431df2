"""supabase-auth's MFA, reauthentication, recovery and email change against sesame-emulator's GoTrue."""
import json
import time
import urllib.request

import pytest
from supabase_auth.errors import AuthApiError

from test_supabase import client, email
from totp import totp


def wrong_code(secret):
    near = {totp(secret, step_offset=offset) for offset in range(-3, 4)}
    return next(code for code in ("000000", "111111", "222222", "333333") if code not in near)


def messages(supabase, address):
    with urllib.request.urlopen(f"{supabase['url']}/sesame/v1/supabase/messages") as reply:
        return [m for m in json.loads(reply.read())["messages"] if m["email"] == address]


def faults(supabase, settings):
    request = urllib.request.Request(
        f"{supabase['url']}/sesame/v1/faults", data=json.dumps(settings).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    urllib.request.urlopen(request).close()


def test_mfa_enroll_verify_and_assurance_levels(supabase):
    address = email()
    auth = client(supabase)
    auth.sign_up({"email": address, "password": "secret-pw"})
    enrolled = auth.mfa.enroll({"factor_type": "totp", "friendly_name": "phone", "issuer": "Sesame"})
    assert enrolled.type == "totp" and enrolled.friendly_name == "phone"
    assert enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,<svg")
    assert enrolled.totp.uri.startswith("otpauth://totp/Sesame:")
    secret = enrolled.totp.secret
    level = auth.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal1" and level.next_level == "aal1"
    with pytest.raises(AuthApiError) as wrong:
        auth.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": wrong_code(secret)})
    assert wrong.value.code == "mfa_verification_failed" and wrong.value.status == 422
    auth.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": totp(secret)})
    level = auth.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal2" and level.next_level == "aal2"
    assert [m.method for m in level.current_authentication_methods][0] == "totp"
    assert [f.id for f in auth.mfa.list_factors().totp] == [enrolled.id]

    # A new sign-in is aal1 until the second factor: next_level says so.
    other = client(supabase)
    other.sign_in_with_password({"email": address, "password": "secret-pw"})
    level = other.mfa.get_authenticator_assurance_level()
    assert level.current_level == "aal1" and level.next_level == "aal2"
    with pytest.raises(AuthApiError) as low:
        other.mfa.unenroll({"factor_id": enrolled.id})
    assert low.value.code == "insufficient_aal"
    with pytest.raises(AuthApiError) as low_password:
        other.update_user({"password": "other-pw"})
    assert low_password.value.code == "insufficient_aal"
    challenge = other.mfa.challenge({"factor_id": enrolled.id})
    assert challenge.expires_at > time.time()
    other.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": totp(secret)})
    assert other.mfa.get_authenticator_assurance_level().current_level == "aal2"
    assert other.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id
    assert other.mfa.list_factors().all == []


def test_reauthenticate_nonce_for_an_aged_session(supabase_secure_password):
    supabase = supabase_secure_password
    address = email()
    auth = client(supabase)
    auth.sign_up({"email": address, "password": "first-pw"})
    auth.update_user({"password": "second-pw"})  # a fresh session needs no nonce
    faults(supabase, {"clockSkewSeconds": 25 * 3600})
    auth.refresh_session()
    with pytest.raises(AuthApiError) as needed:
        auth.update_user({"password": "third-pw"})
    assert needed.value.code == "reauthentication_needed"
    auth.reauthenticate()
    nonce = messages(supabase, address)[-1]
    assert nonce["type"] == "reauthentication"
    with pytest.raises(AuthApiError) as invalid:
        auth.update_user({"password": "third-pw", "nonce": "000000" if nonce["otp"] != "000000" else "111111"})
    assert invalid.value.code == "reauthentication_not_valid"
    auth.update_user({"password": "third-pw", "nonce": nonce["otp"]})
    assert client(supabase).sign_in_with_password({"email": address, "password": "third-pw"}).user.email == address


def test_recovery_by_verify_otp(supabase):
    address = email()
    client(supabase).sign_up({"email": address, "password": "first-pw"})
    auth = client(supabase)
    auth.reset_password_for_email(address)
    code = messages(supabase, address)[-1]
    assert code["type"] == "recovery"
    response = auth.verify_otp({"email": address, "token": code["otp"], "type": "recovery"})
    assert response.session.access_token
    auth.update_user({"password": "second-pw"})
    assert client(supabase).sign_in_with_password({"email": address, "password": "second-pw"}).user.email == address


def test_email_change_by_verify_otp(supabase):
    before, after = email(), email()
    auth = client(supabase)
    auth.sign_up({"email": before, "password": "secret-pw"})
    pending = auth.update_user({"email": after}).user
    assert pending.email == before and pending.new_email == after
    code = messages(supabase, after)[-1]
    assert code["type"] == "email_change"
    confirmed = auth.verify_otp({"email": after, "token": code["otp"], "type": "email_change"})
    assert confirmed.user.email == after
    assert auth.get_user().user.email == after
