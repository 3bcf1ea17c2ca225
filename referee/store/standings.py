"""Tournament standings from finished matches' verdicts: the table and the change between
two tables (pure), the table counted from scratch, and the table kept per team (StandingRow)
that each write finishing, correcting or closing a match updates by that match alone."""
from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, Table, func, select, tuple_, update
from sqlalchemy.orm import Session

from referee.engine import team_of
from referee.judge import judge
from referee.settlers import Recorded

from .db import Database
from .deals import filled
from .keys import reader_sees_all
from .models import Match, StandingMerit, StandingRow, Tournament
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
    return {"rows": rows, "removed": [list(team) for team in sorted(set(before) - set(after))],
            "moved": _runs(shifts), "teams": len(new)}


def _runs(shifts: list[tuple[int, int]]) -> list[dict]:
    """The runs of (rank before, by) in rank order: a run ends at a row that does not move
    by its `by`."""
    moved: list[dict] = []
    run: dict | None = None
    for rank, by in shifts:
        if run is not None and run["by"] == by:
            run["to"] = rank
        else:
            run = {"from": rank, "to": rank, "by": by} if by else None
            moved += [run] if run else []
    return moved


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
        found += [tuple(filled(s, *row)) for row in s.execute(select(c.id, c.record, c.verdict).where(c.id.in_(whole)))]
    return found


def kept_rows(s: Session, tid: str) -> dict[tuple[str, ...], dict]:
    """The standings' figures per team as kept (see StandingRow)."""
    return {tuple(r.team): _figures(r) for r in s.scalars(select(StandingRow).where(StandingRow.tournament_id == tid))}


def kept_table(s: Session, tid: str) -> list[dict]:
    """The kept standings ranked, each team with its deals and the rule ids that decided its
    matches' outcomes: its row read, not its matches."""
    rows = {tuple(r.team): r for r in s.scalars(select(StandingRow).where(StandingRow.tournament_id == tid))}
    return [{**row, "deals": kept.deals, "rule": [rule for rule, _ in kept.rules]}
            for row in ranked({team: _figures(r) for team, r in rows.items()}) for kept in [rows[tuple(row["team"])]]]


def standings_change(s: Session, tid: str, before: tuple[dict, dict] | None, after: tuple[dict, dict] | None) -> dict | None:
    """`change` of the standings by one match's write, its (record, verdict) counted `before`
    and `after` (None: not finished, so not counted), and the kept rows updated: its old
    result taken off its teams' rows and its new one added. Only those rows are read and
    written, and of the merits (StandingMerit) those between the lowest and the highest it
    changed, so that a write costs the same in a tournament of ten teams and of four
    thousand. Under the tournament's lock (publish), which keeps the writes in order. The
    rows' deals and rules and the tournament's finished matches are counted likewise.
    None: no row's figures changed."""
    _count_finished(s, tid, (after is not None) - (before is not None))
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
    lost, gained = credits([before] if before else []), credits([after] if after else [])
    _credit(stored, now, lost, gained)
    if not changed:
        return None
    old, new = {t: was[t] for t in changed if t in was}, {t: now[t] for t in changed if t in now}
    merits = Merits.around(s, tid, [_merit(r) for r in (*old.values(), *new.values())])
    said = kept_change(merits, old, new)
    for team in changed:
        if team not in now:
            s.delete(stored[team])
        elif team in stored:
            for field in FIGURES:
                setattr(stored[team], field, now[team][field])
        else:
            s.add(StandingRow(tournament_id=tid, team_key=team_key(team), **now[team],
                              **_credit_columns(gained[team])))
    merits.count(s, tid, [_merit(r) for r in old.values()], [_merit(r) for r in new.values()])
    return said


def credits(matches: list[tuple[dict, dict]]) -> dict[tuple[str, ...], tuple[int, Counter]]:
    """Per team, of the matches `tally` counts: the deals they had, and how many of their
    outcomes each rule id decided (the verdict's `match.rule`)."""
    out: dict[tuple[str, ...], tuple[int, Counter]] = {}
    for record, verdict in matches:
        if not verdict["valid"]:
            continue
        deals = verdict["deals"] if type(verdict["deals"]) is int else len(verdict["deals"])  # a shell's count
        rules = Counter(dict.fromkeys(verdict["match"].get("rule") or [], 1))
        for team in (0, 1):
            pair = pair_of(record["players"], team)
            had, ruled = out.get(pair, (0, Counter()))
            out[pair] = had + deals, ruled + rules
    return out


def _credit(stored: dict[tuple[str, ...], StandingRow], now: dict[tuple[str, ...], dict],
            taken: dict[tuple[str, ...], tuple[int, Counter]], added: dict[tuple[str, ...], tuple[int, Counter]]) -> None:
    """The kept rows' deals and rules: the match's old ones taken off, its new ones added (a
    row a write adds gets its own when added; a correction may change these alone). Added
    before taken, so that a rule id the match still names keeps its place."""
    for team, row in stored.items():
        if team in now:
            deals, rules = added.get(team, (0, Counter()))
            off_deals, off_rules = taken.get(team, (0, Counter()))
            kept = Counter(dict(row.rules)) + rules
            kept.subtract(off_rules)
            for column, value in _credit_columns((row.deals + deals - off_deals, +kept)).items():
                if getattr(row, column) != value:
                    setattr(row, column, value)


