"""openapi.yaml is valid, and the app's routes are exactly the spec's operations."""
import re

import jsonschema
import yaml
from openapi_spec_validator import validate

from tests.api.spec import spec

METHODS = {"get", "post", "put", "patch", "delete"}


def test_spec_is_a_valid_openapi_document():
    validate(spec())


def app_operations(app) -> set[tuple[str, str, str]]:
    ops = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            ops.add((path, method.lower(), rule.endpoint.rsplit(".", 1)[-1]))
    return ops


def spec_operations() -> set[tuple[str, str, str]]:
    return {(path, method, op["operationId"])
            for path, item in spec()["paths"].items() for method, op in item.items() if method in METHODS}


def test_routes_and_spec_operations_are_the_same_both_ways(app):
    assert app_operations(app) == spec_operations()


def test_the_served_contract_matches_its_own_response_schema(client):
    r = client.get("/openapi.yaml")
    declared = spec()["paths"]["/openapi.yaml"]["get"]["responses"]["200"]["content"][r.mimetype]["schema"]
    served = yaml.safe_load(r.get_data())
    jsonschema.Draft202012Validator(declared).validate(served)
    assert served == spec()
