"""SHA-256 that can be put down and taken up again: the state after some bytes, as JSON, and a
hash resumed from it. A stored match keeps, with its last deal, the state of its record's and
its verdict's canonical forms up to that deal (both begin with their deals), so that a live
write hashes the deal it changed and the match's summary, not the whole match, and gets the
very digests hashing the whole would (tests/test_midstate.py).

hashlib keeps its state to itself; OpenSSL's SHA256_* functions take it as a plain struct
(SHA256_CTX: h[8], Nl, Nh, data[16], num, md_len), which libcrypto exports. The state is
written portably (the eight words, the bytes hashed, the bytes not yet a block) and checked
once against hashlib; where libcrypto cannot be loaded or disagrees, `available()` is False
and the store hashes the whole match, as before.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import struct
import sys
from functools import lru_cache

_U32 = ctypes.c_uint32


class _Context(ctypes.Structure):
    _fields_ = [("h", _U32 * 8), ("Nl", _U32), ("Nh", _U32), ("data", ctypes.c_ubyte * 64),
                ("num", ctypes.c_uint), ("md_len", ctypes.c_uint),
                ("spare", ctypes.c_ubyte * 64)]  # room, should a library's context be larger


_CONTEXT = ctypes.POINTER(_Context)
# Each function's arguments, so that a wrong type raises (ctypes.ArgumentError) instead of
# being passed as ctypes guesses (a str as its wide characters, hashed wrongly).
_SIGNATURES = {"SHA256_Init": [_CONTEXT], "SHA256_Update": [_CONTEXT, ctypes.c_char_p, ctypes.c_size_t],
               "SHA256_Final": [ctypes.POINTER(ctypes.c_ubyte), _CONTEXT]}


@lru_cache(maxsize=1)
def _library():
    name = ctypes.util.find_library("crypto") or "libcrypto.so.3"
    if sys.platform == "darwin" and os.path.realpath(name).startswith("/usr/lib/"):
        return None  # macOS's own libcrypto ends a process that loads it (Homebrew's is elsewhere)
    try:
        lib = ctypes.CDLL(name)
        for function, argtypes in _SIGNATURES.items():
            getattr(lib, function).argtypes = argtypes
            getattr(lib, function).restype = ctypes.c_int
    except (OSError, AttributeError, TypeError):
        return None
    return lib


_WORDS = struct.Struct(">8I")  # the state's words, as written
# A context: its words, bit count (low, high), a block's room (empty), the bytes in it, the
# digest's length; then the spare room, zero.
_LAYOUT = struct.Struct(f"=8I2I64x2I{ctypes.sizeof(_Context) - 112}x")


@lru_cache(maxsize=1)
def _md_len() -> int:
    """The digest's length as SHA256_Init sets it in a context."""
    fresh = _Context()
    _library().SHA256_Init(ctypes.byref(fresh))
    return fresh.md_len


class Sha256:
    """A SHA-256 being computed, from `state` (state() of another; None: from nothing)."""

    def __init__(self, state: dict | None = None):
        if state is None:
            self._ctx = _Context()
            _library().SHA256_Init(ctypes.byref(self._ctx))
            return
        # the context written whole (SHA256_Init's with the words and count put in, field by
        # field through ctypes, cost a live write as much as its hashing)
        pending = bytes.fromhex(state["pending"])
        bits = (state["length"] - len(pending)) * 8
        self._ctx = _Context.from_buffer_copy(_LAYOUT.pack(*_WORDS.unpack(bytes.fromhex(state["h"])),
                                                           bits & 0xFFFFFFFF, bits >> 32, 0, _md_len()))
        if pending:
            self.update(pending)

    def update(self, data: bytes) -> "Sha256":
        """Hash `data` too: bytes only, as hashlib (a TypeError otherwise)."""
        try:
            _library().SHA256_Update(ctypes.byref(self._ctx), data, len(data))
        except ctypes.ArgumentError as wrong:
            raise TypeError(f"Sha256.update takes bytes, not {type(data).__name__}") from wrong
        return self

    def state(self) -> dict:
        """The state so far: the words after the whole blocks, the bytes hashed, the rest."""
        num = self._ctx.num
        bits = (self._ctx.Nh << 32) | self._ctx.Nl
        return {"h": b"".join(int(w).to_bytes(4, "big") for w in self._ctx.h).hex(), "length": bits // 8,
                "pending": bytes(self._ctx.data[:num]).hex()}

    def copy(self) -> "Sha256":
        other = Sha256.__new__(Sha256)
        other._ctx = _Context.from_buffer_copy(self._ctx)
        return other

    def digest(self) -> bytes:
        out = (ctypes.c_ubyte * 32)()
        _library().SHA256_Final(out, ctypes.byref(_Context.from_buffer_copy(self._ctx)))
        return bytes(out)


@lru_cache(maxsize=1)
def available() -> bool:
    """Can a hash be resumed here, giving hashlib's digests?"""
    if _library() is None:
        return False
    try:
        text = bytes(range(256)) * 3
        for cut in (0, 1, 63, 64, 65, 200, 700):
            resumed = Sha256(Sha256().update(text[:cut]).state()).update(text[cut:])
            if resumed.digest() != hashlib.sha256(text).digest() or resumed.copy().digest() != resumed.digest():
                return False
    except (OSError, AttributeError, ValueError, TypeError, ctypes.ArgumentError):
        return False
    return True
