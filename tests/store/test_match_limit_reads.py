"""The match limit reads a count kept with the matches (issue 39): what the database reads
to check room for one more match is the same at a tournament's 1st match and its 500th,
and the kept count is the matches counted."""
from sqlalchemy import func, select

from referee.store import limits
from referee.store.models import Match, Tournament
from tests.store.reads import counted


def reads_of_the_check(store, tid):
    with store.db.transaction() as s:
        with counted(s) as reads:
            limits.check_new_match(s, tid)
    return reads


def kept_and_counted(store, tid):
    with store.db.reading() as s:
        return (s.scalar(select(Tournament.match_count).where(Tournament.id == tid)),
                s.scalar(select(func.count()).select_from(Match).where(Match.tournament_id == tid)))


def test_the_match_limit_reads_as_much_at_the_500th_match_as_at_the_first(store):
    t, key, _ = store.create_tournament("Cup", "court-piece", {}, True)
    other, other_key, _ = store.create_tournament("Plate", "court-piece", {}, True)
    store.create_match(t.id, key, {"deals": []}, None)
    first = reads_of_the_check(store, t.id)
    for n in range(499):
        store.create_match(t.id, key, {"deals": []}, f"m{n}")
    store.create_match(other.id, other_key, {"deals": []}, None)
    last = reads_of_the_check(store, t.id)
    assert kept_and_counted(store, t.id) == (500, 500) and kept_and_counted(store, other.id) == (1, 1)
    assert len(first.statements) == len(last.statements) == 1
    assert 0 < first.work and last.work == first.work  # a count over the matches reads 500 rows more
