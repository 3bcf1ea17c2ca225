"""Tournament standings from finished matches' verdicts: the table and the change between
two tables (pure), the table counted from scratch, and the table kept per team (StandingRow)
that each write finishing, correcting or closing a match updates by that match alone."""
from __future__ import annotations

import hashlib
from typing import Any

import orjson
from sqlalchemy import Connection, Table, func, select, tuple_
from sqlalchemy.orm import Session

from referee.engine import team_of
from referee.judge import judge
from referee.settlers import Recorded

from .db import Database
from .keys import reader_sees_all
from .models import Match, StandingRow
from .tournaments import load_tournament


def _winner(record: dict, verdict: dict) -> int | None:
    """The match's winner as its verdict says (None: a draw). A match closed before records
    carried `closed` has no winner in its stored verdict: the engine judges it closed (R-26),
    with the claims its verdict settled (no search: a bell it never had leaves its last deal
    abandoned)."""
    if verdict["match"]["finished"]:
        return verdict["match"]["winner"]
    return judge({**record, "closed": True}, Recorded(verdict))["match"]["winner"]


TIE_BREAK = ["won", "court_difference", "points_difference"]


def pair_of(players: list[str], team: int) -> tuple[str, ...]:
    """The names of a team's two players (partners, whom the engine's team_of puts on one
    team), in name order: a team is the same pair whichever seats it takes in a match."""
    return tuple(sorted(name for seat, name in enumerate(players) if team_of(seat) == team))


def _merit(row: dict) -> tuple[int, int, int]:
    """What the ranking compares, in TIE_BREAK order (higher is better)."""
    return row["won"], row["courts_for"] - row["courts_against"], row["points_for"] - row["points_against"]


def tally(matches: list[tuple[dict, dict]], rows: dict[tuple[str, ...], dict] | None = None) -> dict[tuple[str, ...], dict]:
    """Per team (the pair of partners), its figures from these matches, added to `rows`."""
    rows = {} if rows is None else rows
    for record, verdict in matches:
        if not verdict["valid"]:
            continue
        players = record["players"]
        winner = _winner(record, verdict)
        m = verdict["match"]
        for team in (0, 1):
            pair = pair_of(players, team)
            row = rows.setdefault(pair, {"team": list(pair), "played": 0, "won": 0, "lost": 0, "drawn": 0,
                                         "courts_for": 0, "courts_against": 0, "points_for": 0, "points_against": 0})
            row["played"] += 1
            row["won" if winner == team else "drawn" if winner is None else "lost"] += 1
            row["courts_for"] += m["courts"][team]
            row["courts_against"] += m["courts"][1 - team]
            row["points_for"] += m["points"][team]
            row["points_against"] += m["points"][1 - team]
    return rows


def ranked(rows: dict[tuple[str, ...], dict]) -> list[dict]:
    ordered = sorted(rows.values(), key=lambda r: (tuple(-x for x in _merit(r)), r["team"]))
    for place, row in enumerate(ordered, 1):
        before = ordered[place - 2] if place > 1 else None
        row["rank"] = before["rank"] if before is not None and _merit(before) == _merit(row) else place
    return ordered


def table(matches: list[tuple[dict, dict]]) -> list[dict[str, Any]]:
    """Per team (the pair of partners): played, won, lost, drawn, courts and points for
    and against; ordered by wins, then court difference, then points difference (TIE_BREAK).
    Teams equal on all three share a rank (1, 1, 3), listed by name."""
    return ranked(tally(matches))


def change(old: list[dict], new: list[dict]) -> dict:
    """What turns the table `old` into `new`, in a size bounded by what changed, not by the
    table: `rows`, each row that is new or whose figures or rank changed, as it is now;
    `removed`, the teams no longer in it; `moved`, for every other row, how its rank moved
    (`by`), as runs of its rank before (`from`..`to`); `teams`, how many rows there are now.
    A team whose figures did not change moves only by the rows that passed it, so the runs
    are at most two per changed row."""
    before = {tuple(r["team"]): r for r in old}
    after = {tuple(r["team"]): r for r in new}
    rows = [r for team, r in after.items() if before.get(team) != r and not _only_moved(before.get(team), r)]
    changed = {tuple(r["team"]) for r in rows}
    shifts = sorted({before[team]["rank"]: r["rank"] - before[team]["rank"]
                     for team, r in after.items() if team in before and team not in changed}.items())
    moved: list[dict] = []
    run: dict | None = None
    for rank, by in shifts:  # a run ends at a row that does not move by its `by`
        if run is not None and run["by"] == by:
            run["to"] = rank
        else:
            run = {"from": rank, "to": rank, "by": by} if by else None
            moved += [run] if run else []
    return {"rows": rows, "removed": [list(team) for team in sorted(set(before) - set(after))],
            "moved": moved, "teams": len(new)}


