"""`referee analyse`: perfect play from the first lead, what happened, each costly play;
--json, -j N, the search limit, progress on stderr; no web layer or store imported."""
import json
import random
import subprocess
import sys
from pathlib import Path

from referee.cli import main
from referee.engine.simulate import deal_hands

RECORD = Path(__file__).parent / "solver" / "records" / "one-costly-play.json"
# The record's one costly play: trick 2, seat 0 leads the 2S while the AS would drop seat 1's
# lone KS (all 11 tricks left instead of 10). Seat 0's other leads of trick 2 cost the same.


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_text_says_perfect_play_what_happened_and_the_costly_play(capsys):
    assert main(["analyse", "--objective", "tricks", str(RECORD)]) == 0
    out = capsys.readouterr().out
    assert "deal 1 (objective tricks: tricks taken, every trick played, best play after)" in out
    assert "perfect play from the first lead: tricks 12-1 (all 13 played)" in out
    assert "what happened: complete, team 0 win, courts 1-0, tricks 11-2" in out
    # counted from 1; the AS alone was best (it drops seat 1's lone KS)
    assert "costly: deal 1 trick 2, seat 0 played 2♠ (event 5): cost 1 trick; best was A♠" in out
    assert out.count("costly:") == 1


def test_the_default_objective_is_tricks_as_on_the_page(capsys):
    assert main(["analyse", str(RECORD)]) == 0
    assert "deal 1 (objective tricks: " in capsys.readouterr().out


def test_a_revoke_is_no_costly_play_only_legal_plays_are(tmp_path, capsys):
    record = json.loads(RECORD.read_text())
    record["deals"][0]["events"][5] = {"seat": 1, "play": "2D"}  # a revoke: seat 1 holds the KS
    assert main(["analyse", write(tmp_path, "revoke.json", record)]) == 0
    out = capsys.readouterr().out
    assert "costly: deal 1 trick 2, seat 0 played 2♠ (event 5)" in out
    assert "2♦" not in out and out.count("costly:") == 1


def test_under_score_a_trick_that_changes_neither_the_score_nor_the_winner_costs_nothing(capsys):
    """R-38: no tricks term. The same win (a court to team 0) with 11 tricks as with 12."""
    assert main(["analyse", "--objective", "score", "--line", str(RECORD)]) == 0
    out = capsys.readouterr().out
    assert "deal 1 (objective score: the deal's outcome: courts or points of the margin, then the deal won or lost)" in out
    # the lowest of equal cards
    assert "perfect play from the first lead: team 0 win, courts 1-0, tricks 11-2 on the line played" in out
    assert "no costly play" in out and "costly:" not in out


def test_the_first_leads_line_is_searched_only_with_line(tmp_path, capsys):
    """Without --line, perfect play from the first lead is its value (the first leader's team's);
    the line's end (result, tricks) only with it. Under tricks the value gives the tricks."""
    assert main(["analyse", "--objective", "score", str(RECORD)]) == 0
    assert "perfect play from the first lead: margin -1, deal lost for team 1" in capsys.readouterr().out
    path = write(tmp_path, "one.json", json.loads(RECORD.read_text()))
    found = {}
    for objective in ("score", "tricks"):
        for asked in ([], ["--line"]):
            assert main(["analyse", "--json", "--objective", objective, *asked, path]) == 0
            found[objective, bool(asked)] = json.loads(capsys.readouterr().out)["perfect_play"]
    assert found["score", False] == {"value": {"margin": -1, "deal": "lost"}, "team": 1, "result": None,
                                     "tricks_won": None}
    assert found["score", True]["result"]["courts"] == [1, 0] and found["score", True]["tricks_won"] == [11, 2]
    assert found["tricks", False] == found["tricks", True] == {"value": 1, "team": 1, "result": None,
                                                             "tricks_won": [12, 1]}


def test_json_lines_one_per_deal_with_its_costly_plays(tmp_path, capsys):
    record = json.loads(RECORD.read_text())
    no_hands = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"},
                                                     "events": [{"seat": 1, "play": "AH"}]}]}
    path = write(tmp_path, "two.json", [record, no_hands])
    assert main(["analyse", "--json", "--objective", "tricks", path]) == 0
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (first["file"], first["line"], first["deal"], first["objective"]) == (path, 1, 0, "tricks")
    assert first["perfect_play"]["tricks_won"] == [12, 1] and first["happened"]["tricks_won"] == [11, 2]
    assert first["costly"] == [{"deal": 0, "event": 4, "trick": 2, "seat": 0, "card": "2S", "value": 10,
                                "best": 11, "cost": "1 trick", "best_cards": ["AS"]}]
    assert first["unanalysed"] == [] and first["stopped"] is None
    assert second["line"] == 2 and second["error"] == "no hands: not analysed"


def test_parallel_processes_print_the_same_in_input_order(tmp_path, capsys):
    record = json.loads(RECORD.read_text())
    path = write(tmp_path, "many.json", [record] * 4)
    assert main(["analyse", "--json", path]) == 0
    one = capsys.readouterr().out
    assert main(["analyse", "--json", "-j", "2", path]) == 0
    assert capsys.readouterr().out == one and len(one.splitlines()) == 4


def test_a_position_past_the_limit_is_listed_not_guessed(tmp_path, capsys):
    hands = [sorted(c.text for c in h) for h in deal_hands(random.Random(7))]
    rec = {"preset": "seven-courts", "deals": [{"dealer": 0, "trump": {"suit": "S"}, "hands": hands, "events": []}]}
    assert main(["analyse", "--max-nodes", "1000", write(tmp_path, "deep.json", rec)]) == 0
    assert "perfect play from the first lead: past the search limit" in capsys.readouterr().out


def test_a_deal_impossible_part_way_is_analysed_up_to_its_error(tmp_path, capsys):
    record = json.loads(RECORD.read_text())
    record["deals"][0]["events"][5] = {"seat": 1, "play": "AS"}  # seat 0 holds the AS
    assert main(["analyse", "--objective", "tricks", write(tmp_path, "bad.json", record)]) == 0
    out = capsys.readouterr().out
    assert "costly: deal 1 trick 2, seat 0 played 2♠" in out
    assert "analysis stopped at event 6: seat 1 plays A♠, but it was dealt to seat 0" in out  # the replay's own error


def test_unreadable_input_exits_2(tmp_path, capsys):
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["analyse", write(tmp_path, "shape.json", {"preset": "seven-courts", "deals": [{"dealer": 7}]})]) == 2
    assert "/deals/0/dealer" in capsys.readouterr().err


def test_progress_on_stderr(monkeypatch, capsys):
    monkeypatch.setenv("REFEREE_PROGRESS", "1")
    assert main(["analyse", str(RECORD)]) == 0
    err = capsys.readouterr().err
    assert "analysing [" in err and "52/52" in err


def test_analyse_starts_without_the_web_or_the_store():
    code = ("import sys; from referee.cli import main; main(['analyse', %r]); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug', 'sqlalchemy', "
            "'marshmallow', 'jinja2', 'markdown_it', 'alembic'}))" % str(RECORD))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
