"""Importing a module changes nothing (issue 30).

No module of referee/, when imported, fills a registry or changes a value another module holds
(as `referee.engine.settlement` once was: the solver registered itself there when `import
referee` ran), nor the process's shared state: the environment, logging, warnings, the
garbage collector, signal handlers, the import system, files.

A fresh Python (this file run as a script) imports every module of the package one after the
other, first the libraries they import, then the package's modules by name (and, in a second
fresh Python, in the reverse order, so that each module is also imported before the others).
A finder takes each module's fingerprint the moment its body has run: what each name binds
and what each mutable value holds (a dict's keys and values, a list's or a set's items, an
object's attributes), for the module and for the classes it defines. After each import every
module loaded so far must still have its fingerprint, and the process's state must be as
before. `EXCUSED` lists the few effects that are meant, each with its reason.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]

# module -> why it is not imported (a script) or what of its import is meant
NOT_IMPORTED = {
    "referee.cli.__main__": "`python -m referee.cli` runs the command line; it is run, never imported",
}
EXCUSED = {
    # (the module whose body changed it, what changed): why
    ("referee.solver.loader", "sys.meta_path"):
        "chooses the search core once, at import: when it is the Python core (REFEREE_SOLVER=python, or "
        "nothing built) it adds the finder of referee.solver.python_core, a name only the loader uses",
}


def test_importing_a_module_of_referee_changes_nothing_by_name_order():
    assert probe("referee", ROOT, reverse=False) == []


def test_importing_a_module_of_referee_changes_nothing_in_reverse_order():
    assert probe("referee", ROOT, reverse=True) == []


def test_the_probe_watches_every_module_of_referee():
    watched = run_probe("referee", ROOT, reverse=False)["watched"]
    on_disk = {module_name(p, ROOT) for p in (ROOT / "referee").rglob("*.py")} - set(NOT_IMPORTED)
    from referee.solver import loader  # here: the probe's own run imports nothing of referee first
    # a core module compiled from another module's source (the rule kernel) has no .py of its own
    elsewhere = {f"referee.solver.{m}" for m in loader.PY}
    assert set(watched) - elsewhere == on_disk and "referee.engine.match" in watched


# -- the probe can fail: a package whose imports change what others hold ----------------------

FAULTY = {
    "reg/__init__.py": "from . import solver\n",                   # the old referee/__init__.py
    "reg/settlement.py": textwrap.dedent("""\
        _settler = None

        def register(settler):
            global _settler
            _settler = settler
        """),
    "reg/solver.py": "from . import settlement\nsettlement.register(print)\n",
    "reg/rules.py": "RULES = {}\nclass Catalogue:\n    entries = []\n",
    "reg/extra.py": textwrap.dedent("""\
        import logging, os
        from . import rules
        rules.RULES['x'] = 1
        rules.Catalogue.entries.append('x')
        os.environ['REG_SET_AT_IMPORT'] = '1'
        logging.getLogger().setLevel(logging.DEBUG)
        open('made-at-import', 'w').close()
        """),
    "reg/clean.py": "from . import rules\nLOCAL = dict(rules.RULES)\n\ndef later():\n    rules.RULES['y'] = 2\n",
}


def test_the_probe_finds_a_registry_filled_at_import_and_each_shared_state_changed(tmp_path):
    for name, text in FAULTY.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    found = probe("reg", tmp_path, reverse=False)
    assert found == [
        "reg.solver changed reg.settlement: _settler",
        "reg.extra changed reg.rules: RULES",
        "reg.extra changed reg.rules: Catalogue.entries",
        "reg.extra changed os.environ",
        "reg.extra changed files",
        "reg.extra changed logging",
    ]


# -- the probe ---------------------------------------------------------------------------------

def probe(package: str, root: Path, reverse: bool) -> list[str]:
    found = run_probe(package, root, reverse)["found"]
    return [f"{mod} changed {what}" for mod, what in found if (mod, what) not in EXCUSED]


def run_probe(package: str, root: Path, reverse: bool) -> dict:
    """`found`: [module whose body made the change, what changed]; `watched`: the modules whose
    bodies ran under the watch."""
    args = [sys.executable, __file__, package, str(root), "reverse" if reverse else "forward"]
    out = subprocess.run(args, capture_output=True, text=True, cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(package: str, root: Path) -> list[str]:
    names = {module_name(p, root) for p in (root / package).rglob("*.py")}
    return sorted(names - set(NOT_IMPORTED))


def libraries_of(package: str, root: Path) -> list[str]:
    """What the package's modules import from outside it when their bodies run (at the top, or
    under a top-level `if`, `try` or `with`; not in a function or class), imported before the
    snapshot: a library's own import effects are not the package's."""
    names: set[str] = set()
    for path in (root / package).rglob("*.py"):
        for node in _body_statements(ast.parse(path.read_text()).body):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] != package)


def _body_statements(body: list[ast.stmt]):
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for part in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []),
                         *[h.body for h in getattr(node, "handlers", [])]):
                yield from _body_statements(part)


def _run_as_probe(package: str, root: str, order: str) -> None:
    import importlib
    import os
    import tempfile

    sys.path.insert(0, root)
    for name in libraries_of(package, Path(root)):
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # an optional library: a module that needs it says so when it is imported
    names = modules_of(package, Path(root))
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        os.environ["TMPDIR"] = tempfile.tempdir = scratch
        print(json.dumps(_import_each(package, names[::-1] if order == "reverse" else names)))


def _import_each(package: str, names: list[str]) -> dict:
    import importlib

    finder = _Fingerprinter(package)
    sys.meta_path.insert(0, finder)
    finder.watch = watch = _Watch()
    for name in names:
        importlib.import_module(name)
    return {"found": watch.found, "watched": sorted(watch.taken)}


class _Watch:
    """What changed, and whose body was running when it did: checked as each module's body
    starts (the change is the importer's) and ends (its own)."""

    def __init__(self):
        self.found: list[tuple[str, str]] = []
        self.taken: dict[str, dict] = {}   # module -> its fingerprint when last checked
        self.running: list[str] = []       # the modules whose bodies are running, innermost last
        self.state = _process_state()

    def check(self) -> None:
        doer = self.running[-1] if self.running else "the probe"
        for mod, fp in self.taken.items():
            now = _fingerprint(sys.modules[mod])
            self.found += [(doer, f"{mod}: {k}") for k in {**fp, **now} if fp.get(k) != now.get(k)]
            self.taken[mod] = now
        state = _process_state()
        self.found += [(doer, what) for what in state if state[what] != self.state[what]]
        self.state = state

    def run(self, module, body) -> None:
        self.check()
        self.running.append(module.__name__)
        try:
            body(module)
            self.check()
        finally:
            self.running.pop()
        self.taken[module.__name__] = _fingerprint(module)


class _Fingerprinter:
    """A finder that lets the usual finders find the package's modules, then has the watch
    run each one's body."""

    def __init__(self, package: str):
        self.package = package
        self.watch: _Watch | None = None

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] != self.package:
            return None
        import importlib.util

        place = sys.meta_path.index(self)
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(place, self)
        if spec is None or spec.loader is None:
            return spec
        body = spec.loader.exec_module
        spec.loader.exec_module = lambda module: self.watch.run(module, body)
        return spec


