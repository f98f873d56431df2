"""supabase-auth (PyPI, pinned in run.sh) against sesame-emulator as a drop-in for GoTrue: admin
user listing, resend, invite, the features GoTrue answers as disabled, and GitHub's browser flow."""
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from supabase_auth.errors import AuthApiError

from test_supabase import admin, client


def email():
    return f"dropin-{uuid.uuid4().hex[:10]}@example.com"


def mails(supabase, address):
    with urllib.request.urlopen(f"{supabase['url']}/sesame/v1/supabase/messages") as reply:
        return [m for m in json.loads(reply.read())["messages"] if m["email"] == address]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _location(url, data=None):
    """The Location of the 30x `url` answers (GET, or a form POST with `data`)."""
    opener = urllib.request.build_opener(_NoRedirect)
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    try:
        opener.open(urllib.request.Request(url, data=body))
    except urllib.error.HTTPError as answer:
        assert answer.code in (302, 303), answer.code
        return answer.headers["Location"]
    raise AssertionError(f"{url} did not redirect")


def test_list_users_pages_newest_first(supabase):
    api = admin(supabase)
    created = [api.create_user({"email": email(), "email_confirm": True}).user for _ in range(3)]
    page = api.list_users(page=1, per_page=3)
    assert {u.id for u in page} == {u.id for u in created}
    stamps = [u.created_at for u in page]
    assert stamps == sorted(stamps, reverse=True)
    second = api.list_users(page=2, per_page=1)
    assert len(second) == 1 and second[0].id == page[1].id


def test_resend_mails_again_behind_the_timer(supabase):
    address = email()
    admin(supabase).create_user({"email": address, "password": "secret-pw"})
    auth = client(supabase)
    with pytest.raises(AuthApiError) as unconfirmed:
        auth.sign_in_with_password({"email": address, "password": "secret-pw"})
    assert unconfirmed.value.code == "email_not_confirmed"
    auth.resend({"type": "signup", "email": address})
    sent = mails(supabase, address)
    assert [m["type"] for m in sent] == ["signup"]
    with pytest.raises(AuthApiError) as early:
        auth.resend({"type": "signup", "email": address})
    assert early.value.status == 429
    assert early.value.code == "over_email_send_rate_limit"
    session = auth.verify_otp({"email": address, "token": sent[0]["otp"], "type": "signup"}).session
    assert session.user.email_confirmed_at is not None
    with pytest.raises(AuthApiError) as phone:
        auth.resend({"type": "sms", "phone": "+15555550100"})
    assert phone.value.code == "phone_provider_disabled"


def test_invite_user_by_email(supabase):
    address = email()
    user = admin(supabase).invite_user_by_email(address, {"data": {"team": "ops"}}).user
    assert user.email == address
    assert user.invited_at is not None
    assert user.user_metadata["team"] == "ops"
    invite = mails(supabase, address)[-1]
    assert invite["type"] == "invite"
    session = client(supabase).verify_otp({"type": "invite", "token_hash": invite["hashed_token"]}).session
    assert session.user.id == user.id
    with pytest.raises(AuthApiError) as again:
        admin(supabase).invite_user_by_email(address)
    assert again.value.code == "email_exists"


def test_features_not_served_answer_as_gotrue_does(supabase):
    auth = client(supabase)
    with pytest.raises(AuthApiError) as sso:
        auth.sign_in_with_sso({"domain": "example.com"})
    assert sso.value.status == 404
    assert sso.value.code == "saml_provider_disabled"
    with pytest.raises(AuthApiError) as phone:
        auth.sign_up({"phone": "+15555550100", "password": "secret-pw"})
    assert phone.value.code == "phone_provider_disabled"
    with pytest.raises(AuthApiError) as otp:
        auth.sign_in_with_otp({"phone": "+15555550100"})
    assert otp.value.code == "phone_provider_disabled"


def test_github_browser_flow_gives_a_github_session(supabase):
    auth = client(supabase, flow_type="pkce")
    redirect = "http://127.0.0.1:41234/done"
    start = auth.sign_in_with_oauth({"provider": "github", "options": {"redirect_to": redirect}})
    provider_page = _location(start.url)
    assert "/emulator/v1/idp/github.com/authorize?" in provider_page
    action, query = provider_page.split("?", 1)
    form = dict(urllib.parse.parse_qsl(query))
    address = email()
    form.update({"email": address, "name": "Octo Cat", "action": "approve"})
    callback = _location(action, form)
    target = _location(callback)
    assert target.startswith(redirect)
    code = urllib.parse.parse_qs(urllib.parse.urlparse(target).query)["code"][0]
    session = auth.exchange_code_for_session({"auth_code": code}).session
    assert session.user.email == address
    assert session.user.app_metadata["provider"] == "github"
    assert session.user.identities[0].provider == "github"
    assert session.provider_token.startswith("gho_")
