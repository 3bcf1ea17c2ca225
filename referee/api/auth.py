"""The tournament write key, from `Authorization: Bearer <key>`."""
from __future__ import annotations

from flask import request


def bearer_key() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.partition(" ")
    # A malformed header is a key that opens nothing (403), not a missing one.
    return key.strip() if scheme.lower() == "bearer" and key.strip() else header
