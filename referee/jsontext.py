"""Strict JSON reading shared by the API and the command line.

orjson parses a record in about 40% of the standard library's time, and it is
strict where we want it: no NaN or Infinity, no numbers that overflow a double,
no lone surrogates, no invalid UTF-8, nesting at most 1024 deep. One leniency of
its own: an integer beyond 64 bits becomes a float; `whole()` (options, seats)
refuses floats too large to be exact, so such a number is a 422, never a silent change.
"""
from __future__ import annotations

from typing import Any

import json

import orjson

_BOM = "\ufeff"


class NotJSON(ValueError):
    """Text that is not (standard) JSON; the message says where and why."""


def loads(text: str | bytes) -> Any:
    if isinstance(text, bytes) and text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]  # RFC 8259 §8.1: a parser may ignore a byte order mark
    elif isinstance(text, str) and text.startswith(_BOM):
        text = text[1:]
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if isinstance(text, bytes):
            _check_utf8(text)
        raise NotJSON(f"{exc.msg} at line {exc.lineno} column {exc.colno}{_near(exc.doc, exc.pos)}") from None


def _check_utf8(data: bytes) -> None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotJSON(f"the text is not UTF-8 (byte {exc.start} is {data[exc.start]:#04x})") from None


def _near(doc: str | bytes, pos: int) -> str:
    """A few characters from where the parser stopped, to show the reader what it met."""
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", "replace")
    excerpt = doc[pos:pos + 16]
    return f", near {json.dumps(excerpt, ensure_ascii=False)}" if excerpt.strip() else ""


def may_hold_nul(raw: str | bytes) -> bool:
    """Can this JSON text hold a NUL in a string? Only as the escape \\u0000 (a raw control
    character is not JSON), so most texts are cleared without walking what they parse to."""
    if isinstance(raw, str):
        return "\\u0000" in raw or "\x00" in raw
    return b"\\u0000" in raw or b"\x00" in raw


def nul_pointers(data: Any) -> list[str]:
    """JSON pointers of every string (key or value) holding the NUL character, which
    PostgreSQL cannot store in text: such input is refused everywhere, on every backend."""
    found = []
    stack = [("", data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                found.append(pointer or "/")
        elif isinstance(value, dict):
            for key, item in value.items():
                where = pointer + "/" + key.replace("~", "~0").replace("/", "~1")
                if "\x00" in key:
                    found.append(where)
                stack.append((where, item))
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{k}", item) for k, item in enumerate(value))
    return sorted(found)


def dumps_line(value: Any) -> str:
    """One line of JSON Lines: compact, keys in the order given, UTF-8 as is."""
    return orjson.dumps(value).decode() + "\n"


def dumps_verdict(value: Any) -> bytes:
    """JSON of a value holding engine `Verdict`s (one, or inside a wrapper such as a batch
    line): the bytes of `orjson.dumps` of its `as_dict()`, written from the value objects
    without first building every trick's dicts."""
    return orjson.dumps(value, default=_verdict_parts)


def _verdict_parts(obj: Any) -> Any:
    from referee.engine.verdict import DealVerdict, Verdict

    if type(obj) is DealVerdict:
        return obj.report(_tricks_text)
    if type(obj) is Verdict:
        return obj.report(obj.deals)
    raise TypeError(f"{type(obj).__name__} is not JSON")


def _tricks_text(tricks: list) -> orjson.Fragment:
    return orjson.Fragment("[" + ",".join([t.json_text() for t in tricks]) + "]")
