"""Webhook signing secrets at rest: sealed with Fernet (the `cryptography` package) under a
key from the environment, REFEREE_SECRET_KEY (any passphrase; a Fernet key is derived from it).

Without REFEREE_SECRET_KEY the store refuses to create webhooks, unless REFEREE_DEV=1 says
this is a developer's machine (then a fixed, public development key is used, and said so).
Secrets stored in clear by an older version are still read, and sealed when rotated.
"""
from __future__ import annotations

import base64
import hashlib
import os

from cryptography.fernet import Fernet, InvalidToken

PREFIX = "enc:v1:"
_DEV_PASSPHRASE = "referee development key: not for production"


class SecretKeyMissing(RuntimeError):
    """REFEREE_SECRET_KEY is not set outside development mode."""


def _fernet() -> Fernet:
    passphrase = os.environ.get("REFEREE_SECRET_KEY")
    if not passphrase:
        if os.environ.get("REFEREE_DEV") != "1":
            raise SecretKeyMissing("webhook secrets are stored encrypted: set REFEREE_SECRET_KEY "
                                   "(or REFEREE_DEV=1 on a developer's machine)")
        passphrase = _DEV_PASSPHRASE
    return Fernet(base64.urlsafe_b64encode(hashlib.sha256(passphrase.encode()).digest()))


def seal(secret: str) -> str:
    return PREFIX + _fernet().encrypt(secret.encode()).decode()


def unseal(stored: str) -> str:
    if not stored.startswith(PREFIX):
        return stored  # stored in clear before secrets were sealed
    try:
        return _fernet().decrypt(stored[len(PREFIX):].encode()).decode()
    except InvalidToken:
        raise SecretKeyMissing("a webhook secret cannot be opened with this REFEREE_SECRET_KEY") from None


def local_key(url: str) -> tuple[str, str] | None:
    """The embedded default (SQLite) without REFEREE_SECRET_KEY: a passphrase kept in a file
    next to the database (mode 0600), made on first use: (passphrase, what to log once, or "").
    None when REFEREE_SECRET_KEY is set or the database is not a SQLite file (production sets
    the variable)."""
    if os.environ.get("REFEREE_SECRET_KEY") or not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return None
    from pathlib import Path
    import secrets

    path = Path(url[len("sqlite:///"):].split("?", 1)[0] + ".secret-key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip(), ""
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        passphrase = secrets.token_urlsafe(32)
        out.write(passphrase + "\n")
    return passphrase, (f"referee serve: REFEREE_SECRET_KEY is not set: webhook secrets are sealed with a key kept "
                        f"in {path} (mode 0600, made now); keep it with the database (production sets the variable)")
