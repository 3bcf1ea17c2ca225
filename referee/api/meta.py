"""Health and the API contract."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, jsonify

bp = Blueprint("meta", __name__)
SPEC_PATH = Path(__file__).resolve().parents[1] / "shipped" / "openapi.yaml"  # openapi.yaml, shipped in the package


@bp.get("/healthz", endpoint="getHealth")
def healthz():
    return jsonify({"status": "ok"})


@bp.get("/openapi.yaml", endpoint="getOpenapi")
def openapi():
    return Response(SPEC_PATH.read_text(encoding="utf-8"), mimetype="application/yaml")
