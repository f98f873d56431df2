"""The soak's sesame-emulator: started once, asked over its admin REST API what exists."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request


class Backend:
    project = "demo-soak"

    def __init__(self, process: subprocess.Popen[bytes], auth_host: str, database_host: str) -> None:
        self.process = process
        self.auth_host = auth_host
        self.database_host = database_host
        self.emails: list[str] = []
        self.password = "soak-password-1"

    @classmethod
    def start(cls, binary: str, directory: str) -> "Backend":
        out_path = os.path.join(directory, "emulator.out")
        out = open(out_path, "wb")
        err = open(os.path.join(directory, "emulator.log"), "wb")
        process = subprocess.Popen(
            [binary, "--auth-port", "0", "--database-port", "0", "--project", cls.project], stdout=out, stderr=err)
        hosts: dict[str, str] = {}
        deadline = time.monotonic() + 30
        while len(hosts) < 2 and time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError("sesame-emulator exited at start")
            for line in open(out_path, encoding="utf-8").read().splitlines():
                for kind in ("auth", "database"):
                    marker = f"{kind} listening on http://"
                    if marker in line:
                        hosts[kind] = line.split(marker, 1)[1].strip()
            time.sleep(0.05)
        if len(hosts) < 2:
            raise RuntimeError("sesame-emulator did not print its ports")
        return cls(process, hosts["auth"], hosts["database"])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def _admin(self, method: str, path: str, body: dict | None = None) -> dict:
        url = f"http://{self.auth_host}/identitytoolkit.googleapis.com/v1/projects/{self.project}/{path}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": "Bearer owner", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"{}")

    def create_accounts(self, count: int) -> None:
        for index in range(count):
            email = f"soak{index}@example.com"
            self.recreate(email)
            self.emails.append(email)

    def recreate(self, email: str) -> None:
        """(Re)creates a pool account; a client may have deleted it (deleteAccount races sign-ins)."""
        try:
            self._admin("POST", "accounts", {"email": email, "password": self.password, "emailVerified": True})
        except urllib.error.HTTPError:
            pass  # it exists

    def sign_in_link(self, email: str) -> str | None:
        """The newest pending sign-in link the emulator 'sent' to `email`."""
        url = f"http://{self.auth_host}/emulator/v1/projects/{self.project}/oobCodes"
        with urllib.request.urlopen(url, timeout=10) as response:
            codes = json.loads(response.read()).get("oobCodes", [])
        links = [code["oobLink"] for code in codes if code.get("email") == email and code.get("requestType") == "EMAIL_SIGNIN"]
        return links[-1] if links else None

    def users(self) -> list[dict]:
        users: list[dict] = []
        token = ""
        while True:
            page = self._admin("GET", f"accounts:batchGet?maxResults=1000&nextPageToken={token}")
            users += page.get("users", [])
            token = page.get("nextPageToken", "")
            if not token:
                return users

    def account(self, uid: str) -> dict | None:
        return next((user for user in self.users() if user["localId"] == uid), None)

    def anonymous_uids(self) -> set[str]:
        return {user["localId"] for user in self.users()
                if not user.get("email") and not user.get("providerUserInfo")}
