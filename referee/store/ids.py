"""Ids, ETags and page cursors: the names a client is given and sends back."""
from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime, timezone

from referee.engine.errors import shown

from .errors import Invalid, NotFound
from .models import Match

INT_MAX = 2**31 - 1  # the largest integer column value on every backend


def new_id() -> str:
    return uuid.uuid4().hex


def plausible_id(value: str, what: str) -> None:
    """Ids are 32 hex digits (ours) or a restored export's; anything with NUL or far too long
    is no id of ours, on any backend (PostgreSQL cannot even compare text holding NUL)."""
    if "\x00" in value or len(value) > 64:
        raise NotFound(f"no {what} {shown(value)}")


def etag_of(match: Match) -> str:
    return f'"{match.id}.{match.revision}"'


KEYED = ".full"  # the end of the ETag of a view shown with a key


def keyed(tag: str) -> str:
    """The ETag of the key holder's view of the same state: never the public view's, so no
    cache can answer one reader with the other's."""
    return tag[:-1] + KEYED + '"'


def strip_etag(tag: str) -> str:
    """An If-Match value as the match's ETag: weak prefix dropped; quotes added when a client
    copied the ETag without them (`ID.3` means `"ID.3"`); the keyed view's and the public
    view's ETag of one revision are the same precondition."""
    tag = tag.strip()
    tag = tag[2:] if tag.startswith("W/") else tag
    tag = tag if tag.startswith('"') else f'"{tag}"'
    return tag[:-len(KEYED) - 1] + '"' if tag.endswith(KEYED + '"') else tag


def encode_cursor(row) -> str:
    return base64.urlsafe_b64encode(f"{row.created_at.isoformat()}|{row.id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """A cursor this API gave out: an aware time (in range once in UTC) and an id."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, rid = raw.split("|", 1)
        moment = datetime.fromisoformat(created)
        if moment.tzinfo is None or "\x00" in rid or len(rid) > 32:
            raise ValueError(cursor)
        return moment.astimezone(timezone.utc), rid
    except (ValueError, UnicodeDecodeError, OverflowError, binascii.Error):
        raise Invalid("cursor is not one this API gave out",
                      errors=[{"pointer": "/cursor", "detail": "unknown cursor"}]) from None