def _only_moved(was: dict | None, now: dict) -> bool:
    """The same figures, only another rank: said by `moved`, not again as a row."""
    return was is not None and {**was, "rank": now["rank"]} == now


def finished_rows(s: Session, tid: str) -> dict[tuple[str, ...], dict]:
    """The standings' figures per team counted from scratch from a tournament's finished
    matches as stored now: what the kept rows (`kept_rows`) must equal."""
    return tally(finished_matches(s, Match.__table__, tid))


def finished_matches(s: Session | Connection, matches: Table, tid: str) -> list[tuple[dict, dict]]:
    """A tournament's finished matches in the table `matches` (the models', or a migration's
    own), each as (record, verdict) with what `tally` reads: the players and the verdict's
    validity and standing (the whole of a match closed before records carried `closed`,
    which `_winner` judges), not the whole record and verdict."""
    c = matches.c
    stmt = select(c.id, c.record["players"], c.verdict["valid"], c.verdict["match"]).where(
        c.tournament_id == tid, c.status == "finished")
    found, whole = [], []
    for mid, players, valid, standing in s.execute(stmt).all():
        if valid and not standing["finished"]:
            whole.append(mid)
        else:
            found.append(({"players": players}, {"valid": valid, "match": standing}))
    if whole:
        found += [tuple(row) for row in s.execute(select(c.record, c.verdict).where(c.id.in_(whole)))]
    return found


def kept_rows(s: Session, tid: str) -> dict[tuple[str, ...], dict]:
    """The standings' figures per team as kept (see StandingRow)."""
    return {tuple(r.team): _figures(r) for r in s.scalars(select(StandingRow).where(StandingRow.tournament_id == tid))}


def standings_change(s: Session, tid: str, before: tuple[dict, dict] | None, after: tuple[dict, dict] | None) -> dict | None:
    """`change` of the standings by one match's write, its (record, verdict) counted `before`
    and `after` (None: not finished, so not counted), and the kept rows updated: its old
    result taken off its teams' rows and its new one added. Only those rows are read and
    written; the ranks the change says are counted on the ranking's index, so that a write
    costs the same in a tournament of ten teams and of four thousand. Under the tournament's
    lock (publish), which keeps the rows' writes in order. None: no row changed."""
    taken, added = tally([before] if before else []), tally([after] if after else [])
    keys = {team_key(team): team for team in {*taken, *added}}
    stored = {tuple(r.team): r for r in s.scalars(select(StandingRow).where(
        StandingRow.tournament_id == tid, StandingRow.team_key.in_(sorted(keys))))}
    was = {team: _figures(r) for team, r in stored.items()}
    now = {}
    for team in keys.values():
        row = dict(was.get(team) or _empty(team))
        for field in FIGURES:
            row[field] += added.get(team, {}).get(field, 0) - taken.get(team, {}).get(field, 0)
        if row["played"]:
            now[team] = row
    changed = {team for team in keys.values() if was.get(team) != now.get(team)}
    if not changed:
        return None
    said = kept_change(s, tid, {t: was[t] for t in changed if t in was}, {t: now[t] for t in changed if t in now})
    for team in changed:  # after the counting, which reads the rows as they were
        if team not in now:
            s.delete(stored[team])
        elif team in stored:
            for field, value in _columns(now[team]).items():
                setattr(stored[team], field, value)
        else:
            s.add(StandingRow(tournament_id=tid, team_key=team_key(team), team=list(team), **_columns(now[team])))
    return said


def kept_change(s: Session, tid: str, old: dict[tuple[str, ...], dict], new: dict[tuple[str, ...], dict]) -> dict:
    """What `change` says of the kept table when the rows `old` (as kept now) become `new`
    (every other row unchanged), counted on the index instead of both whole tables."""
    others = StandingRow.team_key.not_in(sorted(team_key(team) for team in {*old, *new}))
    risen = [_merit(r) for r in new.values()]
    rows = [{**r, "rank": 1 + _count_above(s, tid, _merit(r), others) + sum(m > _merit(r) for m in risen)}
            for r in new.values()]
    rows.sort(key=lambda r: (tuple(-x for x in _merit(r)), r["team"]))
    teams = s.scalar(select(func.count()).select_from(StandingRow).where(StandingRow.tournament_id == tid))
    return {"rows": rows, "removed": [list(team) for team in sorted(set(old) - set(new))],
            "moved": _moved(s, tid, others, [_merit(r) for r in old.values()], risen),
            "teams": teams + len(set(new) - set(old)) - len(set(old) - set(new))}


