"""Which core runs: core.py compiled (the module `_ccore`, built by the install from
core.py and the types in _ccore.pxd wherever a C compiler and the Python headers are
found), or core.py itself. Both are the same source, so they give the same answers; the
compiled one is used only when it was built from the core.py and _ccore.pxd beside it
(the install writes their digest to _ccore.digest), so an edited core.py never runs as
an older build. `REFEREE_SOLVER=python` chooses the Python core whatever was built.

`STATE` says which: "compiled", "python" (nothing built, or asked for), or "stale" (built
from another core.py: reinstall to rebuild).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .core import Search as PythonSearch

HERE = Path(__file__).parent


def source_digest() -> str:
    """The digest of what the compiled core is built from (setup.py writes the same)."""
    h = hashlib.sha256()
    for name in ("core.py", "_ccore.pxd"):
        h.update((HERE / name).read_bytes())
    return h.hexdigest()


def _choose():
    if os.environ.get("REFEREE_SOLVER") == "python":
        return PythonSearch, "python"
    try:
        from ._ccore import Search as CompiledSearch  # type: ignore[import-not-found]
    except ImportError:
        return PythonSearch, "python"
    built = HERE / "_ccore.digest"
    if not built.exists() or built.read_text().strip() != source_digest():
        return PythonSearch, "stale"
    return CompiledSearch, "compiled"


Search, STATE = _choose()
COMPILED = STATE == "compiled"
