"""Where the daemon's socket is, decided the way SesameClient and sesamectl decide it."""
from __future__ import annotations

import os
from typing import Callable, Mapping, Optional

SYSTEM_SOCKET = "/run/sesame/sesamed.sock"


def user_socket(runtime_directory: str) -> str:
    """The user instance's socket under ``$XDG_RUNTIME_DIR``."""
    return runtime_directory.rstrip("/") + "/sesame/sesamed.sock"


def resolve_socket_path(environ: Optional[Mapping[str, str]] = None,
                        exists: Callable[[str], bool] = os.path.exists) -> str:
    """``$SESAME_SOCKET`` when set and not empty, else the user instance's socket when it
    exists, else the system one."""
    env = os.environ if environ is None else environ
    explicit = env.get("SESAME_SOCKET", "")
    if explicit:
        return explicit
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime:
        candidate = user_socket(runtime)
        if exists(candidate):
            return candidate
    return SYSTEM_SOCKET
