"""supabase-auth's `get_claims` verifying the emulator's access tokens locally against
`/auth/v1/.well-known/jwks.json`, as apps do with a project on asymmetric JWT signing keys."""
import base64
import json
import uuid

import pytest
from supabase_auth.errors import AuthInvalidJwtError

from conftest import start_supabase
from test_supabase import client


@pytest.fixture(scope="module")
def supabase_rs256():
    yield from start_supabase(["--supabase-signing-key", "rs256"])


@pytest.fixture(scope="module")
def supabase_hs256():
    yield from start_supabase(["--supabase-signing-key", "hs256"])


def _session(supabase):
    address = f"jwks-{uuid.uuid4().hex[:10]}@example.com"
    return client(supabase).sign_up({"email": address, "password": "secret-pw"}).session


def _tampered(token):
    """The token with its payload's `sub` changed and the signature kept."""
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["sub"] = str(uuid.uuid4())
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"{header}.{forged}.{signature}"


@pytest.mark.parametrize("fixture, alg", [("supabase", "ES256"), ("supabase_rs256", "RS256")])
def test_get_claims_verifies_locally_against_the_jwks(request, fixture, alg):
    supabase = request.getfixturevalue(fixture)
    session = _session(supabase)
    auth = client(supabase)
    result = auth.get_claims(session.access_token)
    assert result["headers"]["alg"] == alg
    assert result["headers"]["kid"]
    assert result["claims"]["sub"] == session.user.id
    assert result["claims"]["role"] == "authenticated"
    # A local check, not the get_user fallback: a changed payload fails the signature.
    with pytest.raises(AuthInvalidJwtError):
        auth.get_claims(_tampered(session.access_token))


def test_hs256_publishes_no_key_and_get_claims_asks_the_server(supabase_hs256):
    session = _session(supabase_hs256)
    result = client(supabase_hs256).get_claims(session.access_token)
    assert result["headers"]["alg"] == "HS256"
    assert "kid" not in result["headers"]
    assert result["claims"]["sub"] == session.user.id
