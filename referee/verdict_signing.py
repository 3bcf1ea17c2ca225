"""Signed verdicts: an Ed25519 signature (RFC 8032) over the canonical form of the verdict and
its provenance, by the server's key, which anyone can check offline (`referee verify`).

The signed message is `referee-verdict-v1` and a line feed, then the SHA-256 of the RFC 8785
form of the verdict object without its `signature` member (docs/records.md, "Provenance"). A key is
named by the first 32 hex digits of the SHA-256 of its raw 32-byte public key.

The keys live in a key ring file (JSON, mode 0600): the current key with its private half,
and every key retired since with its public half and the time it was retired, so that a
verdict it signed before then still checks. `REFEREE_SIGNING_KEYS` names the file; the
embedded default (a SQLite database) keeps it next to the database (`referee.db.signing-keys`),
made on first use. A running server looks at the file as it signs (and as it lists its
keys) and reads it again when it changed (a rotation). A verdict is written with its
signature by referee/judge.py's `write`, the one writer.
Nothing here imports the web or the store.
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from referee.provenance import _SORTED, canonical, now

PREFIX = b"referee-verdict-v1\n"
ALGORITHM = "Ed25519"
RING_FORMAT = "referee-signing-keys/1"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_id(public: bytes) -> str:
    return hashlib.sha256(public).hexdigest()[:32]


def message(verdict: dict) -> bytes:
    """The bytes a verdict's signature signs."""
    return signed_bytes(canonical({k: v for k, v in verdict.items() if k != "signature"}))


def signed_bytes(canonical_form: bytes) -> bytes:
    """`referee-verdict-v1`, a line feed, then the SHA-256 of the verdict's canonical form (a
    verdict of many deals is hashed once, not twice by Ed25519's own SHA-512)."""
    return PREFIX + hashlib.sha256(canonical_form).digest()


@dataclass(frozen=True)
class Key:
    id: str
    public: bytes
    created_at: str
    retired_at: str | None = None
    revoked: bool = False
    private: bytes | None = None  # the seed; only the current key keeps it

    @property
    def status(self) -> str:
        return "revoked" if self.revoked else "current" if self.retired_at is None else "retired"

    def public_dict(self) -> dict:
        """The key as GET /v1/keys lists it."""
        return {"id": self.id, "algorithm": ALGORITHM, "public_key": b64(self.public), "created_at": self.created_at,
                "retired_at": self.retired_at, "status": self.status}

    def sign(self, data: bytes) -> str:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        signer = _private_keys.get(self.private)
        if signer is None:
            signer = _private_keys.setdefault(self.private, Ed25519PrivateKey.from_private_bytes(self.private))
        return b64(signer.sign(data))

    def holds(self, data: bytes, signature: str) -> bool:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        try:
            raw = unb64(signature)
            if b64(raw) != signature:  # one spelling only: base64 may carry ignored bits in its last character
                return False
            Ed25519PublicKey.from_public_bytes(self.public).verify(raw, data)
        except (InvalidSignature, ValueError):
            return False
        return True


_private_keys: dict = {}  # seed -> the loaded private key (loading costs a scalar multiplication)


def new_key() -> Key:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    raw = serialization.Encoding.Raw
    seed = private.private_bytes(raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    public = private.public_key().public_bytes(raw, serialization.PublicFormat.Raw)
    return Key(key_id(public), public, now(), private=seed)


class RingError(ValueError):
    """A key ring or key list that cannot be read; the message says which and why."""


def parse_key(entry: Any, where: str) -> Key:
    """One key of a ring file or of a GET /v1/keys answer."""
    try:
        public = unb64(entry["public_key"])
        if len(public) != 32:
            raise ValueError("not 32 bytes")
        private = unb64(entry["private_key"]) if entry.get("private_key") else None
        status = entry.get("status")
        return Key(key_id(public), public, entry.get("created_at") or "", entry.get("retired_at"),
                   bool(entry.get("revoked")) or status == "revoked", private)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RingError(f"{where}: not a key ({exc})") from None


def read_keys(text: str, where: str) -> list[Key]:
    """The keys of a ring file or of a saved GET /v1/keys answer."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RingError(f"{where}: not JSON ({exc})") from None
    entries = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise RingError(f"{where}: no \"keys\" list")
    return [parse_key(e, f"{where}, key {k + 1}") for k, e in enumerate(entries)]


def ring_text(keys: list[Key]) -> str:
    entries = [{**k.public_dict(), "revoked": k.revoked, "private_key": b64(k.private) if k.private else None}
               for k in keys]
    return json.dumps({"format": RING_FORMAT, "keys": entries}, indent=2) + "\n"


def _write_new(path: Path, text: str, replace_existing: bool) -> bool:
    """Write the file whole (mode 0600) under its name at once: a temporary file, then linked
    (a new file: False when another process made it first) or moved over the old one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    try:
        if replace_existing:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)
            return True
        except FileExistsError:
            return False
    finally:
        if tmp.exists():
            tmp.unlink()


def open_ring(path: Path) -> tuple[list[Key], bool]:
    """The keys of the ring at `path`, made (one new key) when there is none: (keys, made)."""
    made = False
    if not path.exists():
        made = _write_new(path, ring_text([new_key()]), replace_existing=False)
    return read_keys(path.read_text(encoding="utf-8"), str(path)), made