def _moved(s: Session, tid: str, others, fallen: list[tuple], risen: list[tuple]) -> list[dict]:
    """`change`'s runs of the unchanged rows. Such a row moves by how many changed rows are
    above it now less before, which changes only at the changed rows' merits: between those
    the rows move alike, so a run is the first and last unchanged row of such a stretch, and
    their ranks before are counted (a stretch where rows stay put ends a run, an empty one not)."""
    moved: list[dict] = []
    for upper, lower, by in _stretches(fallen, risen):
        inside = [others, *_within(upper, lower)]
        top = s.execute(_unchanged(tid, inside).order_by(*(c.desc() for c in MERIT)).limit(1)).first()
        if top is None:
            continue
        if not by:
            moved.append({})
            continue
        bottom = s.execute(_unchanged(tid, inside).order_by(*MERIT).limit(1)).first()
        start, end = (1 + _count_above(s, tid, tuple(m)) for m in (top, bottom))
        if moved and moved[-1].get("by") == by:
            moved[-1]["to"] = end
        else:
            moved.append({"from": start, "to": end, "by": by})
    return [run for run in moved if run]


def _stretches(fallen: list[tuple], risen: list[tuple]) -> list[tuple]:
    """The merit stretches, best first, over which an unchanged row moves alike, each
    (upper, lower, by): a bound is (merit, inclusive) or None (no bound)."""
    pieces, above = [], None
    for t in sorted({*fallen, *risen}, reverse=True):
        pieces += [(above, (t, False), _by(fallen, risen, lambda m: m > t)),
                   ((t, True), (t, True), _by(fallen, risen, lambda m: m > t))]
        above = (t, False)
    pieces.append((above, None, len(risen) - len(fallen)))
    merged: list[tuple] = []
    for upper, lower, by in pieces:  # the first stretch is the open one above the best: by 0
        if merged and merged[-1][2] == by:
            merged[-1] = (merged[-1][0], lower, by)
        else:
            merged.append((upper, lower, by))
    return merged


def _by(fallen: list[tuple], risen: list[tuple], above) -> int:
    return sum(map(above, risen)) - sum(map(above, fallen))


def _within(upper, lower) -> list:
    merit = tuple_(*MERIT)
    where = []
    if upper is not None:
        where.append(merit <= tuple_(*upper[0]) if upper[1] else merit < tuple_(*upper[0]))
    if lower is not None:
        where.append(merit >= tuple_(*lower[0]) if lower[1] else merit > tuple_(*lower[0]))
    return where


def _unchanged(tid: str, where: list):
    return select(*MERIT).where(StandingRow.tournament_id == tid, *where)


def _count_above(s: Session, tid: str, merit: tuple, *where) -> int:
    """How many kept rows rank above this merit (among `where`)."""
    return s.scalar(select(func.count()).select_from(StandingRow).where(
        StandingRow.tournament_id == tid, tuple_(*MERIT) > tuple_(*merit), *where))


FIGURES = ("played", "won", "lost", "drawn", "courts_for", "courts_against", "points_for", "points_against")
MERIT = (StandingRow.won, StandingRow.court_difference, StandingRow.points_difference)  # as _merit, indexed


def team_key(team: tuple[str, ...]) -> str:
    return hashlib.sha256(orjson.dumps(list(team))).hexdigest()


def _empty(team: tuple[str, ...]) -> dict:
    return {"team": list(team), **dict.fromkeys(FIGURES, 0)}


def _figures(r: StandingRow) -> dict:
    return {"team": list(r.team), **{field: getattr(r, field) for field in FIGURES}}


def _columns(row: dict) -> dict:
    """A row's figures as StandingRow's columns."""
    return {**{field: row[field] for field in FIGURES}, "court_difference": row["courts_for"] - row["courts_against"],
            "points_difference": row["points_for"] - row["points_against"]}


class Standings:
    db: Database

    def standings(self, tid: str, key: str | None) -> list[dict]:
        with self.db.reading() as s:
            reader_sees_all(load_tournament(s, tid), key)
            return ranked(kept_rows(s, tid))
