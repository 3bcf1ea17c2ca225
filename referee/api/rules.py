"""GET /v1/rules and /v1/rules/{id}: the rulebook's catalogue as JSON."""
from __future__ import annotations

from flask import Blueprint, jsonify

from referee.engine import catalogue
from referee.engine.errors import shown

from .problems import Problem

bp = Blueprint("rules", __name__)


@bp.get("/v1/rules", endpoint="listRules")
def list_rules():
    return jsonify({"rules": [r.as_dict() for r in catalogue().values()]})


@bp.get("/v1/rules/<rule_id>", endpoint="getRule")
def get_rule(rule_id: str):
    found = catalogue().get(rule_id)
    if found is None:
        raise Problem(404, "Not Found", f"no rule {shown(rule_id)} in the rulebook; GET /v1/rules lists them")
    return jsonify(found.as_dict())
