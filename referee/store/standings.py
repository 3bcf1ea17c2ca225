"""Tournament standings from finished matches' verdicts."""
from __future__ import annotations

from typing import Any


def _winner(verdict: dict) -> int | None:
    m = verdict["match"]
    if m["winner"] is not None:
        return m["winner"]
    courts = m["courts"]  # a session by time (null target): more courts wins, equal is no winner
    if courts[0] != courts[1]:
        return 0 if courts[0] > courts[1] else 1
    points = m["points"]
    if points[0] != points[1]:
        return 0 if points[0] > points[1] else 1
    return None


def table(matches: list[tuple[dict, dict]]) -> list[dict[str, Any]]:
    """Per team (the pair of partners): played, won, lost, drawn, courts and points for
    and against; ordered by wins, then court difference, then points difference."""
    rows: dict[tuple[str, str], dict] = {}
    for record, verdict in matches:
        if not verdict["valid"]:
            continue
        players = record["players"]
        winner = _winner(verdict)
        m = verdict["match"]
        for team in (0, 1):
            pair = tuple(sorted((players[team], players[team + 2])))
            row = rows.setdefault(pair, {"team": list(pair), "played": 0, "won": 0, "lost": 0, "drawn": 0,
                                         "courts_for": 0, "courts_against": 0, "points_for": 0, "points_against": 0})
            row["played"] += 1
            row["won" if winner == team else "drawn" if winner is None else "lost"] += 1
            row["courts_for"] += m["courts"][team]
            row["courts_against"] += m["courts"][1 - team]
            row["points_for"] += m["points"][team]
            row["points_against"] += m["points"][1 - team]
    ordered = sorted(rows.values(), key=lambda r: (-r["won"], -(r["courts_for"] - r["courts_against"]),
                                                   -(r["points_for"] - r["points_against"]), r["team"]))
    for rank, row in enumerate(ordered, 1):
        row["rank"] = rank
    return ordered
