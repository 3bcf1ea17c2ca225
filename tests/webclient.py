"""Plain HTTP to a served app, for tests that run a real server."""
from __future__ import annotations

import json
import urllib.error
import urllib.request


def call(base: str, method: str, path: str, body=None, key: str | None = None, etag: str | None = None):
    """(status, JSON answer, ETag header) of one request; an error status is an answer too."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    if etag:
        headers["If-Match"] = etag
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null"), r.headers.get("ETag")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), exc.headers.get("ETag")
