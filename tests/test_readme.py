"""The README's console examples run as written against a served app, and print what the
README shows (ids, keys and times are compared as <id>, <key>, <secret> and <time>). The
`referee` commands use the served app's database (DATABASE_URL, as on the server itself),
and the examples run in a scratch directory (with the repository's examples/), so the files
the director's walk-through writes (an export, a restored database) are its own."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from referee.app import create_app

ROOT = Path(__file__).parents[1]
SEPARATOR = "@@@ next command @@@"
NORMALISE = [
    (re.compile(r"rk_[A-Za-z0-9_-]{20,}"), "<key>"),
    (re.compile(r"rr_[A-Za-z0-9_-]{20,}"), "<read_key>"),
    (re.compile(r"whsec_[0-9a-f]{20,}"), "<secret>"),
    (re.compile(r"\b[0-9a-f]{32}\b"), "<id>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<time>"),
]


def console_blocks(text: str) -> list[list[tuple[str, list[str]]]]:
    """Each ```console block as (command, expected output lines) pairs."""
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        pairs: list[tuple[str, list[str]]] = []
        lines = body.splitlines()
        k = 0
        while k < len(lines):
            line = lines[k]
            if line.startswith("$ "):
                command = line[2:]
                while command.endswith("\\"):
                    k += 1
                    command = command + "\n" + lines[k]
                pairs.append((command, []))
            elif pairs:
                pairs[-1][1].append(line)
            k += 1
        blocks.append(pairs)
    return blocks


def normalise(text: str) -> str:
    for pattern, placeholder in NORMALISE:
        text = pattern.sub(placeholder, text)
    return text


@pytest.fixture
def served(sqlite_url):
    app = create_app({"DATABASE_URL": sqlite_url})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", sqlite_url
    server.shutdown()
    app.extensions["referee.store"].db.dispose()


def test_the_readme_examples_print_what_the_readme_shows(served, tmp_path):
    served, database = served
    pairs = [p for block in console_blocks((ROOT / "README.md").read_text(encoding="utf-8")) for p in block]
    assert len(pairs) > 10
    assert any(command.startswith(".venv/bin/referee import") for command, _ in pairs)  # the walk-through runs too
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "DATABASE_URL": database}
    script = []
    for command, _ in pairs:
        command = command.replace("http://127.0.0.1:8000", served)
        command = command.replace(".venv/bin/referee", f"{sys.executable} -m referee.cli")
        script += [command, f"echo '{SEPARATOR}'"]
    run = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    outputs = run.stdout.split(SEPARATOR + "\n")
    assert len(outputs) == len(pairs) + 1, run.stderr
    for (command, expected), got in zip(pairs, outputs):
        shown = "\n".join(line.rstrip() for line in expected).rstrip()
        printed = "\n".join(line.rstrip() for line in normalise(got).splitlines()).rstrip()
        assert printed == shown, f"$ {command}"


def test_the_readme_starts_with_the_two_commands_then_says_what_they_do():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.S)
    assert text.startswith("```sh\n") and blocks[:2] == [
        "python3.11 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/referee serve",
        "python3.11 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"]
    after = text.split("```", 4)[4].lstrip("\n").split("\n\n")[0]
    assert after.startswith("The first command") and "the second" in after
    assert "\n# referee\n" in text.split("```", 4)[4][:len(after) + 20]
    assert not re.search(r"\]\((\.\./|/)", text) and "shared/" not in text  # no link out of the repository


def test_the_engine_snippet_runs_as_printed(monkeypatch):
    """Each ```pycon block of the README, run as a doctest from the repository's root."""
    import doctest

    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```pycon\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks
    for k, body in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(body, {}, f"README pycon block {k}", "README.md", 0)
        out: list[str] = []
        result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=out.append)
        assert result.failed == 0, "".join(out)


def test_the_preset_paragraph_names_every_trump_mode_collection_scoring_and_end():
    """Its `A preset is a set of options` names every value of trump, collection and scoring,
    and every end of a deal a preset has (`end` in GET /v1/presets)."""
    from referee.engine.options import CHOICES
    from referee.engine.rulebook import explained

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme.split("\nA preset is a set of options:", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([^`]+)`", paragraph))
    ends = {preset["end"] for preset in explained()["presets"]}
    assert ends == {"seven", "pile", "thirteen", "bid", "pair"}
    assert {*CHOICES["trump"], *CHOICES["collection"], *CHOICES["scoring"], *ends} - named == set()
