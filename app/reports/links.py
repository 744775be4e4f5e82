"""Signed links for private reports: HMAC-SHA256 over the id and the expiry, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac


def sign(report_id: str, expires: int, *, key: str) -> str:
    message = f"{report_id}.{expires}".encode()
    return hmac.new(key.encode("utf-8"), message, hashlib.sha256).hexdigest()


def verify(report_id: str, expires: str | None, sig: str | None, *, key: str | None, now: float) -> bool:
    """True only for a signature made with `key` over this id and expiry, before that expiry."""
    if not key or not expires or not sig or not expires.isdigit():
        return False
    if int(expires) <= now:
        return False
    return hmac.compare_digest(sign(report_id, int(expires), key=key), sig)
