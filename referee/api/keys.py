"""GET /v1/keys: the public keys that sign this server's verdicts (referee/verdict_signing.py)."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from referee.verdict_signing import Signer

bp = Blueprint("keys", __name__)


def signer() -> Signer | None:
    """The server's key ring (None: verdicts are not signed), the store's own."""
    return current_app.extensions["referee.store"].signer


@bp.get("/v1/keys", endpoint="listKeys")
def list_keys():
    ring = signer()
    keys = ring.keys() if ring is not None else []
    return jsonify({"algorithm": "Ed25519", "keys": [k.public_dict() for k in reversed(keys)]})
