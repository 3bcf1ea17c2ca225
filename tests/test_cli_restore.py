"""Import and restore as a director uses them: a never-migrated database, an export restored
under its own id (twice adds nothing) with its times, and import --close."""
import json
import re
import shlex
from pathlib import Path

import pytest

from referee.cli import main
from referee.store.db import Database
from referee.store.service import Store
from tests.helpers import won_by

EXAMPLES = Path(__file__).parents[1] / "examples"
UNKNOWN = "f" * 32


@pytest.mark.parametrize("command, status", [
    (["tournaments", "list"], 0), (["export"], 0), (["standings", UNKNOWN], 2), (["disputes", UNKNOWN], 2),
    (["close", UNKNOWN], 2), (["keys", "rotate", "--tournament", UNKNOWN], 2), (["deliver", "--once"], 0),
    (["tournaments", "create", "T", "--preset", "court-piece"], 0),
])
def test_every_command_creates_a_new_database_on_first_use(tmp_path, capsys, command, status):
    url = f"sqlite:///{tmp_path / 'never.db'}"
    assert main([*command, "--database", url]) == status
    assert capsys.readouterr().err.splitlines()[0] == f"referee: created the database at {url}"
    assert main([*command, "--database", url]) == status  # once: the second run finds it made
    err = capsys.readouterr().err
    assert "created" not in err and "migrated" not in err


def test_a_command_migrates_a_database_at_an_older_schema_and_says_so(tmp_path, capsys):
    from referee.store.db import downgrade, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url)
    downgrade(url, "0002")
    assert main(["tournaments", "list", "--database", url]) == 0
    assert (f"referee: the database at {url} was at an older schema; migrated it to the latest"
            in capsys.readouterr().err)


def _exported(sqlite_url, tmp_path) -> tuple[str, Path, dict]:
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("Cup", "court-piece", {}, True)
    view, _ = store.create_match(t.id, key, {"players": list("ABCD"), "deals": [won_by(0, [1] * 7, n=3)]}, "t1")
    store.append_events(view.match.id, key, view.etag, won_by(0, [1] * 7)["events"][12:16])
    store.db.dispose()
    out = tmp_path / "cup.jsonl"
    assert main(["export", "--tournament", t.id, "-o", str(out), "--database", sqlite_url]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    return t.id, out, lines[1]


def test_tournament_new_restores_under_the_exported_id_with_its_times_and_twice_adds_nothing(sqlite_url, tmp_path,
                                                                                            capsys):
    tid, out, exported = _exported(sqlite_url, tmp_path)
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    assert main(["import", str(out), "--tournament", "new", "--database", other]) == 0
    first = capsys.readouterr().out
    assert f"created tournament {tid} (Cup)" in first and "1 new, 0 already present" in first
    assert main(["import", str(out), "--tournament", "new", "--database", other]) == 0
    second = capsys.readouterr().out
    assert f"tournament {tid} (Cup) is already here" in second and "0 new, 1 already present" in second
    assert main(["export", "--tournament", tid, "--database", other]) == 0
    restored = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(restored) == 2 and restored[0]["tournament"]["created_at"] != ""
    match = restored[1]
    assert (match["created_at"], match["updated_at"]) == (exported["created_at"], exported["updated_at"])
    assert [r["created_at"] for r in match["revisions"]] == [r["created_at"] for r in exported["revisions"]]
    assert len(match["revisions"]) == 2


def test_import_close_closes_each_session_whose_last_deal_is_over_so_standings_fill(sqlite_url, tmp_path, capsys):
    store = Store(Database(sqlite_url))
    t, key, _ = store.create_tournament("Cup", "court-piece", {}, True)
    store.db.dispose()
    live = tmp_path / "live.json"
    live.write_text(json.dumps({"players": list("EFGH"), "deals": [won_by(0, [1] * 7, n=3)]}))
    assert main(["import", str(EXAMPLES / "revoke.json"), str(live), "--close", "--tournament", t.id,
                 "--database", sqlite_url]) == 0
    capsys.readouterr()
    assert main(["standings", t.id, "--json", "--database", sqlite_url]) == 0
    table = json.loads(capsys.readouterr().out)["standings"]
    assert len(table) == 2 and all(row["played"] == 1 for row in table)  # revoke.json only: live.json stays open
    store = Store(Database(sqlite_url))
    statuses = sorted((m["external_id"].rsplit("/", 1)[-1], m["status"], m["closed"])
                      for m in store.list_matches(t.id, key, None, 10, None)["items"])
    store.db.dispose()
    assert statuses == [("live.json", "in_progress", False), ("revoke.json", "finished", True)]


def test_the_readme_imports_each_example_into_a_tournament_of_its_preset(sqlite_url, capsys):
    """The README's `referee tournaments create` / `referee import` lines, run as printed."""
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"Each imports into a tournament.*?```sh\n(.*?)```", readme, re.S).group(1)
    imported = set()
    tid = None
    for line in block.splitlines():
        args = [tid if a == "TID" else a for a in shlex.split(line)[1:]]
        assert main([*args, "--database", sqlite_url]) == 0, line
        out = capsys.readouterr().out
        if args[:2] == ["tournaments", "create"]:
            tid = out.split()[1]
        else:
            assert "1 new, 0 already present, 0 rejected" in out, line
            imported.add(args[1])
    assert imported == {f"examples/{p.name}" for p in EXAMPLES.glob("*.json")}


