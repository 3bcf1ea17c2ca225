"""The director's commands: tournaments create and list, standings, close, disputes."""
import json
import re
from pathlib import Path

from referee.cli import main
from referee.store.db import Database
from referee.store.service import Store
from tests.helpers import won_by

EXAMPLES = Path(__file__).parents[1] / "examples"
REVOKE = json.loads((EXAMPLES / "revoke.json").read_text())


def created(capsys, *args) -> tuple[str, str, str]:
    """(id, write key, read key) from `referee tournaments create` output."""
    assert main(["tournaments", "create", *args]) == 0
    out = capsys.readouterr().out
    tid = re.search(r"^tournament ([0-9a-f]{32}) ", out, re.M).group(1)
    key = re.search(r"^write key (rk_\S+)$", out, re.M).group(1)
    read_key = re.search(r"^read key (rr_\S+)$", out, re.M).group(1)
    assert "shown only now" in out
    return tid, key, read_key


def test_create_prints_the_id_and_both_keys_once_and_list_shows_private_ones_too(sqlite_url, capsys):
    tid, key, read_key = created(capsys, "Club night", "--preset", "court-piece", "--option", "target=7",
                                 "--database", sqlite_url)
    private, _, _ = created(capsys, "Staff", "--preset", "double-sir", "--private", "--database", sqlite_url)
    store = Store(Database(sqlite_url))
    t = store.tournament(tid, read_key)
    assert (t.name, t.preset, t.options, t.public) == ("Club night", "court-piece", {"target": 7}, True)
    assert store.tournament(private, None, trusted=True).public is False
    store.db.dispose()
    assert main(["tournaments", "list", "--database", sqlite_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(private) and "private" in lines[1]  # newest first
    assert lines[2].startswith(tid) and "public" in lines[2] and key not in "\n".join(lines)


def test_create_refuses_an_unknown_preset_or_option_in_one_line(sqlite_url, capsys):
    assert main(["tournaments", "create", "X", "--preset", "nope", "--database", sqlite_url]) == 1
    assert "unknown preset" in capsys.readouterr().err
    assert main(["tournaments", "create", "X", "--preset", "court-piece", "--option", "bogus=1",
                 "--database", sqlite_url]) == 1
    assert "unknown option" in capsys.readouterr().err
    assert main(["tournaments", "list", "--json", "--database", sqlite_url]) == 0
    assert capsys.readouterr().out == ""


def _two_closed_matches(sqlite_url, capsys) -> tuple[str, list[str]]:
    tid, key, _ = created(capsys, "Cup", "--preset", "court-piece", "--database", sqlite_url)
    store = Store(Database(sqlite_url))
    mids = []
    for players in (["A", "B", "C", "D"], ["E", "F", "G", "H"]):
        view, _ = store.create_match(tid, key, {"players": players, "deals": [won_by(0, [1] * 7)]}, players[0])
        mids.append(view.match.id)
    store.db.dispose()
    for mid in mids:
        assert main(["close", mid, "--database", sqlite_url]) == 0
        assert f"match {mid} closed: courts" in capsys.readouterr().out
    return tid, mids


def test_standings_share_a_rank_name_the_tie_break_and_the_rules(sqlite_url, capsys):
    tid, _ = _two_closed_matches(sqlite_url, capsys)
    assert main(["standings", tid, "--json", "--database", sqlite_url]) == 0
    table = json.loads(capsys.readouterr().out)
    assert [(row["team"], row["rank"]) for row in table["standings"]] == [
        (["B", "D"], 1), (["F", "H"], 1), (["A", "C"], 3), (["E", "G"], 3)]
    assert table["tie_break"] == ["won", "court_difference", "points_difference"]
    assert table["standings"][0]["rule"] == ["match.closed", "R-26"]
    assert main(["standings", tid, "--database", sqlite_url]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == "Standings of Cup (court-piece), 2 finished match(es) of 2"
    assert re.match(r"\s+1  B & D\s+1\s+1\s+0\s+0\s+1-0\s+\d+-\d+\s+1  match.closed, R-26$", text[2])
    assert re.match(r"\s+1  F & H ", text[3]) and re.match(r"\s+3  A & C ", text[4])
    assert text[-1].startswith("ties broken by: won, court difference, points difference")


def test_close_twice_or_an_unknown_match_says_why(sqlite_url, capsys):
    _, mids = _two_closed_matches(sqlite_url, capsys)
    assert main(["close", mids[0], "--database", sqlite_url]) == 1
    assert "the match is closed" in capsys.readouterr().err
    assert main(["close", "f" * 32, "--database", sqlite_url]) == 2
    assert "no match" in capsys.readouterr().err
    assert main(["standings", "f" * 32, "--database", sqlite_url]) == 2


def test_disputes_list_every_violation_newest_first_with_its_moment_and_filter(sqlite_url, capsys):
    tid, key, _ = created(capsys, "Cup", "--preset", "court-piece", "--database", sqlite_url)
    store = Store(Database(sqlite_url))
    first, _ = store.create_match(tid, key, {**REVOKE, "players": ["A", "B", "C", "D"]}, "table-1")
    store.create_match(tid, key, {"players": ["I", "J", "K", "L"], "deals": [won_by(0, [1] * 7)]}, "clean")
    second, _ = store.create_match(tid, key, {**REVOKE, "players": ["E", "F", "G", "H"]}, "table-2")
    store.close(first.match.id, key, first.etag)  # table-1 changed last: its dispute comes first
    store.db.dispose()
    assert main(["disputes", tid, "--json", "--database", sqlite_url]) == 0
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["external_id"], d["seat"], d["player"], d["code"], d["deal"], d["trick"], d["penalty"])
            for d in found] == [("table-1", 2, "C", "revoke", 0, 1, True), ("table-2", 2, "G", "revoke", 0, 1, True)]
    assert found[0]["moment"] == f"/matches/{first.match.id}?deal=1&event=2"
    assert found[0]["rule"] and found[0]["status"] == "finished"
    assert main(["disputes", tid, "--status", "in_progress", "--database", sqlite_url]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text == [f"table-2  deal 1 trick 1  seat 2 (G)  revoke  decides the deal  /matches/{second.match.id}"
                    "?deal=1&event=2", "1 dispute(s)"]
    assert main(["disputes", tid, "--code", "renege", "--database", sqlite_url]) == 0
    assert capsys.readouterr().out == "0 dispute(s)\n"


def test_create_needs_the_operator_key_when_the_deployment_sets_one(sqlite_url, capsys, monkeypatch):
    monkeypatch.setenv("REFEREE_OPERATOR_KEY", "op-secret")
    assert main(["tournaments", "create", "X", "--preset", "court-piece", "--database", sqlite_url]) == 1
    assert "operator" in capsys.readouterr().err
    assert main(["tournaments", "create", "X", "--preset", "court-piece", "--operator-key", "wrong",
                 "--database", sqlite_url]) == 1
    capsys.readouterr()
    created(capsys, "X", "--preset", "court-piece", "--operator-key", "op-secret", "--database", sqlite_url)


def _three_tables(sqlite_url, capsys) -> tuple[str, dict]:
    """A tournament of three tables: table-1 finished, table-2 and table-3 in play."""
    tid, key, _ = created(capsys, "Evening", "--preset", "court-piece", "--database", sqlite_url)
    store = Store(Database(sqlite_url))
    ids = {}
    for name, deals in (("table-1", [won_by(0, [1] * 7)]), ("table-2", [won_by(0, [1] * 7)]), ("table-3", [])):
        view, _ = store.create_match(tid, key, {"players": [f"{name} {s}" for s in "NESW"], "deals": deals}, name)
        ids[name] = view.match.id
    store.close(ids["table-1"], key, store.get_match(ids["table-1"], key).etag)
    store.db.dispose()
    return tid, ids


def test_matches_lists_every_table_with_its_external_id_score_and_where_play_is(sqlite_url, capsys):
    tid, ids = _three_tables(sqlite_url, capsys)
    assert main(["matches", tid, "--database", sqlite_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Matches of Evening (court-piece): 3"
    row = {line.split()[1]: line for line in lines[2:]}
    assert row["table-1"].startswith(ids["table-1"]) and row["table-1"].endswith("over")
    assert " finished " in row["table-1"] and " in_progress " in row["table-3"]
    assert row["table-2"].endswith("deal 2 to be dealt by seat 2")  # the callers' court: the dealer's partner deals
    assert main(["matches", tid, "--status", "in_progress", "--json", "--database", sqlite_url]) == 0
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [m["external_id"] for m in found] == ["table-2", "table-3"]
    assert found[1]["at"] == {"deal": 1, "trick": None, "to_play": None, "dealer": None, "waiting_for": None}


def test_close_takes_external_ids_and_the_bell_closes_every_table_in_play_once_confirmed(sqlite_url, capsys):
    tid, ids = _three_tables(sqlite_url, capsys)
    assert main(["close", "table-9", "--tournament", tid, "--database", sqlite_url]) == 2
    assert f"no match table-9 in tournament {tid}" in capsys.readouterr().err
    # several at once are said back first, and not closed without a yes (no terminal here)
    assert main(["close", "--in-play", "--tournament", tid, "--database", sqlite_url]) == 1
    said = capsys.readouterr()
    assert "2 matches will be closed: table-2, table-3" in said.out and "add --yes" in said.err
    assert main(["matches", tid, "--status", "in_progress", "--json", "--database", sqlite_url]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["close", "--in-play", "--tournament", tid, "--yes", "--database", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "match table-2 closed: courts 0-1" in out and "match table-3 closed: courts 0-0" in out
    assert main(["close", "--in-play", "--tournament", tid, "--database", sqlite_url]) == 0
    assert "no match is in play" in capsys.readouterr().out
    assert main(["close", "--in-play", "--database", sqlite_url]) == 2
    assert "--in-play needs --tournament" in capsys.readouterr().err


def test_close_of_one_match_by_external_id(sqlite_url, capsys):
    tid, ids = _three_tables(sqlite_url, capsys)
    assert main(["close", "table-3", "--tournament", tid, "--database", sqlite_url]) == 0
    assert capsys.readouterr().out == "match table-3 closed: courts 0-0, points 0-0; a draw\n"


def test_disputes_list_a_disputed_claim_with_what_was_claimed_and_awarded(sqlite_url, capsys):
    claim = json.loads((EXAMPLES / "claim-fails.json").read_text())
    tid, key, _ = created(capsys, "Cup", "--preset", "court-piece", "--database", sqlite_url)
    store = Store(Database(sqlite_url))
    view, _ = store.create_match(tid, key, {"players": claim["players"], "deals": claim["deals"]}, "table-1")
    store.db.dispose()
    assert main(["disputes", tid, "--code", "claim", "--database", sqlite_url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"table-1  deal 1 trick 10  seat 2 (Chandni)  claim  claimed 2, awarded 1  "
                     f"/matches/{view.match.id}?deal=1&event=37", "1 dispute(s)"]
    assert main(["disputes", tid, "--json", "--database", sqlite_url]) == 0
    (found,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert found["claim"] == {"claimed": 2, "awarded": 1, "held": False} and found["rule"][0] == "R-34"


def test_correct_stores_the_whole_record_with_its_reason_as_a_new_revision(sqlite_url, capsys, tmp_path):
    tid, ids = _three_tables(sqlite_url, capsys)
    fixed = tmp_path / "fixed.json"
    fixed.write_text(json.dumps({"players": ["N", "E", "S", "W"], "deals": [won_by(0, [0, 1] * 3 + [1])]}))
    assert main(["correct", "table-3", str(fixed), "--reason", "the sheet had deal 1", "--tournament", tid,
                 "--database", sqlite_url]) == 0
    assert capsys.readouterr().out.startswith("match table-3 corrected: revision 2 (the sheet had deal 1); courts")
    store = Store(Database(sqlite_url))
    listed = store.revisions(ids["table-3"], None)
    store.db.dispose()
    assert [(r["kind"], r["reason"]) for r in listed] == [("create", None), ("revise", "the sheet had deal 1")]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"deals": [{"dealr": 0}]}))
    assert main(["correct", ids["table-3"], str(bad), "--reason", "x", "--database", sqlite_url]) == 1
    assert 'referee correct: ' in capsys.readouterr().err
    assert main(["correct", "f" * 32, str(fixed), "--reason", "x", "--database", sqlite_url]) == 2
