"""A request arriving in a serving worker's poller (referee/worker.py): its head, then its
body, received without a thread until it is all in (or its first BUFFERED_BODY bytes are).

The poller only decides when a thread takes the request; gunicorn's parser then reads it all
again from the bytes received, so anything this module finds unclear (a framing it does not
know, a malformed chunk) goes to a thread at once and the parser refuses it.

- A body with a `Content-Length` is received up to BUFFERED_BODY bytes.
- A chunked body is received up to its terminating chunk and trailers, or BUFFERED_BODY bytes
  of its chunks.
- `Expect: 100-continue` (HTTP/1.1): the poller answers `100 Continue` once the head is in and
  receives the body as above (gunicorn would answer it from the request's thread; it is then
  not sent twice).

A body longer than BUFFERED_BODY is read on by the request's thread. An answer that leaves
the body unread says `Connection: close` (closing_unread).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from gunicorn.http.body import DEFAULT_MAX_CHUNK_SIZE_LINE, DEFAULT_MAX_TRAILER_SECTION, ChunkedReader, LengthReader

BUFFERED_BODY = 1024 * 1024   # the most of a body received before a thread takes it (the API's body limit)
HEAD_LIMIT = 64 * 1024        # a head longer than this goes to a thread at once (the parser refuses it)
DISCARDED = 64 * 1024         # the most of a body left unread that gunicorn discards to keep the connection
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"

_FIELD = re.compile(rb"\r\n([^:\r\n]+):[ \t]*([^\r\n]*)")
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")


class Framing(NamedTuple):
    length: int | None  # the Content-Length (0 for none); None: chunked
    expects: bool       # `Expect: 100-continue` in HTTP/1.1: answered before the body comes


def framing(head: bytes) -> Framing | None:
    """How the body after this head is framed, or None to hand the request to a thread now
    (anything unclear: the parser judges it)."""
    length = chunked = expect = None
    for name, value in _FIELD.findall(head):
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"transfer-encoding":
            if chunked or value != b"chunked":
                return None
            chunked = True
        elif name == b"expect":
            if expect or value != b"100-continue":
                return None
            expect = True
        elif name == b"content-length":
            if length is not None or not value.isdigit():
                return None
            length = int(value)
    if chunked and length is not None:
        return None
    http11 = head.split(b"\r\n", 1)[0].endswith(b" HTTP/1.1")
    return Framing(None if chunked else length or 0, bool(expect) and http11)


class Arrival:
    """A request being received in the poller: `until` its deadline (at first the idle
    connection's), `began` its first byte."""

    def __init__(self, conn, idle_until: float):
        self.conn, self.data, self.until, self.began = conn, bytearray(), idle_until, None
        self.frame: Framing | None = None
        self.body_at = self.scan = 0  # where the body starts; a chunked body's next chunk
        self.continued = False        # `100 Continue` sent
        self.whole = False            # all of it is in (not cut at BUFFERED_BODY)

    def complete(self) -> bool:
        """Whether a thread should take the request now: all of it is in, or as much as the
        poller receives, or it goes to the parser as it is."""
        if self.frame is None:
            end = self.data.find(b"\r\n\r\n")
            if end < 0:
                self.whole = len(self.data) >= HEAD_LIMIT
                return self.whole
            self.frame = framing(bytes(self.data[:end + 2]))
            if self.frame is None:
                self.whole = True
                return True
            self.body_at = self.scan = end + 4
        received = len(self.data) - self.body_at
        if self.frame.length is not None:
            self.whole = received >= self.frame.length
        else:
            self.whole = self._chunks_end()
        return self.whole or received >= BUFFERED_BODY

    def wants_continue(self) -> bool:
        """Whether the client waits for `100 Continue` before it sends the body."""
        return self.frame is not None and self.frame.expects and not self.continued and not self.whole

    def _chunks_end(self) -> bool:
        """Whether the chunked body is all in (or malformed: the parser says so)."""
        data = self.data
        while True:
            line_end = data.find(b"\r\n", self.scan)
            if line_end < 0:
                return len(data) - self.scan > DEFAULT_MAX_CHUNK_SIZE_LINE
            size = bytes(data[self.scan:line_end]).split(b";", 1)[0].strip(b" \t")
            if not _CHUNK_SIZE.fullmatch(size):
                return True
            if int(size, 16) == 0:  # the last chunk, then trailers up to an empty line
                return data.find(b"\r\n\r\n", line_end) >= 0 or len(data) - line_end > DEFAULT_MAX_TRAILER_SECTION
            end = line_end + 2 + int(size, 16) + 2
            if len(data) < end:
                return False
            self.scan = end


def body_left(environ: dict) -> bool:
    """Whether the request's body is left unread, its rest not already here to discard (then
    the connection cannot serve another request: gunicorn would close it after the answer)."""
    reader = getattr(environ.get("wsgi.input"), "reader", None)
    if isinstance(reader, ChunkedReader):
        return reader.parser is not None
    if not isinstance(reader, LengthReader) or reader.length == 0:
        return False
    with reader.unreader.buf.getbuffer() as arrived:
        return reader.length > min(arrived.nbytes, DISCARDED)


def closing_unread(app, environ: dict, start_response):
    """The app, its answer saying `Connection: close` when the body is left unread (a 403 or a
    415 sent before reading it, a 413 past the limit), not keep-alive and then a close under the
    client's next request."""
    def start(status, headers, exc_info=None):
        if body_left(environ):
            start_response.__self__.force_close()
        return start_response(status, headers, exc_info)
    return app(environ, start)
