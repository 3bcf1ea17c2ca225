"""What a revision stores: a patch from the revision before it to this one (the events
appended, the deal added, the correction's record, the close), never a second copy of the
whole match. `apply(a, diff(a, b))` gives `b` again, key order included: what a patch keeps
of `a` is the same JSON as `b`'s, byte for byte (a part a write left alone is most often the
very object, known at once; anything else equal is compared by its bytes: 1 and True are
== in Python but not in JSON), so a patch costs what changed, not the whole match.

A patch is one of
  {"=": value}             the value itself (the first revision, a correction's record)
  {"d": {key: patch}}      the same dict with these keys changed or added (added at the end)
  {"l": [k, edit, tail]}   the list's first k items kept, item k patched by `edit` (or null:
                           no item k), then `tail`
"""
from __future__ import annotations

from typing import Any

import orjson

_MISSING = object()


def diff(a: Any, b: Any) -> dict:
    """The patch from `a` to `b` (`a` None: there was nothing before)."""
    return {"=": b} if a is None else _diff(a, b)


def _same(a: Any, b: Any) -> bool:
    """The same JSON, byte for byte."""
    return a is b or (a == b and orjson.dumps(a) == orjson.dumps(b))


def apply(a: Any, patch: dict) -> Any:
    """`a` patched; shares what is unchanged with `a` (neither is changed)."""
    if "=" in patch:
        return patch["="]
    if "d" in patch:
        out = dict(a)
        for key, sub in patch["d"].items():
            out[key] = apply(a.get(key), sub)
        return out
    keep, edit, tail = patch["l"]
    return a[:keep] + ([apply(a[keep], edit)] if edit is not None else []) + tail


def _diff(a: Any, b: Any) -> dict:
    if type(a) is dict and type(b) is dict and list(b)[:len(a)] == list(a):
        return {"d": {k: _diff(a.get(k, _MISSING), v) for k, v in b.items() if k not in a or not _same(a[k], v)}}
    if type(a) is list and type(b) is list:
        keep = _common_prefix(a, b)
        if keep < len(a) and keep < len(b) and type(a[keep]) is type(b[keep]) and isinstance(b[keep], (dict, list)):
            return {"l": [keep, _diff(a[keep], b[keep]), b[keep + 1:]]}
        return {"l": [keep, None, b[keep:]]}
    return {"=": b}


def _common_prefix(a: list, b: list) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and _same(a[i], b[i]):
        i += 1
    return i


def fold(patches) -> Any:
    """Each state in turn, from a first patch that holds the value whole."""
    state = None
    for patch in patches:
        state = apply(state, patch)
        yield state
