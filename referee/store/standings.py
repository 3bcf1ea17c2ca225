"""Tournament standings from finished matches' verdicts."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from referee.engine import adjudicate_dict, team_of
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
    return adjudicate_dict({**record, "closed": True}, Recorded(verdict))["match"]["winner"]


TIE_BREAK = ["won", "court_difference", "points_difference"]


def pair_of(players: list[str], team: int) -> tuple[str, ...]:
    """The names of a team's two players (partners, whom the engine's team_of puts on one
    team), in name order: a team is the same pair whichever seats it takes in a match."""
    return tuple(sorted(name for seat, name in enumerate(players) if team_of(seat) == team))


def _merit(row: dict) -> tuple[int, int, int]:
    """What the ranking compares, in TIE_BREAK order (higher is better)."""
    return row["won"], row["courts_for"] - row["courts_against"], row["points_for"] - row["points_against"]


def table(matches: list[tuple[dict, dict]]) -> list[dict[str, Any]]:
    """Per team (the pair of partners): played, won, lost, drawn, courts and points for
    and against; ordered by wins, then court difference, then points difference (TIE_BREAK).
    Teams equal on all three share a rank (1, 1, 3), listed by name."""
    rows: dict[tuple[str, str], dict] = {}
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
    ordered = sorted(rows.values(), key=lambda r: (tuple(-x for x in _merit(r)), r["team"]))
    for place, row in enumerate(ordered, 1):
        before = ordered[place - 2] if place > 1 else None
        row["rank"] = before["rank"] if before is not None and _merit(before) == _merit(row) else place
    return ordered


def finished_table(s: Session, tid: str) -> list[dict]:
    """The standings of a tournament's finished matches, as stored now."""
    rows = s.execute(select(Match.record, Match.verdict).where(Match.tournament_id == tid, Match.status == "finished")).all()
    return table([(record, verdict) for record, verdict in rows])


class Standings:
    db: Database

    def standings(self, tid: str, key: str | None) -> list[dict]:
        with self.db.reading() as s:
            reader_sees_all(load_tournament(s, tid), key)
            return finished_table(s, tid)
