"""supabase-auth with the opaque API keys of new Supabase projects (sb_publishable_…, sb_secret_…),
as the supabase client sends them: the key as `apikey` and as `Authorization: Bearer`. The
emulator's gateway maps them to the anon and service_role roles as `supabase start` does."""
import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthError

from test_supabase import email


def with_key(supabase, key):
    headers = {"apikey": key, "Authorization": f"Bearer {key}"}
    return f"{supabase['url']}/auth/v1", headers


def test_the_emulator_prints_the_keys_supabase_start_prints(supabase):
    assert supabase["publishable"] == "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH"
    assert supabase["secret"] == "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"


def test_an_app_with_the_publishable_key_signs_in_anonymously_and_reads_its_user(supabase):
    url, headers = with_key(supabase, supabase["publishable"])
    auth = SyncGoTrueClient(url=url, headers=headers, auto_refresh_token=False, persist_session=False)
    response = auth.sign_in_anonymously()
    assert response.user.is_anonymous is True
    assert auth.get_user().user.id == response.user.id
    assert auth.get_claims()["claims"]["role"] == "authenticated"
    address = email()
    auth.update_user({"email": address, "password": "correct-horse-9"})
    assert auth.get_user().user.email == address


def test_the_publishable_key_is_not_an_admin(supabase):
    url, headers = with_key(supabase, supabase["publishable"])
    with pytest.raises(AuthError):
        SyncGoTrueAdminAPI(url=url, headers=headers).list_users()


def test_a_server_with_the_secret_key_uses_the_admin_api(supabase):
    url, headers = with_key(supabase, supabase["secret"])
    admin = SyncGoTrueAdminAPI(url=url, headers=headers)
    address = email()
    created = admin.create_user({"email": address, "password": "correct-horse-9", "email_confirm": True})
    assert created.user.email == address
    assert any(user.id == created.user.id for user in admin.list_users(page=1, per_page=1000))
    admin.delete_user(created.user.id)


def test_a_key_of_another_project_is_refused(supabase):
    url, headers = with_key(supabase, "sb_publishable_another-project-key")
    auth = SyncGoTrueClient(url=url, headers=headers, auto_refresh_token=False, persist_session=False)
    with pytest.raises(AuthError):
        auth.sign_in_anonymously()
