"""The compiled core: the solver's core modules (referee/solver/core*.py) compiled by Cython
with the C types of their .pxd files, each in its source's place. It is optional: without a
C compiler or the Python headers the install goes on, and the same search runs as Python
(referee/solver/loader.py chooses). The digest of the sources goes beside the built modules
(core.digest), so that a core edited since is never run as an older build."""
import hashlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOLVER = os.path.join("referee", "solver")
DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False,
              "language_level": 3}


# as referee/solver/loader.py has them (a test says so); the rule kernel's sources are the
# engine's (referee/engine/kernel.py, kernel_play.py), compiled under the solver's names core_kernel*
MODULES = ("core_kernel", "core_kernel_play", "core_state", "core_trick", "core_moves", "core_pool", "core_table",
           "core_spans", "core_quick", "core_bounds", "core_reach", "core_exact", "core")
PY = {"core_kernel": "../engine/kernel.py", "core_kernel_play": "../engine/kernel_play.py"}
SOURCES = ("core_codes.py",) + tuple(PY.get(m, f"{m}.py") for m in MODULES) + tuple(f"{m}.pxd" for m in MODULES)


def digest() -> str:
    h = hashlib.sha256()
    for name in SOURCES:
        with open(os.path.join(HERE, SOLVER, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _write_digest(folder: str) -> None:
    with open(os.path.join(folder, "core.digest"), "w") as f:
        f.write(digest() + "\n")


class OptionalBuildExt(build_ext):
    """Builds the compiled core where it can; says so and goes on where it cannot."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler at all
            self._skipped(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # no compiler, no headers, a failed compile
            self._skipped(exc)
            return
        _write_digest(os.path.dirname(self.get_ext_fullpath(ext.name)))

    def copy_extensions_to_source(self):
        # an editable install (or build_ext --inplace) puts the module in the source tree
        super().copy_extensions_to_source()
        if all(os.path.exists(os.path.join(HERE, SOLVER, self.get_ext_filename(m))) for m in MODULES):
            _write_digest(os.path.join(HERE, SOLVER))

    def get_outputs(self):
        outs = super().get_outputs()
        return outs + sorted({os.path.join(os.path.dirname(o), "core.digest") for o in outs
                              if os.path.basename(o).startswith("core")})

    def _skipped(self, exc):
        sys.stderr.write(f"referee: the compiled solver core was not built ({exc}); "
                         "perfect play runs as Python (the same search, slower)\n")


def extensions():
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.stderr.write("referee: Cython is not installed; perfect play runs as Python\n")
        return []
    exts = [Extension(f"referee.solver.{m}", [os.path.normpath(os.path.join(SOLVER, PY.get(m, f"{m}.py")))],
                      extra_compile_args=["-O3"]) for m in MODULES]
    build_dir = os.path.join("build", "cython")
    # translate again whenever any source changed since the C files in build_dir were made
    # (Cython follows a module's own .pxd, not always the ones it cimports)
    stamp = os.path.join(build_dir, "core.digest")
    fresh = os.path.exists(stamp) and open(stamp).read() == digest()
    try:
        found = cythonize(exts, compiler_directives=DIRECTIVES, build_dir=build_dir, quiet=True, force=not fresh)
        os.makedirs(build_dir, exist_ok=True)
        with open(stamp, "w") as f:
            f.write(digest())
        return found
    except Exception as exc:
        sys.stderr.write(f"referee: Cython could not translate the solver core ({exc}); perfect play runs as Python\n")
        return []


if __name__ == "__main__":  # as pip's build runs it (a test imports it for MODULES)
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
