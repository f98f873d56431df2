"""The official supabase-auth client (PyPI, pinned in run.sh) against sesame-emulator's GoTrue."""
import json
import urllib.request
import uuid

import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError


def client(supabase, flow_type="implicit"):
    """A supabase-auth client with the anon key, as an app makes one (also used by the drop-in tests)."""
    return SyncGoTrueClient(
        url=f"{supabase['url']}/auth/v1",
        headers={"apikey": supabase["anon"]},
        auto_refresh_token=False,
        persist_session=False,
        flow_type=flow_type,
    )


def admin(supabase):
    key = supabase["service_role"]
    return SyncGoTrueAdminAPI(
        url=f"{supabase['url']}/auth/v1", headers={"apikey": key, "Authorization": f"Bearer {key}"}
    )


def email():
    return f"py-{uuid.uuid4().hex[:10]}@example.com"


def test_sign_in_anonymously(supabase):
    auth = client(supabase)
    response = auth.sign_in_anonymously()
    assert response.user.is_anonymous is True
    assert response.user.identities == []
    assert response.session.token_type == "bearer"
    assert auth.get_user().user.id == response.user.id
    claims = auth.get_claims()["claims"]
    assert claims["is_anonymous"] is True
    assert claims["role"] == "authenticated"
    assert claims["session_id"]


def test_update_user_upgrades_in_place(supabase):
    auth = client(supabase)
    guest = auth.sign_in_anonymously().user
    address = email()
    updated = auth.update_user({"email": address, "password": "secret-pw", "data": {"plan": "free"}}).user
    assert updated.id == guest.id
    assert updated.email == address
    assert updated.is_anonymous is False
    assert updated.user_metadata["plan"] == "free"
    again = client(supabase).sign_in_with_password({"email": address, "password": "secret-pw"})
    assert again.user.id == guest.id
    assert again.user.is_anonymous is False


def test_sign_in_with_password(supabase):
    address = email()
    created = client(supabase).sign_up({"email": address, "password": "secret-pw"})
    assert created.session is not None
    auth = client(supabase)
    response = auth.sign_in_with_password({"email": address, "password": "secret-pw"})
    assert response.user.id == created.user.id
    assert response.session.access_token
    with pytest.raises(AuthApiError) as wrong:
        client(supabase).sign_in_with_password({"email": address, "password": "wrong-pw"})
    assert wrong.value.code == "invalid_credentials"
    assert wrong.value.status == 400
    with pytest.raises(AuthApiError) as taken:
        client(supabase).sign_up({"email": address, "password": "secret-pw"})
    assert taken.value.code == "user_already_exists"


def test_otp_via_generate_link_and_verify_otp(supabase):
    address = email()
    link = admin(supabase).generate_link({"type": "magiclink", "email": address})
    assert link.user.email == address
    assert len(link.properties.email_otp) == 6
    assert link.properties.action_link.startswith(f"{supabase['url']}/auth/v1/verify?")
    auth = client(supabase)
    response = auth.verify_otp({"email": address, "token": link.properties.email_otp, "type": "email"})
    assert response.user.email == address
    assert response.session.access_token
    with pytest.raises(AuthApiError) as used:
        client(supabase).verify_otp({"email": address, "token": link.properties.email_otp, "type": "email"})
    assert used.value.code == "otp_expired"


def test_sign_in_with_otp_then_verify(supabase):
    address = email()
    auth = client(supabase)
    auth.sign_in_with_otp({"email": address, "options": {"should_create_user": True}})
    request = urllib.request.Request(f"{supabase['url']}/sesame/v1/supabase/messages")
    with urllib.request.urlopen(request) as reply:
        messages = json.loads(reply.read())["messages"]
    code = [m for m in messages if m["email"] == address][-1]["otp"]
    assert auth.verify_otp({"email": address, "token": code, "type": "email"}).user.email == address
    with pytest.raises(AuthApiError) as disabled:
        client(supabase).sign_in_with_otp({"email": email(), "options": {"should_create_user": False}})
    assert disabled.value.code == "otp_disabled"


def test_refresh_session_rotates_and_detects_reuse(supabase):
    auth = client(supabase)
    first = auth.sign_in_anonymously().session
    second = auth.refresh_session().session
    assert second.refresh_token != first.refresh_token
    assert second.user.id == first.user.id
    third = auth.refresh_session().session
    # The parent of the active token gives back the active token.
    replay = client(supabase).refresh_session(second.refresh_token).session
    assert replay.refresh_token == third.refresh_token
    # A token two generations old (reuse interval 0) is reuse: the family is revoked.
    with pytest.raises(AuthApiError) as reused:
        client(supabase).refresh_session(first.refresh_token)
    assert reused.value.code == "refresh_token_already_used"


def test_sign_out_scopes(supabase):
    address = email()
    client(supabase).sign_up({"email": address, "password": "secret-pw"})
    a, b, c = client(supabase), client(supabase), client(supabase)
    for auth in (a, b, c):
        auth.sign_in_with_password({"email": address, "password": "secret-pw"})
    b_token = b.get_session().access_token
    a.sign_out({"scope": "others"})
    assert a.get_user() is not None
    with pytest.raises(AuthApiError) as ended:
        b.get_user(b_token)
    assert ended.value.code == "session_not_found"
    a_refresh = a.get_session().refresh_token
    a.sign_out({"scope": "local"})
    assert a.get_session() is None
    with pytest.raises(AuthApiError) as gone:
        client(supabase).refresh_session(a_refresh)
    assert gone.value.code == "refresh_token_not_found"
    d, e = client(supabase), client(supabase)
    d.sign_in_with_password({"email": address, "password": "secret-pw"})
    e.sign_in_with_password({"email": address, "password": "secret-pw"})
    e_token = e.get_session().access_token
    d.sign_out()
    assert d.get_session() is None
    with pytest.raises(AuthApiError):
        e.get_user(e_token)


def test_admin_create_list_delete(supabase):
    api = admin(supabase)
    address = email()
    user = api.create_user({"email": address, "password": "secret-pw", "email_confirm": True, "user_metadata": {"n": 1}}).user
    assert user.email == address
    assert user.email_confirmed_at is not None
    listed = api.list_users(page=1, per_page=1000)
    assert user.id in [u.id for u in listed]
    assert api.get_user_by_id(user.id).user.user_metadata == {"n": 1}
    updated = api.update_user_by_id(user.id, {"user_metadata": {"n": 2}}).user
    assert updated.user_metadata["n"] == 2
    api.delete_user(user.id)
    with pytest.raises(AuthApiError) as missing:
        api.get_user_by_id(user.id)
    assert missing.value.status == 404
    with pytest.raises(AuthApiError) as refused:
        SyncGoTrueAdminAPI(
            url=f"{supabase['url']}/auth/v1",
            headers={"apikey": supabase["anon"], "Authorization": f"Bearer {supabase['anon']}"},
        ).list_users()
    assert refused.value.code == "not_admin"
