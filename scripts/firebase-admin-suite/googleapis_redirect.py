"""A pytest plugin for scripts/firebase-admin-suite.sh: sends the suite's own HTTPS calls to
Google's hosts to the emulator instead, as an /etc/hosts entry and a TLS proxy in front of the
emulator would. The test files are not changed; the Admin SDK itself already goes to the
emulator through FIREBASE_AUTH_EMULATOR_HOST and FIREBASE_DATABASE_EMULATOR_HOST.

  https://www.googleapis.com/identitytoolkit/v3/relyingparty/X
      -> http://$FIREBASE_AUTH_EMULATOR_HOST/www.googleapis.com/identitytoolkit/v3/relyingparty/X
  https://identitytoolkit.googleapis.com/v1/X, https://securetoken.googleapis.com/v1/X
      -> http://$FIREBASE_AUTH_EMULATOR_HOST/<host>/v1/X (the emulator's own path forms)
"""
from __future__ import annotations

import os
from typing import Any

import requests

HOSTS = ("www.googleapis.com", "identitytoolkit.googleapis.com", "securetoken.googleapis.com", "oauth2.googleapis.com")
_original = requests.Session.request


def _redirected(url: str) -> str:
    emulator = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    for host in HOSTS:
        prefix = f"https://{host}/"
        if url.startswith(prefix):
            return f"http://{emulator}/{host}/{url[len(prefix):]}"
    return url


def _request(self: requests.Session, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
    return _original(self, method, _redirected(str(url)), *args, **kwargs)


def pytest_configure(config: Any) -> None:
    requests.Session.request = _request  # type: ignore[method-assign]
