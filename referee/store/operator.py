"""REFEREE_OPERATOR_KEY: when a deployment sets it, only who holds it creates tournaments."""
from __future__ import annotations

import hashlib
import hmac
import os

from .errors import Forbidden, Unauthorized


def require_operator(given: str | None) -> None:
    """Nothing to check without REFEREE_OPERATOR_KEY; else the key given must be it."""
    expected = os.environ.get("REFEREE_OPERATOR_KEY")
    if not expected:
        return
    if given is None:
        raise Unauthorized("creating a tournament here needs the operator's key: "
                           "Authorization: Bearer <REFEREE_OPERATOR_KEY>")
    digest = hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest()
    if not hmac.compare_digest(digest, hashlib.sha256(expected.encode()).digest()):
        raise Forbidden("that is not the operator's key")
