"""The contract: load openapi.yaml and validate responses against it."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"


@lru_cache
def spec() -> dict:
    return yaml.safe_load(SPEC_FILE.read_text(encoding="utf-8"))


def validate_response(response, path: str, method: str) -> None:
    """Check status, content type and body of a Flask test response against the spec."""
    op = spec()["paths"][path][method.lower()]
    status = str(response.status_code)
    assert status in op["responses"] or "default" in op["responses"], f"{status} not documented for {method} {path}"
    declared = op["responses"].get(status, op["responses"].get("default"))
    if "$ref" in declared:
        declared = spec()["components"]["responses"][declared["$ref"].rsplit("/", 1)[1]]
    content = declared.get("content", {})
    if not content:  # e.g. 204, 304: nothing to say, and nothing said
        assert response.get_data() == b""
        return
    assert response.mimetype in content, f"{response.mimetype} not among {list(content)}"
    schema = content[response.mimetype]["schema"]
    if response.mimetype == "application/json" or response.mimetype.endswith("+json"):
        root = {**schema, "components": spec()["components"]}
        jsonschema.Draft202012Validator(root).validate(response.get_json(force=True))
