"""GET /v1/keys: the public keys that sign this server's verdicts (referee/verdict_signing.py)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from referee.engine import Record, resolve
from referee.verdict_signing import Signer, signed_verdict

bp = Blueprint("keys", __name__)


def signer() -> Signer | None:
    """The server's key ring (None: verdicts are not signed), the store's own."""
    return current_app.extensions["referee.store"].signer


@bp.get("/v1/keys", endpoint="listKeys")
def list_keys():
    ring = signer()
    keys = ring.keys() if ring is not None else []
    return jsonify({"algorithm": "Ed25519", "keys": [k.public_dict() for k in reversed(keys)]})


def signed(verdict, data: Any, record: Record, ring: Signer | None | bool = True) -> bytes:
    """An engine verdict's JSON with its provenance (of `data`, the record as received) and
    signature; `ring`: the key ring when already looked up (a batch's stream runs outside the app)."""
    return signed_verdict(verdict, data, resolve(record.preset, record.options), signer() if ring is True else ring)
