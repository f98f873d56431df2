"""firebase_admin.db's ETag, query and transaction APIs against sesame-emulator, as a drop-in for
Google's Realtime Database emulator (issue 22 §4)."""
import queue
import threading
import uuid

from firebase_admin import db


def fresh(app, name):
    return db.reference(f"dropin/{name}-{uuid.uuid4().hex[:8]}", app=app)


def people(app):
    ref = fresh(app, "people")
    ref.set({
        "ann": {"age": 31, "name": {"last": "Zed"}},
        "bob": {"age": 25, "name": {"last": "Ames"}},
        "cy": {"name": {"last": "Moe"}},
        "dee": {"age": 40},
        "eve": {"age": 25},
    })
    return ref


def test_etag_of_an_existing_value_and_get_if_changed(app):
    ref = fresh(app, "etag")
    ref.set({"uid": "u1"})
    value, etag = ref.get(etag=True)
    assert value == {"uid": "u1"}
    assert etag and etag != "null_etag"
    assert ref.get_if_changed(etag) == (False, None, None)
    ref.child("uid").set("u2")
    changed, new_value, new_etag = ref.get_if_changed(etag)
    assert changed and new_value == {"uid": "u2"} and new_etag != etag
    ok, stored, after = ref.set_if_unchanged(new_etag, {"uid": "u3"})
    assert ok and stored == {"uid": "u3"}
    assert ref.get(etag=True) == ({"uid": "u3"}, after)


def test_transaction_retries_after_a_concurrent_write(app):
    ref = fresh(app, "contended")
    ref.set(10)
    other = db.reference(ref.path, app=app)
    calls = []

    def add_one(current):
        calls.append(current)
        if len(calls) == 1:
            # Another writer changes the value between the transaction's read and its write.
            thread = threading.Thread(target=lambda: other.set(100))
            thread.start()
            thread.join()
        return (current or 0) + 1

    assert ref.transaction(add_one) == 101
    assert calls == [10, 100]
    assert ref.get() == 101


def test_order_by_child_start_at_limit_to_first(app):
    result = people(app).order_by_child("age").start_at(25).limit_to_first(2).get()
    assert list(result.items()) == [("bob", {"age": 25, "name": {"last": "Ames"}}), ("eve", {"age": 25})]


def test_order_by_child_puts_missing_children_first_and_limit_to_last(app):
    ref = people(app)
    assert list(ref.order_by_child("age").get().keys()) == ["cy", "bob", "eve", "ann", "dee"]
    assert list(ref.order_by_child("age").limit_to_last(2).get().keys()) == ["ann", "dee"]
    assert list(ref.order_by_child("age").equal_to(25).get().keys()) == ["bob", "eve"]
    assert list(ref.order_by_child("name/last").start_at("B").end_at("N").get().keys()) == ["cy"]
    assert ref.order_by_child("age").equal_to(99).get() in ({}, None)


def test_order_by_key_and_value(app):
    ref = fresh(app, "scores")
    ref.set({"b": 3, "k": 1, "j": 2, "a": 1, "c": "x", "d": True})
    assert list(ref.order_by_key().get().keys()) == ["a", "b", "c", "d", "j", "k"]
    assert list(ref.order_by_key().start_at("b").limit_to_first(2).get().keys()) == ["b", "c"]
    assert list(ref.order_by_value().get().keys()) == ["d", "a", "k", "j", "b", "c"]
    assert list(ref.order_by_value().start_at(2).end_at(3).get().items()) == [("j", 2), ("b", 3)]
    assert list(ref.order_by_value().limit_to_last(1).get().items()) == [("c", "x")]


def test_order_by_key_puts_32_bit_integer_keys_first(app):
    ref = fresh(app, "numeric")
    ref.set({"10": "ten", "9": "nine", "1a": "other"})
    # As strings "10" < "1a" < "9"; RTDB orders integer keys first: 9, 10, then "1a".
    assert set(ref.order_by_key().limit_to_first(2).get().keys()) == {"9", "10"}
    assert set(ref.order_by_key().limit_to_last(1).get().keys()) == {"1a"}


def test_listen_receives_the_initial_put_then_changes(app):
    ref = fresh(app, "listen")
    ref.set({"a": 1})
    events = queue.Queue()
    registration = ref.listen(lambda event: events.put((event.event_type, event.path, event.data)))
    try:
        assert events.get(timeout=10) == ("put", "/", {"a": 1})
        ref.child("b").set(2)
        assert events.get(timeout=10) == ("put", "/b", 2)
        ref.update({"a": 5})
        assert events.get(timeout=10) == ("patch", "/", {"a": 5})
        ref.delete()
        assert events.get(timeout=10) == ("put", "/", None)
    finally:
        registration.close()