def _three_tournaments(url) -> dict[str, list[str]]:
    """Three tournaments, two matches each: {tournament id: [match ids]}."""
    store = Store(Database(url))
    made = {}
    for name, preset in (("Cup", "court-piece"), ("League", "double-sir"), ("Friendly", "court-piece")):
        t, key, _ = store.create_tournament(name, preset, {}, True)
        made[t.id] = [store.create_match(t.id, key, {"deals": [won_by(0, [1] * 7, n=n)]}, f"table-{n}")[0].match.id
                      for n in (1, 2)]
    store.db.dispose()
    return made


def test_a_whole_database_export_restores_every_tournament_with_its_match_ids(sqlite_url, tmp_path, capsys):
    """`referee export` without --tournament: all three tournaments come back, each match under
    the id it had, so the links shared that night (/matches/ID) still open it."""
    made = _three_tournaments(sqlite_url)
    out = tmp_path / "all.jsonl"
    assert main(["export", "-o", str(out), "--database", sqlite_url]) == 0
    other = f"sqlite:///{tmp_path / 'restored.db'}"
    assert main(["import", str(out), "--tournament", "new", "--database", other]) == 0
    said = capsys.readouterr().out
    for tid in made:
        assert f"created tournament {tid}" in said and f"2 record(s) into tournament {tid}: 2 new" in said
    store = Store(Database(other))
    try:
        for tid, mids in made.items():
            listed = store.list_matches(tid, None, None, 10, None)["items"]
            assert sorted(m["id"] for m in listed) == sorted(mids)
    finally:
        store.db.dispose()
    assert main(["import", str(out), "--tournament", "new", "--database", other]) == 0
    again = capsys.readouterr().out
    assert again.count("is already here") == 3 and again.count("0 new, 2 already present") == 3


def test_a_restored_match_whose_id_is_taken_gets_a_new_one_and_the_import_says_so(sqlite_url, tmp_path, capsys):
    made = _three_tournaments(sqlite_url)
    cup = list(made)[0]
    out = tmp_path / "cup.jsonl"
    assert main(["export", "--tournament", cup, "-o", str(out), "--database", sqlite_url]) == 0
    store = Store(Database(sqlite_url))
    t, _, _ = store.create_tournament("Cup again", "court-piece", {}, True)
    store.db.dispose()
    assert main(["import", str(out), "--tournament", t.id, "--database", sqlite_url]) == 0
    said = capsys.readouterr().out
    assert "2 record(s) into tournament" in said and "2 new" in said
    for mid in made[cup]:
        assert f"its id {mid} is taken here" in said
