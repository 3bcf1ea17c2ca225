"""The maps of the code are true. The README's (its Layout section): every path it names exists,
and every module and folder at the top of referee/ is named in it. The engine's (its package
docstring, and deal.py's and match.py's of the modules they call): every module it names
exists, and every module of the engine is named.

An entry starts at the line's first column with the paths it is about (`referee/store/`,
`referee/provenance.py, referee/verdict_signing.py`); the file names in its text are in the
entry's folder (`delivery.py` under `referee/store/`), or the folder of the file it is about
(`settlers.py` beside `referee/budget.py`), unless they say their own folder."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:py|js|css|html|md|json)|(?:[\w-]+/)+)(?![\w])")


def layout(readme: str) -> str:
    section = readme.split("\n## Layout\n", 1)[1]
    return section.split("```\n", 2)[1]


def entries(block: str) -> list[tuple[list[str], str]]:
    """Each entry's head (the paths it is about) and its text."""
    found: list[tuple[list[str], str]] = []
    for line in block.splitlines():
        if line and not line[0].isspace():
            head, _, text = re.match(r"((?:\S+,? )*?\S+/?,?)(\s{2,}|$)(.*)", line).group(1, 2, 3)
            found.append(([h.rstrip(",") for h in head.split()], text))
        elif found:
            found[-1] = (found[-1][0], found[-1][1] + " " + line.strip())
    return found


def names_of(head: list[str], text: str) -> list[str]:
    """The paths an entry's text names: a folder as written, a file name in the folder the
    text named last (`referee/static/ (referee.js ...)`), else the entry's."""
    folder = head[0] if head[0].endswith("/") else str(Path(head[0]).parent) + "/"
    paths = []
    for name in NAME.findall(text):
        if name.endswith("/"):
            paths.append(name)
            folder = name
        else:
            paths.append(name if "/" in name else folder + name)
    return paths


def unknown_paths(block: str, root: Path) -> list[str]:
    missing = []
    for head, text in entries(block):
        missing += [h for h in head if not (root / h).exists()]
        missing += [f"{p} (in {head[0]})" for p in names_of(head, text) if not (root / p).exists()]
    return missing


def unnamed(block: str, package: Path) -> list[str]:
    """The package's modules and folders at its top that no entry names."""
    named: set[str] = set()
    for head, text in entries(block):
        named.update(head)
        named.update(names_of(head, text))
    top = [p for p in package.iterdir() if p.name != "__pycache__" and (p.is_dir() or p.suffix == ".py")]
    wanted = [f"{package.name}/{p.name}" + ("/" if p.is_dir() else "") for p in top if p.name != "__init__.py"]
    return sorted(w for w in wanted if w not in named)


def test_every_path_the_readme_map_names_exists():
    assert unknown_paths(layout((ROOT / "README.md").read_text()), ROOT) == []


def test_every_module_and_folder_of_referee_is_in_the_readme_map():
    assert unnamed(layout((ROOT / "README.md").read_text()), ROOT / "referee") == []


def test_the_map_check_sees_a_name_that_is_gone_and_a_module_left_out(tmp_path):
    (tmp_path / "referee" / "store").mkdir(parents=True)
    for name in ("referee/__init__.py", "referee/app.py", "referee/serving.py", "referee/store/db.py"):
        (tmp_path / name).write_text("")
    block = ("referee/app.py    the application; serving.py: how it is served\n"
             "referee/store/    the store: db.py (engines), delivery.py (the worker)\n"
             "referee/records.py  the old record validation\n")
    assert unknown_paths(block, tmp_path) == ["referee/store/delivery.py (in referee/store/)", "referee/records.py"]
    assert unnamed(block.replace("; serving.py: how it is served", ""), tmp_path / "referee") == ["referee/serving.py"]
    assert unnamed(block, tmp_path / "referee") == []


ENGINE = ROOT / "referee" / "engine"


def docstring_names(path: Path) -> set[str]:
    return set(re.findall(r"\b(\w+\.py)\b", ast.get_docstring(ast.parse(path.read_text())) or ""))


def test_the_engine_maps_name_its_modules_and_only_those():
    on_disk = {p.name for p in ENGINE.glob("*.py")} - {"__init__.py"}
    assert docstring_names(ENGINE / "__init__.py") == on_disk
    for room in ("deal.py", "match.py"):
        assert docstring_names(ENGINE / room) - {room} <= on_disk, room