def rotate(path: Path, compromised: bool = False) -> tuple[Key, Key | None]:
    """Retire the current key (revoke it when `compromised`: nothing it signed checks any more)
    and make a new one: (the new key, the old one as now recorded). The old key's `retired_at`
    is no earlier than the second the new ring is in place (written again if a second began
    meanwhile): a server that took its time of signing before it saw the new ring took it
    before then, so what the old key signed still checks (Signer.current_at)."""
    keys, _ = open_ring(path)
    old = next((k for k in keys if k.status == "current"), None)
    fresh = new_key()
    while True:
        retired = None if old is None else replace(old, retired_at=now(), private=None, revoked=compromised)
        _write_new(path, ring_text([retired if k is old else k for k in keys] + [fresh]), replace_existing=True)
        if retired is None or now() == retired.retired_at:
            return fresh, retired


def ring_path(database_url: str | None) -> Path | None:
    """Where the key ring is: REFEREE_SIGNING_KEYS, else next to a SQLite database file (the
    embedded default), else nowhere (verdicts are then unsigned)."""
    named = os.environ.get("REFEREE_SIGNING_KEYS")
    if named:
        return Path(named)
    url = database_url or ""
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return None
    return Path(url[len("sqlite:///"):].split("?", 1)[0] + ".signing-keys")


def made_message(path: Path) -> str:
    return (f"referee: verdicts are signed with an Ed25519 key kept in {path} (mode 0600, made now); keep it with "
            f"the database; GET /v1/keys gives its public half (production sets REFEREE_SIGNING_KEYS)")


class Signer:
    """The server's key ring, read from its file and read again when the file changes."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._name = os.fspath(self.path)  # os.stat's, twice a signature: a Path's stat costs more
        self._keys: list[Key] | None = None
        self._stamp = None

    def keys(self) -> list[Key]:
        """The ring as its file is now (GET /v1/keys lists a new key as soon as it signs)."""
        self._fresh()
        return self._keys

    def _file(self):
        """What tells one state of the ring's file from another (a rotation replaces it whole)."""
        try:
            st = os.stat(self._name)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _fresh(self):
        """The ring as its file is now (read again if it changed); the file's stamp then."""
        stamp = self._file()
        if self._keys is None or stamp != self._stamp:
            self._read(stamp)
        return stamp

    def _read(self, stamp) -> None:
        """Read the ring again, as of `stamp` (taken before reading: a change during the read
        is read again next time). One that cannot be read (or made) signs nothing until it can:
        the verdicts say so (signature null), the log says why, and no request fails on it."""
        log = logging.getLogger("referee.verdict_signing")
        try:
            keys, made = open_ring(self.path)
        except (RingError, OSError) as exc:
            log.error("referee: verdicts are not signed: the key ring %s cannot be read: %s", self.path, exc)
            self._keys, self._stamp = [], stamp  # said once, until the file changes
            return
        if made:  # `referee serve` makes it first and says so; anyone else says it here
            log.warning(made_message(self.path))
        self._keys, self._stamp = keys, stamp

    def current(self) -> Key | None:
        return next((k for k in self.keys() if k.status == "current" and k.private), None)

    def current_at(self) -> tuple[Key | None, str]:
        """The key the ring says is current at the moment of signing, and that moment: the
        file is looked at before the moment is taken and again after; if a rotation replaced
        it meanwhile, again. A key so taken was current at that moment, which is at or before
        its `retired_at` (rotate()), so what it signs still checks."""
        for _ in range(20):
            stamp = self._fresh()
            key = next((k for k in self._keys if k.status == "current" and k.private), None)
            at = now()
            if self._file() == stamp:
                return key, at
        return None, at  # a ring rewritten without end: unsigned, never unverifiable


def sign_provenance(prov: dict, signer: Signer | None) -> Key | None:
    key, at = signer.current_at() if signer is not None else (None, None)
    if key is not None:
        prov["key"], prov["signed_at"] = key.id, at
    return key


def written_and_hashed(verdict, prov: dict) -> tuple[dict, bytes]:
    """The verdict with its provenance, each deal as JSON text in the contract's order, and the
    SHA-256 of its canonical form. Both come from each deal's dicts, built once (less than
    writing the deal twice from its values, as jsontext.dumps_verdict does), one deal at a
    time: the canonical text is hashed as it is written, never held whole."""
    digest = hashlib.sha256(b'{"deals":[')  # "deals" sorts before the verdict's other members
    texts = []
    for deal in verdict.deals:
        report = deal.as_dict()
        texts.append(orjson.Fragment(orjson.dumps(report)))
        if len(texts) > 1:
            digest.update(b",")
        digest.update(canonical_verdict(report))
    body = {**verdict.report(texts), "provenance": prov}
    digest.update(b"]," + canonical_verdict({k: v for k, v in body.items() if k != "deals"})[1:])
    return body, digest.digest()


def canonical_verdict(verdict: dict) -> bytes:
    """The canonical form of an engine verdict's dict (`Verdict.as_dict()` with its provenance,
    or a part of it)."""
    # The engine writes whole numbers only (seats, counts, indexes; the record's 3.0 is read as
    # 3) and ASCII names, so orjson's sorted text is the canonical form; a number past 2^53
    # (STRICT_INTEGER refuses it) takes the long road.
    try:
        return orjson.dumps(verdict, option=_SORTED)
    except orjson.JSONEncodeError:
        return canonical(verdict)
