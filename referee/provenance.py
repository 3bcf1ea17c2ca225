"""Where a verdict came from: the engine, the rulebook, the options in force and the record,
each named by a digest of one canonical form, so that two servers judging the same record
under the same rules say the same thing, and anyone can check it with the repository alone.

The canonical form of a JSON value is RFC 8785's (JCS), docs/records.md "Provenance":
no whitespace; object members sorted by name as UTF-16 code units; strings in UTF-8 with
only `"`, `\\` and U+0000-U+001F escaped (\\b \\t \\n \\f \\r, else \\u00xx); numbers as
ECMAScript writes the nearest double (3.0 is 3, 1e21 is 1e+21, -0 is 0). orjson writes that
form for every value that holds no fraction, no integer past 2^53 and no name past U+E000;
`canonical()` checks its output for those and writes the rest itself.

Nothing here imports the web or the store (`referee check` and `referee verify` use it).
"""
from __future__ import annotations

import hashlib
import time
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from referee import __version__
from referee.engine.options import Options
from referee.engine.rulebook import RULEBOOK

PACKAGE = Path(__file__).resolve().parent
# What decides a verdict: the engine, the solver that settles claims, the record's shape.
ENGINE_SOURCES = ("engine", "solver", "record_shape")
_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER
_HIGH = bytes(range(0xEE, 0xF5))  # UTF-8 lead bytes of U+E000 and above
_NOT_HIGH = bytes(b for b in range(256) if b not in _HIGH)
_DIGITS = b"0123456789"


class NotCanonical(ValueError):
    """A value JSON cannot hold exactly (NaN, an infinity, a lone surrogate, a number past a double)."""


def canonical(value: Any) -> bytes:
    """The RFC 8785 (JCS) bytes of a JSON value (dicts, lists, str, int, float, bool, None)."""
    try:
        text = orjson.dumps(value, option=_SORTED)
    except orjson.JSONEncodeError:  # an integer past 2^53, a lone surrogate, NaN...
        return _exact(value).encode("utf-8")
    if _may_differ(text):
        return _exact(value).encode("utf-8")
    return text


def _may_differ(text: bytes) -> bool:
    """Could orjson's sorted text differ from JCS? Only through a fraction or an exponent
    (written 1.0, 1e+16: a value's digits then `.` or `e+`/`e-`), or a name sorted by code point
    where UTF-16 sorts it otherwise (characters from U+E000 on). False alarms only cost time."""
    if not text.isascii() and text.translate(None, _NOT_HIGH):
        return True
    for mark in (b".", b"e+", b"e-"):
        at = text.find(mark)
        while at > 0:
            if text[at - 1] in _DIGITS and (mark != b"." or text[at + 1:at + 2].isdigit()) and _starts_value(text, at):
                return True
            at = text.find(mark, at + 1)
    return False


def _starts_value(text: bytes, at: int) -> bool:
    """Do the digits before `at` begin where a value begins (after `:`, `,` or `[`), as a
    number's do, rather than inside a string ("0.1.0")?"""
    k = at - 1
    while k >= 0 and (text[k] in _DIGITS or text[k] == 0x2D):
        k -= 1
    return k < 0 or text[k] in b":,["


def _exact(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        try:
            return orjson.dumps(value).decode()  # orjson escapes strings exactly as JCS does
        except orjson.JSONEncodeError:
            raise NotCanonical("a string holds a lone surrogate") from None
    if isinstance(value, int):
        return str(value) if abs(value) <= 2 ** 53 else number(_as_double(value))
    if isinstance(value, float):
        return number(value)
    if isinstance(value, dict):
        names = list(value)
        if not all(isinstance(k, str) for k in names):
            raise NotCanonical("an object's member names must be strings")
        names.sort(key=_utf16)
        return "{" + ",".join(_exact(k) + ":" + _exact(value[k]) for k in names) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_exact(v) for v in value) + "]"
    raise NotCanonical(f"{type(value).__name__} is not JSON")


