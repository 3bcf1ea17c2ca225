"""Strict JSON reading shared by the API and the command line."""
from __future__ import annotations

import json
from typing import Any


class NotJSON(ValueError):
    """Text that is not (standard) JSON; the message says where and why."""


def _no_constant(name: str) -> Any:
    raise NotJSON(f"{name} is not JSON")


def loads(text: str | bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise NotJSON(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except UnicodeDecodeError:
        raise NotJSON("the text is not UTF-8") from None
    except RecursionError:
        raise NotJSON("nested too deeply") from None
