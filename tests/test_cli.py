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
    assert "Next: deal 0 trick 8, seat 2 to play" in out


def test_violations_exit_1_and_say_trick_and_reason(tmp_path, capsys):
    record = {"preset": "court-piece",
              "deals": [deal(0, ev("1:AH 2:2D 3:4H 0:5H"), {"suit": "S"}, round_robin_hands())]}
    assert main(["check", write(tmp_path, "revoke.json", record)]) == 1
    out = capsys.readouterr().out
    assert "violation revoke (decides the deal): trick 1, event 1: seat 2 played 2D on a heart lead while holding JH" in out
    assert "result: team 1 penalty_court" in out and "next dealer: seat 2" in out


def test_invalid_record_and_unreadable_files_exit_2(tmp_path, capsys):
    bad = write(tmp_path, "bad.json", {"preset": "court-piece", "deals": [deal(0, ev("0:AH"), {"suit": "S"})]})
    assert main(["check", bad]) == 2
    assert "error out_of_turn in deal 0 event 0" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["check", write(tmp_path, "junk.json", "{not json")]) == 2
    assert main(["check", write(tmp_path, "shape.json", {"preset": "court-piece", "deals": [{"dealer": 7}]})]) == 2
    assert "/deals/0/dealer" in capsys.readouterr().err


def test_json_flag_prints_the_full_verdict(tmp_path, capsys):
    path = write(tmp_path, "c.json", {"preset": "court-piece", "deals": [won_by(0, [1] * 7)]})
    assert main(["check", "--json", path]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["deals"][0]["result"]["kind"] == "court"


def test_worst_status_of_several_files_wins(tmp_path):
    clean = write(tmp_path, "a.json", {"preset": "court-piece", "deals": []})
    assert main(["check", clean, str(tmp_path / "nope.json")]) == 2
