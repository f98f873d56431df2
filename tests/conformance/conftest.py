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


def rest(operation, body):
    """POSTs to the emulator's client REST API like a Firebase client SDK; returns (status, json)."""
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    url = f"http://{host}/identitytoolkit.googleapis.com/v1/{operation}?key=fake-api-key"
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
