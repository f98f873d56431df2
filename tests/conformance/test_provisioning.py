"""Fleet tokens minted by each backend's official admin client, spent by the real daemon
(issue 20): firebase-admin's `create_custom_token` against the emulator (unsigned, as it mints
them for an emulator), supabase-auth's admin `generate_link` (its `hashed_token`)."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from firebase_admin import auth

from conftest import PROJECT_ID, unique_email
from test_supabase import admin


class Daemon:
    """sesamed (beside the emulator binary) against an emulator, on a short temporary socket."""

    def __init__(self, config):
        binary = Path(os.environ["SESAME_EMULATOR_BINARY"]).parent / "sesamed"
        self.directory = tempfile.mkdtemp(prefix="cfd-", dir="/tmp")
        self.socket = os.path.join(self.directory, "s.sock")
        Path(self.directory, "sesamed.toml").write_text(config + f'[socket]\npath = "{self.socket}"\n')
        self.log_path = Path(self.directory, "log")
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [str(binary), "--config", str(Path(self.directory, "sesamed.toml")),
                 "--state-dir", str(Path(self.directory, "state"))], stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.call("getState").get("status") == "anonymous":
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError("sesamed did not create its guest: " + self.log_path.read_text()[-2000:])

    def call(self, method, **params):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(30)
            connection.connect(self.socket)
            line = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
            connection.sendall((json.dumps(line) + "\n").encode())
            buffer = b""
            while b"\n" not in buffer:
                chunk = connection.recv(65536)
                assert chunk, "sesamed closed the connection"
                buffer += chunk
            answer = json.loads(buffer.split(b"\n", 1)[0])
            return answer.get("result") or {"error": answer["error"]}

    def stop(self):
        """Stops the daemon (once) and returns its log."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.final_log = self.log_path.read_text()
            shutil.rmtree(self.directory, ignore_errors=True)
        return self.final_log


@pytest.fixture
def firebase_daemon(app):
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    daemon = Daemon(f'[firebase]\napi_key = "conformance"\nproject_id = "{PROJECT_ID}"\n'
                    f'auth_emulator_host = "{host}"\n')
    yield daemon
    daemon.stop()


def test_firebase_admin_custom_token_signs_the_guest_in(firebase_daemon, app):
    user = auth.create_user(email=unique_email("fleet"), password="secret12")
    token = auth.create_custom_token(user.uid, app=app).decode()
    guest = firebase_daemon.call("getState")["user"]["uid"]
    result = firebase_daemon.call("signInWithCustomToken", token=token)
    assert result["state"]["user"]["uid"] == user.uid
    assert result["state"]["status"] == "authenticated"
    assert result["merge"]["fromUid"] == guest
    log = firebase_daemon.stop()
    assert token not in log


def test_firebase_admin_custom_token_for_a_new_uid_creates_the_account(firebase_daemon, app):
    token = auth.create_custom_token("fleet-new-machine", app=app).decode()
    result = firebase_daemon.call("signInWithCustomToken", token=token)
    assert result["state"]["user"]["uid"] == "fleet-new-machine"
    assert auth.get_user("fleet-new-machine").uid == "fleet-new-machine"


def test_supabase_generate_link_hashed_token_signs_the_guest_in(supabase):
    daemon = Daemon(f'[backend]\nprovider = "supabase"\n[supabase]\nurl = "{supabase["url"]}"\n'
                    f'anon_key = "{supabase["anon"]}"\n')
    try:
        address = unique_email("fleet")
        link = admin(supabase).generate_link({"type": "magiclink", "email": address})
        guest = daemon.call("getState")["user"]["uid"]
        result = daemon.call("signInWithCustomToken", token=link.properties.hashed_token)
        assert result["state"]["user"]["email"] == address
        assert result["state"]["user"]["uid"] == link.user.id
        assert result["merge"]["fromUid"] == guest
        again = daemon.call("signInWithCustomToken", token=link.properties.hashed_token)
        assert again["error"]["data"]["reason"] == "invalid-custom-token"
    finally:
        log = daemon.stop()
    assert link.properties.hashed_token not in log