def _utf16(name: str) -> bytes:
    return name.encode("utf-16-be", "surrogatepass")


def _as_double(n: int) -> float:
    try:
        return float(n)
    except OverflowError:
        raise NotCanonical(f"the number {n} is past the largest double") from None


def number(x: float) -> str:
    """ECMAScript's Number.prototype.toString of a double (RFC 8785 section 3.2.2.3):
    the shortest digits that read back as `x`, without an exponent from 1e-6 to below 1e21."""
    if x != x or x in (float("inf"), float("-inf")):
        raise NotCanonical(f"{x} is not a JSON number")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    s = digits.rstrip("0")
    k = len(s)
    n = (int(exp) if exp else 0) - len(fraction) + (len(digits) - k) + k  # x = 0.s * 10^n
    if k <= n <= 21:
        text = s + "0" * (n - k)
    elif 0 < n <= 21:
        text = s[:n] + "." + s[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + s
    else:
        e = n - 1
        text = s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + text


def digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def record_digest(record: Any) -> str:
    """The record as received (parsed JSON), in its canonical form."""
    return digest(canonical(record))


def options_digest(options: Options) -> str:
    """The options in force: the preset after every override, every option named."""
    return _options_digest(options)


@lru_cache(maxsize=256)
def _options_digest(options: Options) -> str:
    return digest(canonical(options.as_dict()))


@lru_cache(maxsize=1)
def rulebook_digest() -> str:
    """docs/rules.md as served (read as text: UTF-8, line ends as LF)."""
    return digest(RULEBOOK.read_text(encoding="utf-8").encode("utf-8"))


@lru_cache(maxsize=1)
def engine_source() -> str:
    """The engine's own build: its Python sources (engine, solver, the record's shape), each
    `path NUL bytes NUL` in path order, paths relative to the package (`engine/deal.py`)."""
    files = []
    for name in ENGINE_SOURCES:
        path = PACKAGE / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(PACKAGE).as_posix()):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "sha256:" + h.hexdigest()


_clock: list = [None, ""]  # the last second asked for, and its text


def now() -> str:
    """UTC now, to the second (a verdict's `signed_at`)."""
    second = int(time.time())
    if _clock[0] != second:
        _clock[:] = [second, datetime.fromtimestamp(second, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")]
    return _clock[1]


def provenance(record: Any, options: Options, place: dict | None = None, digest: str | None = None) -> dict:
    """A verdict's `provenance`, unsigned (`key` and `signed_at` null until signed); `place`:
    a stored match's verdict's place in its chain of revisions (see place()); `digest`: the
    record's, where the caller hashed it already (a live write's, from its last deal)."""
    return {"engine": __version__, "engine_source": engine_source(), "rulebook": rulebook_digest(),
            "options": options_digest(options), "record": digest or record_digest(record), **(place or {}),
            "key": None, "signed_at": None}


def verdict_digest(verdict: dict) -> str:
    """A verdict as it was given (its provenance and signature included), in its canonical form."""
    return digest(canonical(verdict))


def place(match: str, revision: int, previous: dict | None) -> dict:
    """Where a stored match's verdict stands, signed with it: its match, its revision and the
    digest of the revision before's verdict (null for the first), so that a match's revisions
    are a chain in which a dropped, moved or changed revision shows. Null too after an
    unsigned verdict: its digest would let anyone test a guess of a card it hid (R-31), where
    a signed one's holds the signature, which no guess can make."""
    chained = previous is not None and previous.get("signature") is not None
    return {"match": match, "revision": revision, "previous": verdict_digest(previous) if chained else None}


def unsigned_verdict(verdict_json: bytes, provenance: dict) -> bytes:
    """A verdict's JSON text (an object) with its `provenance` and a null `signature` at its end."""
    return verdict_json[:-1] + b',"provenance":' + orjson.dumps(provenance) + b',"signature":null}'
