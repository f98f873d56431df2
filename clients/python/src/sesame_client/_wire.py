"""Lines on the socket: requests out, answers and notifications in, errors as exceptions."""
from __future__ import annotations

import errno
import json
from typing import Any, Dict, Mapping, Optional, Union

from ._errors import CODE_CLASSES, ConnectionLost, DaemonError, DaemonUnavailable, Timeout
from ._reasons import REASON_CLASSES, RequestTooLarge

#: Longest request line the daemon reads (without the newline).
MAX_REQUEST_LINE = 65536
#: Longest line the daemon sends, plus room for the newline.
MAX_RESPONSE_LINE = 1024 * 1024 + 1

RequestID = Union[int, str]


def encode_request(request_id: RequestID, method: str, params: Optional[Mapping[str, Any]] = None) -> bytes:
    """One request line. A line the daemon would refuse as too large raises ``RequestTooLarge``
    here, before anything is sent."""
    message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params:
        message["params"] = dict(params)
    line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(line) > MAX_REQUEST_LINE:
        raise RequestTooLarge(
            f"the {method} request is {len(line)} bytes; sesamed reads at most {MAX_REQUEST_LINE}: send shorter values",
            code=-32600, data={"reason": "request-too-large"})
    return line + b"\n"


def decode_line(line: bytes, socket_path: str) -> Optional[Dict[str, Any]]:
    """A message from the daemon; None for a blank line. A line that is not a JSON object
    raises ``ConnectionLost`` (the connection cannot be trusted any more)."""
    if not line.strip():
        return None
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        raise ConnectionLost(
            f"sesamed at {socket_path} sent a line that is not protocol; check that the socket belongs to sesamed",
            socket_path=socket_path)
    return message


def error_from_wire(error: Any) -> DaemonError:
    """The exception for a JSON-RPC ``error`` object: the reason's class when the reason is
    known, else the code's class, else ``DaemonError``."""
    obj: Dict[str, Any] = error if isinstance(error, dict) else {}
    code = obj["code"] if isinstance(obj.get("code"), int) else 0
    data: Dict[str, Any] = obj["data"] if isinstance(obj.get("data"), dict) else {}
    reason = data["reason"] if isinstance(data.get("reason"), str) else ""
    message = obj["message"] if isinstance(obj.get("message"), str) else "sesamed refused the request"
    cls: type = CODE_CLASSES.get(code, DaemonError)
    known = REASON_CLASSES.get(reason)
    if known is not None and code in CODE_CLASSES and issubclass(known, cls):
        cls = known  # a known reason under its own code (else the code decides)
    made = cls(message, code=code, reason=reason, data=data)
    assert isinstance(made, DaemonError)
    return made


def connect_error(error: OSError, socket_path: str) -> DaemonUnavailable:
    """``DaemonUnavailable`` for a failed connect, saying what to do next."""
    start = ("start it: `systemctl start sesamed.socket` (system instance) or "
             "`systemctl --user start sesamed.socket` (user instance), or set SESAME_SOCKET")
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        message = f"sesamed is not running: there is no socket at {socket_path}; {start}"
    elif error.errno in (errno.EACCES, errno.EPERM):
        message = (f"you lack permission to use sesamed's socket at {socket_path}: join the group `sesame` "
                   "(then log in again) or ask an administrator to grant you access")
    elif error.errno == errno.ECONNREFUSED:
        message = f"sesamed is not running: nothing listens at {socket_path}; {start}"
    else:
        message = f"sesamed is not reachable at {socket_path} ({error.strerror or error}); {start}"
    return DaemonUnavailable(message, socket_path=socket_path)


def lost(socket_path: str, method: Optional[str] = None) -> ConnectionLost:
    what = f" before it answered {method}" if method else ""
    return ConnectionLost(
        f"the connection to sesamed at {socket_path} closed{what}; it may have restarted: try again "
        "(read state() first if the call changes the session)", socket_path=socket_path)


def timeout_error(method: str, timeout: float, socket_path: str) -> Timeout:
    return Timeout(f"sesamed at {socket_path} did not answer {method} within {timeout:g} s; check that it is "
                   "running (`systemctl status sesamed`) or pass a longer timeout=")
