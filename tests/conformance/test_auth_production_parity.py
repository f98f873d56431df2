"""Differences from production fixed so firebase-admin-python's own integration suite
(integration/test_auth.py, run by scripts/firebase-admin-suite.sh) passes against the emulator;
pinned here so they stay fixed without that suite on the machine."""
import json
import os
import urllib.parse
import urllib.request

import firebase_admin
import google.oauth2.credentials
import pytest
from firebase_admin import auth


def test_a_link_domain_the_project_does_not_host_is_refused_as_production_does(app):
    email = "parity-link@example.com"
    auth.create_user(email=email)
    settings = auth.ActionCodeSettings("https://example.com/done", handle_code_in_app=True, link_domain="cool.link")
    with pytest.raises(auth.InvalidHostingLinkDomainError) as caught:
        auth.generate_sign_in_with_email_link(email, action_code_settings=settings)
    assert "(INVALID_HOSTING_LINK_DOMAIN)" in str(caught.value)
    assert "This cannot be a default hosting domain (web.app or firebaseapp.com)." in str(caught.value)
    # Without a link domain the link is made as before.
    plain = auth.ActionCodeSettings("https://example.com/done", handle_code_in_app=True)
    assert "oobCode=" in auth.generate_sign_in_with_email_link(email, action_code_settings=plain)


def _token_endpoint(form):
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    request = urllib.request.Request(
        f"http://{host}/oauth2.googleapis.com/token", data=urllib.parse.urlencode(form).encode(), method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_service_account_jwt_gets_an_access_token_the_emulator_treats_as_privileged(app):
    status, body = _token_endpoint(
        {"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": "e30.e30.c2ln"})
    assert status == 200 and body["token_type"] == "Bearer" and body["expires_in"] > 0
    assert body["access_token"].startswith("ya29.")
    # An app whose credential is that OAuth token acts as an admin (integration/test_auth.py's
    # CredentialWrapper does exactly this).
    class Wrapper(firebase_admin.credentials.Base):
        def get_credential(self):
            return google.oauth2.credentials.Credentials(body["access_token"])

    other = firebase_admin.initialize_app(Wrapper(), {"projectId": app.project_id}, "parity-oauth")
    try:
        uid = auth.create_user(app=other).uid
        assert auth.get_user(uid, app=other).uid == uid
    finally:
        firebase_admin.delete_app(other)

    assert _token_endpoint({"grant_type": "password"})[1]["error"] == "unsupported_grant_type"
    assert _token_endpoint({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer"})[1]["error"] == "invalid_grant"
