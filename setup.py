"""The compiled core: referee/solver/core.py compiled by Cython, with the C types of
referee/solver/_ccore.pxd, as the module referee.solver._ccore. It is optional: without a C
compiler or the Python headers the install goes on, and the same search runs as Python
(referee/solver/loader.py chooses). The digest of the sources goes beside the built module,
so that a core.py edited since is never run as an older build."""
import hashlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOLVER = os.path.join("referee", "solver")
DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False,
              "language_level": 3}


def digest() -> str:
    h = hashlib.sha256()
    for name in ("core.py", "_ccore.pxd"):
        with open(os.path.join(HERE, SOLVER, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _write_digest(folder: str) -> None:
    with open(os.path.join(folder, "_ccore.digest"), "w") as f:
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
        if os.path.exists(os.path.join(HERE, SOLVER, self.get_ext_filename("_ccore"))):
            _write_digest(os.path.join(HERE, SOLVER))

    def get_outputs(self):
        outs = super().get_outputs()
        return outs + [os.path.join(os.path.dirname(o), "_ccore.digest") for o in outs if "_ccore" in o]

    def _skipped(self, exc):
        sys.stderr.write(f"referee: the compiled solver core was not built ({exc}); "
                         "perfect play runs as Python (the same search, slower)\n")


def extensions():
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.stderr.write("referee: Cython is not installed; perfect play runs as Python\n")
        return []
    ext = Extension("referee.solver._ccore", [os.path.join(SOLVER, "core.py")], extra_compile_args=["-O3"])
    build_dir = os.path.join("build", "cython")
    # Cython tracks core.py's own dependencies, not _ccore.pxd's: translate again whenever
    # either changed since the C file in build_dir was made
    stamp = os.path.join(build_dir, "_ccore.digest")
    fresh = os.path.exists(stamp) and open(stamp).read() == digest()
    try:
        found = cythonize([ext], compiler_directives=DIRECTIVES, build_dir=build_dir, quiet=True, force=not fresh)
        os.makedirs(build_dir, exist_ok=True)
        with open(stamp, "w") as f:
            f.write(digest())
        return found
    except Exception as exc:
        sys.stderr.write(f"referee: Cython could not translate the solver core ({exc}); perfect play runs as Python\n")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
