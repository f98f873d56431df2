"""firebase_admin.db with `databaseAuthVariableOverride` against the security rules
docs/usernames.md asks projects to deploy, enforced by sesame-emulator (issue 22 §4): the rules
text is read from the page, uploaded as firebase-tools does, and a user's app is refused what the
rules forbid and allowed what they allow."""
import json
import os
import pathlib
import urllib.request
import uuid

import firebase_admin
import pytest
from firebase_admin import db, exceptions

NAMESPACE = "rules-demo"
DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "usernames.md"


def documented_rules():
    page = DOCS.read_text()
    section = page[page.index("## Security rules"):]
    start = section.index("```json\n") + len("```json\n")
    return json.loads(section[start:section.index("```", start)])


@pytest.fixture(scope="module")
def apps():
    host = os.environ["FIREBASE_DATABASE_EMULATOR_HOST"]
    request = urllib.request.Request(
        f"http://{host}/.settings/rules.json?ns={NAMESPACE}",
        data=json.dumps(documented_rules()).encode(),
        method="PUT",
        headers={"Authorization": "Bearer owner"},
    )
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    made = {}
    for name, override in [("alice", {"uid": "alice"}), ("bob", {"uid": "bob"}), ("nobody", None)]:
        made[name] = firebase_admin.initialize_app(
            options={
                "projectId": "demo-project",
                "databaseURL": f"https://{NAMESPACE}.firebaseio.com",
                "databaseAuthVariableOverride": override,
            },
            name=f"rules-{name}-{uuid.uuid4().hex[:6]}",
        )
    yield made
    for application in made.values():
        firebase_admin.delete_app(application)


def refused(call):
    with pytest.raises(exceptions.UnauthenticatedError) as raised:
        call()
    assert "Permission denied" in str(raised.value)


def test_a_user_claims_a_free_name_and_nobody_else_takes_or_frees_it(apps):
    key = f"alice{uuid.uuid4().hex[:6]}"
    as_alice = db.reference(f"users/usernames/{key}", app=apps["alice"])
    as_bob = db.reference(f"users/usernames/{key}", app=apps["bob"])
    refused(lambda: db.reference(f"users/usernames/{key}", app=apps["nobody"]).set("alice"))
    refused(lambda: as_bob.set("alice"))
    as_alice.set("alice")
    refused(lambda: as_bob.set("bob"))
    refused(lambda: as_bob.delete())
    refused(lambda: db.reference("users/usernames/admin", app=apps["bob"]).set("bob"))
    assert db.reference(f"users/usernames/{key}", app=apps["nobody"]).get() == "alice"
    refused(lambda: db.reference("users/usernames", app=apps["alice"]).get())
    as_alice.delete()
    assert as_bob.get() is None


def test_details_are_written_only_by_their_owner_and_validated(apps):
    details = {"username": "alice", "email": "alice@example.com"}
    refused(lambda: db.reference("users/details/alice", app=apps["bob"]).set(details))
    refused(lambda: db.reference("users/details/alice", app=apps["alice"]).set({"email": "a@example.com"}))
    refused(lambda: db.reference("users/details/alice", app=apps["alice"]).set({**details, "extra": 1}))
    db.reference("users/details/alice", app=apps["alice"]).set(details)
    assert db.reference("users/details/alice", app=apps["nobody"]).get() == details
    refused(lambda: db.reference("users/details", app=apps["nobody"]).get())
    # A multi-location update is all or nothing.
    refused(lambda: db.reference("users", app=apps["bob"]).update(
        {"details/bob": {"username": "bob"}, "details/alice/email": "bob@example.com"}))
    assert db.reference("users/details/bob", app=apps["nobody"]).get() is None
