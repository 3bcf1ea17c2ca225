"""`referee check`: readable summary, --json, exit status 0 / 1 / 2."""
import json

from referee.cli import main
from tests.helpers import deal, ev, round_robin_hands, won_by


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_clean_record_exits_0_with_a_summary(tmp_path, capsys):
    path = write(tmp_path, "clean.json", {"preset": "double-sir", "deals": [won_by(0, [1, 3, 1, 3, 0, 2, 2], n=7)]})
    assert main(["check", path]) == 0
    out = capsys.readouterr().out
    assert "pile now 6" in out and "team 0 collects 7 tricks" in out
    assert "Next: deal 1 trick 8, seat 2 to play" in out  # deals and events counted from 1


def test_violations_exit_1_and_say_trick_and_reason(tmp_path, capsys):
    record = {"preset": "court-piece",
              "deals": [deal(0, ev("1:AH 2:2D 3:4H 0:5H"), {"suit": "S"}, round_robin_hands())]}
    assert main(["check", write(tmp_path, "revoke.json", record)]) == 1
    out = capsys.readouterr().out
    assert "violation revoke (decides the deal): trick 1, event 2: seat 2 played 2♦ on a heart lead while holding J♥" in out
    assert "result: team 1 penalty_court" in out and "next dealer: seat 2" in out
    assert "trump ♠ (called)" in out  # the suit by its symbol, as the cards are


def test_invalid_record_and_unreadable_files_exit_2(tmp_path, capsys):
    bad = write(tmp_path, "bad.json", {"preset": "court-piece", "deals": [deal(0, ev("0:AH"), {"suit": "S"})]})
    assert main(["check", bad]) == 2
    assert "error out_of_turn in deal 1 event 1" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["check", write(tmp_path, "junk.json", "{not json")]) == 2
    assert main(["check", write(tmp_path, "shape.json", {"preset": "court-piece", "deals": [{"dealer": 7}]})]) == 2
    assert "/deals/0/dealer" in capsys.readouterr().err


def test_json_flag_writes_json_lines_with_file_and_line(tmp_path, capsys):
    a = write(tmp_path, "a.json", {"preset": "court-piece", "deals": [won_by(0, [1] * 7)]})
    b = write(tmp_path, "b.json", [{"preset": "court-piece", "deals": []}, {"preset": "court-piece", "deals": [{"dealer": 9}]}])
    assert main(["check", "--json", a, b]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["file"], x["line"]) for x in lines] == [(a, None), (b, 1), (b, 2)]
    assert lines[0]["verdict"]["deals"][0]["result"]["kind"] == "court" and lines[0]["valid"]
    assert lines[2]["error"] == "/deals/0/dealer: must be a seat 0..3"


