"""A batch's items one at a time, without parsing the whole batch (issue 38, item 8): a JSON
array parsed whole is ten times its text in Python objects (a 29 MiB batch raised a worker
by 330-420 MiB), so its items are found by their brackets and strings alone, and each is
parsed (jsontext.loads, the same strict reading as a record alone) only when it is judged.

`array_spans(text, most)` checks the array's frame (its brackets, strings, commas) and says
where its items are, `line_spans` where JSON Lines' lines are: a batch holds at once its
body, where its items are (as many as a batch may hold) and the one item being judged.
"""
from __future__ import annotations

import re
from typing import Iterator

from .jsontext import NotJSON

_STRING = rb'"(?:[^"\\]++|\\.)*+"'
_PLAIN = rb'[^"\[\]{}]++'


def _within(levels: int) -> re.Pattern:
    """What a container holds, up to `levels` containers deep, matched in one call: most
    records are not deeper, and a deeper one is walked bracket by bracket."""
    inner = rb"(?:" + _PLAIN + rb"|" + _STRING + rb")"
    for _ in range(levels):
        inner = rb"(?:" + _PLAIN + rb"|" + _STRING + rb"|[\[{]" + inner + rb"*+[\]}])"
    return re.compile(inner + rb"*+")


_WITHIN = _within(6)
_SPACE = re.compile(rb"[ \t\n\r]*+")
_SCALAR = re.compile(_STRING + rb"|[^\s,\[\]{}\"]++")
_BOM = b"\xef\xbb\xbf"


def _end_of(text: bytes, at: int) -> int:
    """Where the value starting at `at` ends, by its frame (the parse of the item checks the rest)."""
    if text[at:at + 1] not in (b"[", b"{"):
        found = _SCALAR.match(text, at)
        if found is None:
            raise _not_json(text, at, "a value was expected")
        return found.end()
    depth = 0
    while True:  # each turn passes a bracket the pattern could not take with what it holds
        if at >= len(text):
            raise _not_json(text, at, "the text ends inside a value")
        if text[at] in b"[{":
            depth += 1
        elif text[at] in b"]}":
            depth -= 1
        else:
            raise _not_json(text, at, "a string is not closed")
        at += 1
        if depth == 0:
            return at
        at = _WITHIN.match(text, at).end()


def _items(text: bytes) -> Iterator[tuple[int, int]]:
    at = _SPACE.match(text, 3 if text.startswith(_BOM) else 0).end()
    if text[at:at + 1] != b"[":
        _after(text, _end_of(text, at))  # NotJSON if it is not one value either
        raise NotAnArray("the text is one value, not an array")
    at = _SPACE.match(text, at + 1).end()
    end = at if text[at:at + 1] == b"]" else None
    while end is None:
        end = _end_of(text, at)
        yield at, end
        at = _SPACE.match(text, end).end()
        if text[at:at + 1] == b",":
            at, end = _SPACE.match(text, at + 1).end(), None
        elif text[at:at + 1] != b"]":
            raise _not_json(text, at, "a comma or the array's end was expected")
        else:
            end = at
    _after(text, end + 1)


def _after(text: bytes, at: int) -> None:
    at = _SPACE.match(text, at).end()
    if at != len(text):
        raise _not_json(text, at, "trailing characters")


def array_spans(text: bytes, most: int) -> list[tuple[int, int]]:
    """Where each item of the array is (start, end), `most + 1` items at most (the rest is
    not looked at); NotJSON if its frame is broken, NotAnArray if it is one value but no array."""
    found = []
    for span in _items(text):
        found.append(span)
        if len(found) > most:
            break
    return found


def line_spans(text: bytes, most: int) -> list[tuple[int, int]]:
    """Where each of JSON Lines' lines that hold more than white space is, `most + 1` at most."""
    found: list[tuple[int, int]] = []
    at = 0
    while at < len(text) and len(found) <= most:
        end = text.find(b"\n", at)
        end = len(text) if end < 0 else end
        if text[at:end].strip():
            found.append((at, end))
        at = end + 1
    return found


class NotAnArray(ValueError):
    """The text is one value, but no array."""


def _not_json(text: bytes, at: int, why: str) -> NotJSON:
    line = text.count(b"\n", 0, at) + 1
    column = at - (text.rfind(b"\n", 0, at) + 1) + 1
    near = text[at:at + 16].decode("utf-8", "replace")
    return NotJSON(f"{why} at line {line} column {column}" + (f", near {near!r}" if near.strip() else ""))
