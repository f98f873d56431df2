"""The mixed workload of one soak round: clients that change the session, subscribers that
watch it, and a migrator that completes merges, until the daemon is killed under them."""

from __future__ import annotations

import itertools
import random
import threading
from collections import Counter

from soak_wire import Connection, RpcError

_names = itertools.count()


class Observations:
    """What clients saw. A uid a client saw was in the keyring first (persist before notify)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen_uids: set[str] = set()
        self.counts: Counter[str] = Counter()

    def note_state(self, state: dict | None) -> None:
        user = (state or {}).get("user")
        if user:
            with self.lock:
                self.seen_uids.add(user["uid"])

    def note_notification(self, message: dict) -> None:
        params = message.get("params") or {}
        self.note_state(params.get("state"))
        self.count("notification")

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1

    def summary(self) -> str:
        with self.lock:
            done = sum(n for key, n in self.counts.items() if key.endswith(":ok"))
            return (f"{done} calls answered, {self.counts['merged']} merges, "
                    f"{self.counts['notification']} notifications, {len(self.seen_uids)} uids seen")


class Workload:
    def __init__(self, socket_path: str, backend, observations: Observations, rng: random.Random,
                 clients: int, subscribers: int) -> None:
        self.socket_path = socket_path
        self.backend = backend
        self.observations = observations
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._client, args=(random.Random(rng.random()),), daemon=True)
                        for _ in range(clients)]
        self.threads += [threading.Thread(target=self._subscriber, daemon=True) for _ in range(subscribers)]
        self.threads.append(threading.Thread(target=self._migrator, daemon=True))

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=10)

    def _subscriber(self) -> None:
        try:
            with Connection(self.socket_path, timeout=1, on_notification=self.observations.note_notification) as c:
                self.observations.note_state(c.call("subscribe")["state"])
                while not self.stopping.is_set():
                    try:
                        self.observations.note_notification(c.read_message())
                    except TimeoutError:
                        continue
        except (OSError, ConnectionError, RpcError, ValueError):
            return

    def _migrator(self) -> None:
        def on_notification(message: dict) -> None:
            self.observations.note_notification(message)
            if message.get("method") == "accountMerge":
                pending.append(message["params"]["merge"]["mergeId"])
        pending: list[str] = []
        try:
            with Connection(self.socket_path, timeout=1, on_notification=on_notification) as c:
                c.call("subscribe", {"migrator": True})
                while not self.stopping.is_set():
                    if pending:
                        self._call(c, "completeMerge", {"mergeId": pending.pop(0)})
                        continue
                    try:
                        on_notification(c.read_message())
                    except TimeoutError:
                        continue
        except (OSError, ConnectionError, RpcError, ValueError):
            return

    def _client(self, rng: random.Random) -> None:
        try:
            with Connection(self.socket_path, timeout=10, on_notification=self.observations.note_notification) as c:
                while not self.stopping.is_set():
                    self._step(c, rng)
        except (OSError, ConnectionError, ValueError):
            return

    def _call(self, connection: Connection, method: str, params: dict | None = None):
        try:
            result = connection.call(method, params)
        except RpcError as error:
            self.observations.count(f"{method}:{error.reason}")
            return None
        self.observations.count(f"{method}:ok")
        if isinstance(result, dict):
            self.observations.note_state(result.get("state") if "state" in result else result)
            if result.get("merge"):
                self.observations.count("merged")
        return result

    def _step(self, c: Connection, rng: random.Random) -> None:
        state = self._call(c, "getState") or {}
        anonymous = state.get("status") == "anonymous"
        email = ((state.get("user") or {}).get("email") or "")
        roll = rng.random()
        if roll < 0.30:
            self._call(c, "getIdToken", {"forceRefresh": rng.random() < 0.3})
        elif roll < 0.45 and anonymous:
            params = {"email": f"soak-new-{next(_names)}-{rng.randrange(1 << 30)}@example.com",
                      "password": "soak-password-2"}
            if rng.random() < 0.4:
                params["username"] = f"soaker_{rng.randrange(1 << 30)}"
            self._call(c, "createAccount", params)
        elif roll < 0.60:
            target = rng.choice(self.backend.emails)
            if self._call(c, "signIn", {"identifier": target, "password": self.backend.password}) is None:
                self.backend.recreate(target)
        elif roll < 0.75:
            self._call(c, "signOut", {"reset": True} if anonymous else {})
        elif roll < 0.85 and not anonymous and email.startswith("soak-new-"):
            self._call(c, "setUsername", {"username": f"soaker_{rng.randrange(1 << 30)}"})
        elif roll < 0.90 and email.startswith("soak-new-"):
            self._call(c, "deleteAccount")
        elif roll < 0.95:
            target = rng.choice(self.backend.emails) if rng.random() < 0.5 else \
                f"soak-link-{next(_names)}-{rng.randrange(1 << 30)}@example.com"
            if self._call(c, "sendSignInLink", {"email": target}) is not None:
                link = self.backend.sign_in_link(target)
                if link:
                    self._call(c, "completeSignInLink", {"link": link, "email": target})
        else:
            self._call(c, "signInAnonymously")
