"""Shared fixtures: one firebase_admin app against the emulator named by the environment."""
import json
import os
import urllib.error
import urllib.request
import uuid

import firebase_admin
import pytest

PROJECT_ID = "demo-project"


@pytest.fixture(scope="session")
def app():
    assert os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"), "run through run.sh"
    application = firebase_admin.initialize_app(
        options={
            "projectId": PROJECT_ID,
            "databaseURL": f"https://{PROJECT_ID}-default-rtdb.firebaseio.com",
        }
    )
    yield application
    firebase_admin.delete_app(application)


def rest(operation, body, version="v1"):
    """POSTs to the emulator's client REST API (Identity Toolkit `version`) like a Firebase client
    SDK; returns (status, json)."""
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    url = f"http://{host}/identitytoolkit.googleapis.com/{version}/{operation}?key=fake-api-key"
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def unique_email(prefix="user"):
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def start_supabase(extra_arguments):
    """Starts a sesame-emulator with the Supabase surface (--supabase-port 0) plus
    `extra_arguments`, from the binary run.sh names in SESAME_EMULATOR_BINARY; yields its URL
    and the printed keys, and stops it afterwards."""
    import select
    import subprocess
    import time

    binary = os.environ.get("SESAME_EMULATOR_BINARY")
    assert binary, "run through run.sh (it sets SESAME_EMULATOR_BINARY)"
    process = subprocess.Popen(
        [binary, "--auth-port", "0", "--database-port", "0", "--supabase-port", "0", *extra_arguments],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0,  # unbuffered: select() sees every line
    )
    found = {}
    deadline = time.monotonic() + 120
    try:
        while len(found) < 5:
            remaining = deadline - time.monotonic()
            assert remaining > 0, "sesame-emulator did not print its supabase lines within 120 s"
            ready, _, _ = select.select([process.stdout], [], [], remaining)
            if not ready:
                continue
            line = process.stdout.readline().decode()
            assert line, "sesame-emulator exited before printing its supabase lines"
            for prefix, name in (
                ("sesame-emulator: supabase listening on ", "url"),
                ("sesame-emulator: supabase publishable key ", "publishable"),
                ("sesame-emulator: supabase secret key ", "secret"),
                ("sesame-emulator: supabase anon key ", "anon"),
                ("sesame-emulator: supabase service_role key ", "service_role"),
            ):
                if line.startswith(prefix):
                    found[name] = line[len(prefix):].strip()
        yield found
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="session")
def supabase():
    """The Supabase emulator most tests share. The reuse interval is 0 so reuse detection can be
    seen without waiting."""
    yield from start_supabase(["--supabase-refresh-reuse-interval", "0"])


@pytest.fixture(scope="session")
def supabase_secure_password():
    """A Supabase emulator with GoTrue's secure password change on (a session older than a day
    needs the /reauthenticate nonce)."""
    yield from start_supabase(["--supabase-secure-password-change", "true"])
