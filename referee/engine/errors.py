"""Exceptions that say where and why."""
from __future__ import annotations


class RefereeError(ValueError):
    """Base of every error the engine raises."""


class InvalidCardError(RefereeError):
    """Text that is not a card or a suit."""


class OptionError(RefereeError):
    """An unknown preset, option, or a bad option value."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


class RecordFormatError(RefereeError):
    """A record whose shape is wrong (missing fields, wrong types)."""

    def __init__(self, message: str, pointer: str = ""):
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.detail = message


class RecordError(RefereeError):
    """A record that describes no game that could have been played."""

    def __init__(self, code: str, message: str, event: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
