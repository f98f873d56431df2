"""Reading the protocol's JSON: times, and objects whose required members are checked."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Mapping, Optional

from ._errors import ConnectionLost


def parse_time(value: Any) -> Optional[datetime]:
    """An RFC 3339 UTC string as an aware datetime; None for null or an unreadable value."""
    if not isinstance(value, str):
        return None
    text = re.sub(r"(\.\d{6})\d+", r"\1", value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConnectionLost(f"sesamed sent a {what} that is not an object; update sesame-client or sesamed")
    return value


def _string(obj: Mapping[str, Any], key: str, what: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ConnectionLost(f"sesamed sent a {what} without {key}; update sesame-client or sesamed")
    return value
