"""The director's standings (the tournament page's and `referee standings`) are read from
the kept rows (issue 39): the read sends no statement on a match's table, and the database
reads as much for it after forty finished matches between the same two teams as after one."""
import re

from tests.helpers import won_by
from tests.store.reads import counted

ONE_COURT = won_by(0, [1] * 7, n=7)


def sheet_and_reads(store, tid):
    with counted(store.db.engine) as reads:
        sheet = store.standings_sheet(tid, None, trusted=True)
    return sheet, reads


def test_the_standings_read_costs_the_teams_not_the_matches(store):
    t, key, _ = store.create_tournament("Cup", "court-piece", {}, True)
    store.create_match(t.id, key, {"players": list("ABCD"), "deals": [ONE_COURT], "closed": True}, None)
    one, first = sheet_and_reads(store, t.id)
    for n in range(39):
        store.create_match(t.id, key, {"players": list("ABCD"), "deals": [ONE_COURT] * (1 + n % 2), "closed": True}, None)
    store.create_match(t.id, key, {"players": list("ABCD"), "deals": [ONE_COURT]}, None)  # live: not counted
    forty, last = sheet_and_reads(store, t.id)
    assert [(r["team"], r["played"], r["won"], r["deals"]) for r in one["standings"]] == [
        (["B", "D"], 1, 1, 1), (["A", "C"], 1, 0, 1)]
    assert [(r["team"], r["played"], r["won"], r["deals"], r["rule"]) for r in forty["standings"]] == [
        (["B", "D"], 40, 40, 59, ["match.closed", "R-26"]), (["A", "C"], 40, 0, 59, ["match.closed", "R-26"])]
    assert (one["finished"], one["matches"], forty["finished"], forty["matches"]) == (1, 1, 40, 41)
    statements = first.statements + last.statements
    assert statements and not any(re.search(r"\bmatch(es|_deals)\b", q) for q in statements)
    assert len(first.statements) == len(last.statements) and 0 < first.work == last.work
