"""Reading record files for the command line: a record, a list of records, or JSON Lines
(one record per line, as `referee export` writes), each item with its file and line."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

from referee import jsontext


class Item(NamedTuple):
    file: str
    line: int | None   # the line (JSON Lines) or the position (a list), 1-based; None: the whole file
    data: Any          # the parsed JSON, the exception that kept it from being read, or (unparsed) bytes

    @property
    def where(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


def read_items(paths: list[str], loads: Callable[[bytes], Any] = jsontext.loads) -> Iterator[Item]:
    """Every item of the files, parsed (by `loads`, which raises jsontext.NotJSON)."""
    return (parsed(unit, loads) for unit in read_units(paths, loads))


def read_units(paths: list[str], loads: Callable[[bytes], Any] = jsontext.loads) -> Iterator[Item]:
    """Every item of the files; a JSON Lines line is left as its bytes (`parsed` reads it),
    so that the reading can be shared out between processes."""
    for path in paths:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            yield Item(path, None, OSError(f"cannot read: {exc.strerror}"))
            continue
        yield from _units(path, raw, loads)


def parsed(unit: Item, loads: Callable[[bytes], Any] = jsontext.loads) -> Item:
    if not isinstance(unit.data, bytes):
        return unit
    try:
        return unit._replace(data=loads(unit.data))
    except jsontext.NotJSON as exc:
        return unit._replace(data=exc)


def _units(path: str, raw: bytes, loads: Callable[[bytes], Any]) -> Iterator[Item]:
    if not path.endswith((".jsonl", ".ndjson")):
        try:
            data = loads(raw)
        except jsontext.NotJSON as exc:
            if not _looks_like_lines(raw):
                yield Item(path, None, exc)
                return
        else:
            if isinstance(data, list):
                yield from (Item(path, n, record) for n, record in enumerate(data, 1))
            else:
                yield Item(path, None, data)
            return
    for n, line in enumerate(raw.splitlines(), 1):
        if line.strip():
            yield Item(path, n, line)


def _looks_like_lines(raw: bytes) -> bool:
    """A file of several JSON values, one per line, whatever its name."""
    first = raw.lstrip().split(b"\n", 1)[0]
    try:
        jsontext.loads(first)
    except jsontext.NotJSON:
        return False
    return b"\n" in raw.strip()


def record_of(data: Any) -> Any:
    """The record in an item: the item itself, or a `referee export` match line's record
    (None for an export's tournament line, which holds no record)."""
    if isinstance(data, dict) and data.get("kind") == "match" and "record" in data:
        return data["record"]
    if isinstance(data, dict) and data.get("kind") == "tournament":
        return None
    return data


class Progress:
    """A progress bar on stderr, on a terminal only (or with REFEREE_PROGRESS=1)."""

    def __init__(self, total: int, label: str = "", least: int = 0):
        self.total, self.label = total, label
        on_terminal = sys.stderr.isatty() or os.environ.get("REFEREE_PROGRESS") == "1"
        self.on = on_terminal and total >= least
        self.shown = -1

    def show(self, done: int) -> None:
        if not self.on:
            return
        width = 30
        filled = width * done // max(self.total, 1)
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        sys.stderr.write(f"\r{self.label}[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}")
        sys.stderr.flush()

    def done(self) -> None:
        if self.on:
            sys.stderr.write("\n")
