"""Which core runs: the search's modules compiled (core_kernel, core_state, core_trick,
core_moves, core_pool, core_table, core_spans, core_quick, core_bounds, core_reach, core_exact, core: built by the install from those .py files and the C
types in their .pxd files wherever a C compiler and the Python headers are found; core_kernel's
.py is the engine's rule kernel, referee/engine/kernel.py), or the same .py files run as Python. Both are one source, so they give the same answers; the compiled ones
are used only when they were built from the sources beside them (the install writes their
digest to core.digest), so an edited core never runs as an older build. `REFEREE_SOLVER=python`
chooses Python whatever was built.

A compiled module takes its source's place on import (`referee.solver.core` is then the
compiled one); the Python core is also always to be had under another name,
`referee.solver.python_core.core` (`python_search()`), which loads the .py files only, so
that the tests and the bench run both in one process.

`STATE` says which runs: "compiled", "python" (nothing built, or asked for), or "stale"
(built from other sources: reinstall to rebuild).
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
MODULES = ("core_kernel", "core_kernel_play", "core_state", "core_trick", "core_moves", "core_pool", "core_table",
           "core_spans", "core_quick", "core_bounds", "core_reach", "core_exact", "core")
PY = {"core_kernel": "../engine/kernel.py", "core_kernel_play": "../engine/kernel_play.py"}  # the rule kernel: the engine's files
SOURCES = ("core_codes.py",) + tuple(PY.get(m, f"{m}.py") for m in MODULES) + tuple(f"{m}.pxd" for m in MODULES)
PYTHON = __name__.rpartition(".")[0] + ".python_core"


def source(module: str) -> Path:
    """The .py file of a core module."""
    return HERE / PY.get(module, f"{module}.py")


def source_digest() -> str:
    """The digest of what the compiled core is built from (setup.py writes the same)."""
    h = hashlib.sha256()
    for name in SOURCES:
        h.update((HERE / name).read_bytes())
    return h.hexdigest()


class _PythonCore(importlib.abc.MetaPathFinder):
    """`referee.solver.python_core.X` is referee/solver/X.py (the kernel: referee/engine/kernel.py),
    always as Python."""

    def find_spec(self, name, path, target=None):
        if name == PYTHON:
            return importlib.machinery.ModuleSpec(name, None, is_package=True)
        if name.startswith(PYTHON + "."):
            file = source(name.rpartition(".")[2])
            if file.exists():
                return importlib.util.spec_from_file_location(name, file)
        return None


def python_search():
    """The core's Search run as Python, whatever was built."""
    if not any(isinstance(f, _PythonCore) for f in sys.meta_path):
        sys.meta_path.insert(0, _PythonCore())
    return importlib.import_module(PYTHON + ".core").Search


def compiled_files() -> bool:
    return all(any((HERE / (m + suffix)).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
               for m in MODULES)


def _choose():
    if os.environ.get("REFEREE_SOLVER") == "python" or not compiled_files():
        return python_search(), "python"
    built = HERE / "core.digest"
    if not built.exists() or built.read_text().strip() != source_digest():
        return python_search(), "stale"
    from .core import Search
    return Search, "compiled"


Search, STATE = _choose()
COMPILED = STATE == "compiled"
