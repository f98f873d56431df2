"""RFC 6238 codes, as an authenticator app shows them, for the conformance tests."""
import base64
import hashlib
import hmac
import struct
import time


def totp(secret, at=None, step_offset=0):
    """HMAC-SHA1, 6 digits, 30-second steps; `secret` is base32 (case and padding do not matter)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // 30) + step_offset
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"
