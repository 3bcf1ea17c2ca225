"""Tournament standings from finished matches' verdicts."""
from __future__ import annotations

import copy
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.engine import team_of
from referee.judge import judge
from referee.settlers import Recorded

from .db import Database
from .keys import reader_sees_all
from .models import Match
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


def _tally(matches: list[tuple[dict, dict]], rows: dict[tuple[str, ...], dict] | None = None) -> dict[tuple[str, ...], dict]:
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
    return ranked(_tally(matches))


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


def finished_rows(s: Session, tid: str, but: str | None = None) -> dict[tuple[str, ...], dict]:
    """The standings' figures per team from a tournament's finished matches as stored now
    (`but` that match), reading of each only its players and its verdict's validity and
    standing, not the whole record and verdict."""
    stmt = select(Match.id, Match.record["players"], Match.verdict["valid"], Match.verdict["match"]).where(
        Match.tournament_id == tid, Match.status == "finished")
    if but is not None:
        stmt = stmt.where(Match.id != but)
    matches, unfinished = [], []
    for mid, players, valid, standing in s.execute(stmt).all():
        if valid and not standing["finished"]:
            unfinished.append(mid)  # closed before records carried `closed`: _winner judges it
        else:
            matches.append(({"players": players}, {"valid": valid, "match": standing}))
    if unfinished:
        matches += [tuple(row) for row in s.execute(select(Match.record, Match.verdict).where(Match.id.in_(unfinished)))]
    return _tally(matches)


def finished_table(s: Session, tid: str) -> list[dict]:
    """The standings of a tournament's finished matches, as stored now."""
    return ranked(finished_rows(s, tid))


def standings_change(s: Session, tid: str, mid: str, before: tuple[dict, dict] | None,
                     after: tuple[dict, dict] | None) -> dict:
    """`change` of the standings by one match's write: its (record, verdict) counted
    `before` and `after` (None: not finished, so not counted), the others as stored."""
    others = finished_rows(s, tid, but=mid)
    old, new = (ranked(_tally([m] if m else [], copy.deepcopy(others))) for m in (before, after))
    return change(old, new)


class Standings:
    db: Database

    def standings(self, tid: str, key: str | None) -> list[dict]:
        with self.db.reading() as s:
            reader_sees_all(load_tournament(s, tid), key)
            return finished_table(s, tid)
