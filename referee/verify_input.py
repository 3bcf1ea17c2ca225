"""What `referee verify` reads, and what it refuses before it judges anything: JSON read
strictly (a member name twice in one object, nesting past MAX_DEPTH, NaN or an infinity: each
a refusal that says where), only the keys it is given, a verdict's provenance of the types
docs/records.md gives, and a stored match's revisions as a chain: each signed with its match,
its number and the digest of the revision before (provenance.place()).

Nothing here imports the web or the store.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.jsontext import NotJSON
from referee.provenance import verdict_digest
from referee.verdict_signing import Key, RingError, parse_key, read_keys, unb64

MAX_DEPTH = 64  # a verdict nests about 10 deep, an export's line 3 more
_STRINGS = ("engine", "engine_source", "rulebook", "options", "record", "key", "signed_at", "match", "previous",
            "withheld")


class Malformed(NotJSON):
    """A text that is JSON no referee wrote: a name twice in one object, nesting too deep."""


def _members(pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _ in pairs if name in seen or seen.add(name))
        raise Malformed(f"the member name {json.dumps(twice)} appears twice in one object (which copy counts "
                        "depends on the reader)")
    return out


def _constant(name: str):
    raise Malformed(f"{name} is not JSON")


def strict_loads(text: str | bytes) -> Any:
    """JSON as `referee verify` reads it: every object's names once, nesting within MAX_DEPTH."""
    if isinstance(text, bytes) and text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    try:
        value = json.loads(text, object_pairs_hook=_members, parse_constant=_constant)
    except RecursionError:
        raise Malformed(f"nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:
        if isinstance(exc, NotJSON):
            raise
        raise NotJSON(str(exc)) from None
    _check_depth(value)
    return value


def _check_depth(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            if depth > MAX_DEPTH:
                raise Malformed(f"nested deeper than {MAX_DEPTH} levels")
            stack.extend((child, depth + 1) for child in (v.values() if isinstance(v, dict) else v))


def malformed(verdict: Any) -> str | None:
    """What makes a verdict something no referee signed, by its shape alone, or None."""
    if not isinstance(verdict, dict):
        return "the verdict is not a JSON object"
    prov = verdict.get("provenance")
    if prov is not None and not isinstance(prov, dict):
        return f"provenance is {_kind(prov)}, not an object"
    for name in _STRINGS if prov else ():
        if prov.get(name) is not None and not isinstance(prov[name], str):
            return f"provenance.{name} is {_kind(prov[name])}, not a string or null"
    revision = (prov or {}).get("revision")
    if revision is not None and (not isinstance(revision, int) or isinstance(revision, bool)):
        return f"provenance.revision is {_kind(revision)}, not a whole number or null"
    if verdict.get("signature") is not None and not isinstance(verdict["signature"], str):
        return f"signature is {_kind(verdict['signature'])}, not a string or null"
    if not isinstance(verdict.get("deals", []), list):
        return f"deals is {_kind(verdict['deals'])}, not a list"
    return None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")


# -- keys ---------------------------------------------------------------------------------

def load_keys(given: list[str]) -> tuple[dict[str, Key], str]:
    """The keys to trust, by id, and where they came from: each --key (a saved GET /v1/keys
    answer, a key ring file, a PEM public key file, or a public key as base64url), and no
    other: a key ring lying in the working directory (or named by the environment) is not
    trusted unless named."""
    keys: list[Key] = []
    for text in given:
        keys += _keys_of(text)
    return {k.id: k for k in keys}, "the keys given" if given else "no key"


def _keys_of(text: str) -> list[Key]:
    path = Path(text)
    if path.is_file():
        content = path.read_text(encoding="utf-8")
        if "BEGIN PUBLIC KEY" in content:
            return [_pem_key(content, text)]
        return read_keys(content, text)
    try:
        raw = unb64(text.strip())
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise RingError(f"--key {text}: neither a file nor a public key (base64url of 32 bytes, as GET /v1/keys gives)")
    return [parse_key({"public_key": text.strip()}, "--key")]


def _pem_key(content: str, where: str) -> Key:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from referee.verdict_signing import b64

    try:
        public = serialization.load_pem_public_key(content.encode())
    except ValueError as exc:
        raise RingError(f"{where}: not a PEM public key ({exc})") from None
    if not isinstance(public, Ed25519PublicKey):
        raise RingError(f"{where}: not an Ed25519 key")
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return parse_key({"public_key": b64(raw)}, where)


# -- a match's chain of revisions ----------------------------------------------------------

def places(match: Any, revisions: list[dict]) -> list[dict]:
    """Where each revision of an export's match line stands: the match, its number, and the
    revision before it in the file (its number and verdict's digest; none for the first)."""
    out, before = [], None
    for r in revisions:
        out.append({"match": match, "revision": r.get("number"), "before": before})
        signed = isinstance(r["verdict"], dict) and r["verdict"].get("signature") is not None
        before = (r.get("number"), verdict_digest(r["verdict"]) if signed else None)  # unsigned: not chained
    return out


def misplaced(prov: dict, where: dict) -> tuple[str, bool] | None:
    """Why a verdict does not stand where the file shows it, and whether that is a refusal
    (True) or only a check not made (False: signed before verdicts named their place)."""
    if "match" not in prov:
        return ("signed without its place among the match's revisions (by a referee from before signatures named "
                "it): that it belongs here was not checked", False)
    signed = (prov.get("match"), prov.get("revision"))
    if signed != (where["match"], where["revision"]):
        return (f"signed as revision {signed[1]} of match {signed[0]}, shown here as revision {where['revision']} of "
                f"match {where['match']}: moved", True)
    if "before" not in where:
        return None
    before, previous = where["before"], prov.get("previous")
    if before is None and previous is not None:
        return (f"the chain breaks before revision {where['revision']}: it was signed after a revision (digest "
                f"{previous}) that is not in the file before it: a revision was dropped", True)
    if before is not None and previous != before[1]:
        said = "as the match's first revision" if previous is None else f"after a revision whose digest is {previous}"
        here = f"has digest {before[1]}" if before[1] else "is unsigned"
        return (f"the chain breaks between revision {before[0]} and revision {where['revision']}: it was signed "
                f"{said}, and revision {before[0]} here {here}: a revision was dropped, moved or changed", True)
    return None