_MUTABLE = (dict, list, set, bytearray)


def _contents(value) -> object:
    """What a mutable value holds, by identity; an object's attributes (one level). Read by
    type, never through the value's own attributes (a proxy such as flask's `current_app`
    raises outside an application)."""
    kind = type(value)
    if issubclass(kind, dict):
        return tuple((k, id(v)) for k, v in value.items())
    if issubclass(kind, (list, set)):
        return sorted(map(id, value))
    if issubclass(kind, bytearray):
        return bytes(value)
    if issubclass(kind, (type, ModuleType)) or callable(value) or kind.__module__.startswith("werkzeug.local"):
        return None
    try:
        attrs = object.__getattribute__(value, "__dict__")
    except (AttributeError, TypeError):
        return None
    return tuple((k, id(v), _contents(v) if issubclass(type(v), _MUTABLE) else None) for k, v in attrs.items())


def _fingerprint(module) -> dict[str, object]:
    """Each name's value by identity and what it holds; for the classes the module defines, the
    same of their attributes. A module's own dunders (`__spec__`, which the import system
    updates) by identity only."""
    prefix = module.__name__ + "."
    fp: dict[str, object] = {}
    for name, value in vars(module).items():
        if name == "__builtins__" or (type(value) is ModuleType and value.__name__ == prefix + name):
            continue  # a submodule is bound on its package when it is imported
        fp[name] = (id(value), None if name.startswith("__") else _contents(value))
        if issubclass(type(value), type) and value.__module__ == module.__name__:
            for attr, held in vars(value).items():
                if attr not in ("__dict__", "__weakref__", "__doc__"):
                    fp[f"{name}.{attr}"] = (id(held), _contents(held))
    return fp


def _process_state() -> dict[str, object]:
    import atexit
    import gc
    import logging
    import os
    import random
    import signal
    import socket
    import threading
    import warnings

    loggers = {name: (lg.level, [id(h) for h in lg.handlers], lg.propagate, lg.disabled)
               for name, lg in logging.Logger.manager.loggerDict.items() if isinstance(lg, logging.Logger)
               and (lg.level, lg.handlers, lg.propagate, lg.disabled) != (logging.NOTSET, [], True, False)}
    root = logging.getLogger()
    umask = os.umask(0o22)
    os.umask(umask)
    return {
        "os.environ": dict(os.environ),
        "os.getcwd": os.getcwd(),
        "os.umask": umask,
        "files": sorted(str(p) for p in Path(os.getcwd()).rglob("*")),
        "logging": (root.level, [id(h) for h in root.handlers], loggers, logging.root.manager.disable),
        "warnings.filters": list(warnings.filters),
        "gc": (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()),
        "sys limits": (sys.getrecursionlimit(), sys.getswitchinterval()),
        "sys.path": list(sys.path),
        "sys.meta_path": [id(f) for f in sys.meta_path],
        "sys.path_hooks": list(sys.path_hooks),
        "hooks": (sys.excepthook, sys.displayhook, threading.excepthook, sys.getprofile(), sys.gettrace()),
        "signals": [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1,
                                                  signal.SIGUSR2, signal.SIGCHLD, signal.SIGPIPE)],
        "threads": sorted(t.name for t in threading.enumerate()),
        "atexit": atexit._ncallbacks(),
        "random": random.getstate(),
        "socket.getdefaulttimeout": socket.getdefaulttimeout(),
    }


if __name__ == "__main__":
    _run_as_probe(sys.argv[1], sys.argv[2], sys.argv[3])