def _credit_columns(credit: tuple[int, Counter]) -> dict:
    return {"deals": credit[0], "rules": [[rule, n] for rule, n in credit[1].items()]}


def _count_finished(s: Session, tid: str, by: int) -> None:
    if by:
        s.execute(update(Tournament).where(Tournament.id == tid).values(finished_count=Tournament.finished_count + by))


@dataclass
class Merits:
    """The kept merits a write needs: those from the lowest to the highest it changes
    (`window`, as rows), how many teams rank above them, how many there are in all, and the
    best merit below them and the lowest of all, each with its teams."""

    window: dict[tuple, StandingMerit]
    above: int
    total: int
    below: tuple | None
    last: tuple | None

    @classmethod
    def around(cls, s: Session, tid: str, merits: list[tuple]) -> Merits:
        hi, lo = tuple_(*max(merits)), tuple_(*min(merits))
        mine, merit = StandingMerit.tournament_id == tid, tuple_(*MERIT)
        window = {(m.won, m.court_difference, m.points_difference): m
                  for m in s.scalars(select(StandingMerit).where(mine, merit >= lo, merit <= hi))}
        teams = func.coalesce(func.sum(StandingMerit.teams), 0)
        above, total = s.execute(select(select(teams).where(mine, merit > hi).scalar_subquery(),
                                        select(teams).where(mine).scalar_subquery())).one()
        below = s.execute(select(*MERIT).where(mine, merit < lo).order_by(*(c.desc() for c in MERIT)).limit(1)).first()
        last = s.execute(select(*MERIT, StandingMerit.teams).where(mine).order_by(*MERIT).limit(1)).first()
        return cls(window, above, total, tuple(below) if below else None, tuple(last) if last else None)

    def above_of(self, merit: tuple) -> int:
        """The kept teams above a merit of the window."""
        return self.above + sum(m.teams for v, m in self.window.items() if v > merit)

    def count(self, s: Session, tid: str, fallen: list[tuple], risen: list[tuple]) -> None:
        """Each changed row's merit counted out of its old merit and into its new one."""
        moves = Counter(risen)
        moves.subtract(Counter(fallen))
        for merit, by in moves.items():
            kept = self.window.get(merit)
            if kept is None and by:
                s.add(StandingMerit(tournament_id=tid, won=merit[0], court_difference=merit[1],
                                    points_difference=merit[2], teams=by))
            elif kept is not None and by:
                kept.teams += by
                if not kept.teams:
                    s.delete(kept)


def kept_change(merits: Merits, old: dict[tuple[str, ...], dict], new: dict[tuple[str, ...], dict]) -> dict:
    """What `change` says of the kept table when the rows `old` (as kept now) become `new`,
    every other row unchanged. Such a row moves by how many changed rows are above it now
    less before, which changes only at the changed rows' merits: within the window each
    merit's rows move alike, and below it all of them alike, so the runs are those of the
    window's merits and of the first and last rows below it, their ranks counted."""
    fallen, risen = [_merit(r) for r in old.values()], [_merit(r) for r in new.values()]

    def by(merit: tuple) -> int:
        return sum(m > merit for m in risen) - sum(m > merit for m in fallen)

    rows = [{**r, "rank": 1 + merits.above_of(_merit(r)) + by(_merit(r))} for r in new.values()]  # as an unchanged row
    rows.sort(key=lambda r: (tuple(-x for x in _merit(r)), r["team"]))
    shifts = {1 + merits.above_of(v): by(v) for v, m in merits.window.items() if m.teams > fallen.count(v)}
    if merits.below is not None:
        shifts[1 + merits.above + sum(m.teams for m in merits.window.values())] = len(risen) - len(fallen)
        shifts[1 + merits.total - merits.last[3]] = len(risen) - len(fallen)
    return {"rows": rows, "removed": [list(team) for team in sorted(set(old) - set(new))],
            "moved": _runs(sorted(shifts.items())),
            "teams": merits.total + len(set(new) - set(old)) - len(set(old) - set(new))}


FIGURES = ("played", "won", "lost", "drawn", "courts_for", "courts_against", "points_for", "points_against")
MERIT = (StandingMerit.won, StandingMerit.court_difference, StandingMerit.points_difference)  # as _merit


def team_key(team: tuple[str, ...]) -> str:
    return hashlib.sha256(orjson.dumps(list(team))).hexdigest()


def _empty(team: tuple[str, ...]) -> dict:
    return {"team": list(team), **dict.fromkeys(FIGURES, 0)}


def _figures(r: StandingRow) -> dict:
    return {"team": list(r.team), **{field: getattr(r, field) for field in FIGURES}}


class Standings:
    db: Database

    def standings(self, tid: str, key: str | None) -> list[dict]:
        with self.db.reading() as s:
            reader_sees_all(load_tournament(s, tid), key)
            return ranked(kept_rows(s, tid))