def test_json_lines_archives_and_export_files_are_read_and_j_keeps_the_order(tmp_path, capsys):
    records = [{"preset": "court-piece", "deals": [won_by(d % 4, [1] * 7)]} for d in range(40)]
    records[17] = {"preset": "court-piece", "deals": [deal(0, ev("0:AH"), {"suit": "S"})]}  # invalid
    archive = write(tmp_path, "all.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    assert main(["check", "--json", archive]) == 2
    one = capsys.readouterr().out
    assert main(["check", "--json", "-j", "3", archive]) == 2
    assert capsys.readouterr().out == one  # the same lines, in input order
    assert [json.loads(line)["line"] for line in one.splitlines()] == list(range(1, 41))
    export = write(tmp_path, "export.jsonl", "\n".join(json.dumps(x) for x in (
        {"kind": "tournament", "tournament": {"name": "t"}},
        {"kind": "match", "external_id": "m1", "record": records[0], "verdict": {}})))
    assert main(["check", export]) == 0
    assert f"{export}:2: valid record" in capsys.readouterr().out


# What `referee check` of one deal must not import: the web, the database, the page and
# rulebook renderers, and what only other commands use (serve's processes, -j N's pool, signing
# and checking signed verdicts).
NOT_FOR_CHECK = {"flask", "werkzeug", "sqlalchemy", "marshmallow", "jinja2", "markdown_it", "alembic", "psycopg",
                 "gunicorn", "cryptography", "referee.api", "referee.pages", "referee.store", "referee.verdict_signing",
                 "referee.verify", "subprocess", "multiprocessing", "referee.solver", "referee.slots",
                 # --json's provenance (its digests' hashlib), the search slots of a server, and the
                 # terminal width argparse would find with shutil (which imports the compressors)
                 "referee.provenance", "hashlib", "shutil",
                 # the other commands' modules: `referee check` builds only its own parser
                 "referee.cli.analyse", "referee.cli.database", "referee.cli.serve", "referee.cli.director",
                 "referee.cli.signatures"}


def test_check_starts_without_the_web_the_store_or_what_other_commands_need(tmp_path):
    import subprocess
    import sys

    path = write(tmp_path, "c.json", {"preset": "court-piece", "deals": [won_by(0, [1, 3, 1, 3, 0, 2, 2], n=7)]})
    code = ("import sys; from referee.cli import main; main(['check', %r]); "
            "print(sorted(n for n in %r if any(m == n or m.startswith(n + '.') for m in sys.modules)))"
            % (path, sorted(NOT_FOR_CHECK)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "valid record, 1 deal(s)" in out  # it did judge the deal
    assert out.strip().splitlines()[-1] == "[]"


def test_worst_status_of_several_files_wins(tmp_path):
    clean = write(tmp_path, "a.json", {"preset": "court-piece", "deals": []})
    assert main(["check", clean, str(tmp_path / "nope.json")]) == 2


def test_each_command_is_found_in_the_module_that_adds_it():
    import argparse

    from referee.cli import COMMANDS, MODULES, build_parser

    def commands(modules):
        sub = next(a for a in build_parser(modules)._actions if isinstance(a, argparse._SubParsersAction))
        return set(sub.choices)

    for module in MODULES:
        assert commands((module,)) == {name for name, owner in COMMANDS.items() if owner == module}, module
    assert commands(MODULES) == set(COMMANDS)


def test_help_lists_every_command_and_an_unknown_one_is_refused_by_name(capsys):
    import pytest

    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in ("check", "analyse", "verify", "signing-keys", "tournaments", "serve"))
    with pytest.raises(SystemExit) as exit_:
        main(["chek", "x.json"])
    assert exit_.value.code == 2
    assert "invalid choice: 'chek'" in capsys.readouterr().err


def test_check_json_still_writes_the_provenance_it_imports_late(tmp_path, capsys):
    path = write(tmp_path, "c.json", {"preset": "court-piece", "deals": [won_by(0, [1, 3, 1, 3, 0, 2, 2], n=7)]})
    assert main(["check", "--json", path]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert verdict["provenance"]["record"].startswith("sha256:") and verdict["signature"] is None


def _parsers(parser, path=("referee",)):
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, path + (name,))


def test_every_command_says_what_it_does_and_every_option_has_a_help_text():
    from referee.cli import build_parser

    missing = []
    for path, parser in _parsers(build_parser()):
        if len(path) > 1 and not parser.description:
            missing.append(" ".join(path))
        for action in parser._actions:
            if action.option_strings and action.help is None:
                missing.append(f"{' '.join(path)} {action.option_strings[-1]}")
    assert missing == []


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    """`referee ... | head -3`: the pipe closes under the command; no traceback, the status
    of a command ended by SIGPIPE."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "presets"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # before the command writes its first line
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_presets_lists_every_preset_shows_one_and_suggests_a_mistyped_name(capsys):
    from referee.engine import PRESETS

    assert main(["presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == list(PRESETS)
    assert main(["presets", "double-sir"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("double-sir: ") and "    collection = \"pile\"" in out
    assert main(["presets", "double_sir"]) == 2
    assert 'no preset \'double_sir\'; did you mean "double-sir"?' in capsys.readouterr().err
    assert main(["rule", "trick.follow"]) == 0
    assert capsys.readouterr().out.startswith("trick.follow — ")
    assert main(["rule", "trick.folow"]) == 2
    assert 'did you mean "trick.follow"?' in capsys.readouterr().err


def test_check_names_the_players_the_record_names(capsys):
    from pathlib import Path

    claim = Path(__file__).parents[1] / "examples" / "claim-holds.json"
    main(["check", str(claim)])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Players: seat 0 (Asad), seat 1 (Bilal), seat 2 (Chandni), seat 3 (Dev); team 0 is seats 0 and 2"
    assert out[2].startswith("Deal 1: dealer seat 0 (Asad), caller seat 1 (Bilal), trump")
