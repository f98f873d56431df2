"""`sesamectl sign-in google --browser` in headless Chromium, and the daemon's checks of a
callback (forged `state`, a replay, a denial), on Firebase and on Supabase."""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import threading
import uuid
from pathlib import Path
from typing import Iterator, List, Tuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from stack import Daemon, bin_path, wait_until


def approve_in_browser(browser: webdriver.Chrome, url: str, email: str, button: str = "approve") -> None:
    """Opens the authorization URL and answers the emulator's authorize page as a person would."""
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda driver: driver.find_elements(By.ID, "email"))
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, button).click()


def visited_urls(browser: webdriver.Chrome) -> List[str]:
    """Every URL the browser requested since the last call, in order (Chrome's performance log)."""
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


class CallbackListener:
    """A loopback listener like a program's own: records the URLs the browser comes back to."""

    def __init__(self) -> None:
        self.paths: List[str] = []
        listener = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                listener.paths.append(self.path)
                body = b"<html><body>received</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/callback"

    def callback_url(self) -> str:
        wait_until("the browser came back", lambda: any(p.startswith("/callback") for p in self.paths), 60)
        path = next(p for p in self.paths if p.startswith("/callback"))
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def listener() -> Iterator[CallbackListener]:
    running = CallbackListener()
    yield running
    running.close()


def with_state(url: str, state: str) -> str:
    parts = urlsplit(url)
    query = [(k, state if k == "state" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def test_sesamectl_browser_sign_in(daemon: Daemon, browser: webdriver.Chrome, tmp_path: Path) -> None:
    guest = daemon.state()["user"]["uid"]
    opened = tmp_path / "opened-url"
    opener = tmp_path / "open-in-test-browser"
    opener.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" > '{opened}'\n")
    opener.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environment["BROWSER"] = str(opener)
    command = subprocess.Popen(
        [bin_path("sesamectl"), "sign-in", "google", "--browser", "--socket", daemon.socket_path],
        env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until("sesamectl opened the browser", lambda: opened.exists() and opened.read_text().strip() != "", 60)
        launch = opened.read_text().strip()
        visited_urls(browser)  # forget what earlier tests visited
        # The browser is given sesamectl's one-time launch address, which sends it on to the
        # provider with a cookie binding the callback to it.
        approve_in_browser(browser, launch, f"web-{uuid.uuid4().hex[:8]}@example.com")
        WebDriverWait(browser, 60).until(lambda driver: "close this tab" in driver.page_source)
        stdout, stderr = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            command.kill()
    urls = visited_urls(browser)
    assert command.returncode == 0, stderr
    state = daemon.state()
    assert state["status"] == "authenticated"
    assert "google.com" in state["user"]["providers"]
    assert state["signInPrompt"] is None
    if daemon.call("hello")["backend"] == "firebase":
        assert state["user"]["uid"] == guest, "Firebase links the identity to the guest"
    # The flow's secrets (its `state`, and the PKCE challenge on Supabase) never reach the log,
    # nor the browser's command line: the provider's URL is where the launch address led.
    assert urlsplit(launch).path.startswith("/launch/"), launch
    provider_url = urls[urls.index(launch) + 1]
    assert urlsplit(provider_url).path != urlsplit(launch).path
    query = dict(parse_qsl(urlsplit(provider_url).query))
    if "redirect_to" in query:  # Supabase: the daemon's state rides in the loopback redirect
        query.update(parse_qsl(urlsplit(query["redirect_to"]).query))
    secrets = [query[name] for name in ("state", "code_challenge") if name in query]
    assert "state" in query, query
    for secret in secrets:
        assert secret not in daemon.log()
        assert secret not in launch


def test_forged_state_then_the_real_callback_then_a_replay(
        daemon: Daemon, browser: webdriver.Chrome, listener: CallbackListener) -> None:
    before = daemon.state()
    flow = daemon.call("startSignIn", providerId="google.com", flow="browser", redirectUri=listener.redirect_uri)
    assert flow["status"] == "pending" and flow["authorizationUrl"]
    approve_in_browser(browser, flow["authorizationUrl"], f"forge-{uuid.uuid4().hex[:8]}@example.com")
    callback = listener.callback_url()

    forged = daemon.call("completeSignIn", flowId=flow["flowId"], callbackUrl=with_state(callback, "forged-state"))
    assert forged["error"]["data"]["reason"] == "invalid-credential"
    assert daemon.state()["user"]["uid"] == before["user"]["uid"]
    assert daemon.state()["status"] == "anonymous"

    done = daemon.call("completeSignIn", flowId=flow["flowId"], callbackUrl=callback)
    assert done["state"]["status"] == "authenticated"

    replay = daemon.call("completeSignIn", flowId=flow["flowId"], callbackUrl=callback)
    assert replay["error"]["code"] == 1000
    assert daemon.state()["user"]["uid"] == done["state"]["user"]["uid"]


def test_a_denial_in_the_browser_is_access_denied(
        daemon: Daemon, browser: webdriver.Chrome, listener: CallbackListener) -> None:
    before = daemon.state()
    flow = daemon.call("startSignIn", providerId="google.com", flow="browser", redirectUri=listener.redirect_uri)
    approve_in_browser(browser, flow["authorizationUrl"], "no@example.com", button="deny")
    callback = listener.callback_url()
    assert "error=access_denied" in callback
    denied = daemon.call("completeSignIn", flowId=flow["flowId"], callbackUrl=callback)
    assert denied["error"]["data"]["reason"] == "access-denied"
    after = daemon.state()
    assert after["user"]["uid"] == before["user"]["uid"] and after["status"] == "anonymous"
