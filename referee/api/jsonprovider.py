"""Responses written with orjson: several times faster than the standard library's writer,
keys in the order the verdict builds them (the contract's order), the same bytes every run."""
from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import JSONProvider


class OrjsonProvider(JSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any):
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(orjson.dumps(obj), mimetype="application/json")
