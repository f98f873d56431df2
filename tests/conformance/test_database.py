"""firebase_admin.db against sesame-emulator's Realtime Database REST subset."""
import uuid

from firebase_admin import db


def fresh(app, name):
    return db.reference(f"conformance/{name}-{uuid.uuid4().hex[:8]}", app=app)


def test_set_and_get(app):
    ref = fresh(app, "setget")
    ref.set({"name": "Alice", "age": 30, "tags": ["a", "b"]})
    assert ref.get() == {"name": "Alice", "age": 30, "tags": ["a", "b"]}
    assert ref.child("name").get() == "Alice"
    ref.child("age").set(31)
    assert ref.child("age").get() == 31
    ref.update({"age": 32, "city": "Paris"})
    assert ref.get() == {"name": "Alice", "age": 32, "tags": ["a", "b"], "city": "Paris"}
    ref.delete()
    assert ref.get() is None


def test_get_with_etag_and_set_if_unchanged(app):
    ref = fresh(app, "etag")
    value, etag = ref.get(etag=True)
    assert value is None
    ok, _, new_etag = ref.set_if_unchanged(etag, {"uid": "u1"})
    assert ok
    stale, current, current_etag = ref.set_if_unchanged(etag, {"uid": "u2"})
    assert not stale
    assert current == {"uid": "u1"}
    assert current_etag == new_etag
    assert ref.get() == {"uid": "u1"}


def test_transaction(app):
    ref = fresh(app, "counter")
    for expected in range(1, 4):
        assert ref.transaction(lambda current: (current or 0) + 1) == expected
    assert ref.get() == 3


def test_transaction_on_object(app):
    ref = fresh(app, "names")
    ref.child("bob").set({"uid": "first"})

    def claim(current):
        current = current or {}
        current.setdefault("alice", {"uid": "second"})
        return current

    result = ref.transaction(claim)
    assert result == {"bob": {"uid": "first"}, "alice": {"uid": "second"}}


def test_push(app):
    ref = fresh(app, "push")
    child = ref.push({"text": "hi"})
    assert len(child.key) == 20
    assert child.get() == {"text": "hi"}
