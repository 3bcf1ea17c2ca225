"""A webhook delivery's signature: `Referee-Signature: v1=<hex>`, the HMAC-SHA256 of
`<timestamp>.<body>` with the subscription's secret (the README shows a receiver's check)."""
from __future__ import annotations

import hashlib
import hmac
import time


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def verify(secret: str, timestamp: str, body: bytes, signature: str, tolerance: float = 300) -> bool:
    """What a receiver does (the README shows the same): recompute and compare."""
    if abs(time.time() - float(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature)
