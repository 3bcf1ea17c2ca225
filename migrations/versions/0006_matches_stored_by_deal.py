"""a match's head stored by deal: a row per deal, the match row its summary

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06 04:10:00

The match row held its head's whole record and verdict, so every write rewrote the whole
match. Now it holds them but their deals (`"deals"`: their count, in its place), and each
deal is a `match_deals` row: its record, its verdict and the standing it began from (see
referee/store/deals.py). The downgrade puts the rows back in place, byte for byte.
"""
from alembic import op
import sqlalchemy as sa

from referee.engine import Record, judge, judge_last, resolve
from referee.engine.cards import Card
from referee.engine.errors import RecordError, RefereeError
from referee.engine.playrecord import PLAY, REVEAL, Event
from referee.engine.settlement import Line
from referee.engine.totals import Match as Totals

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

matches = sa.table('matches', sa.column('id', sa.String), sa.column('record', sa.JSON),
                   sa.column('verdict', sa.JSON))
deals = sa.table('match_deals', sa.column('match_id', sa.String), sa.column('deal', sa.Integer),
                 sa.column('record', sa.JSON), sa.column('verdict', sa.JSON), sa.column('start', sa.JSON))


def upgrade() -> None:
    op.create_table(
        'match_deals',
        sa.Column('match_id', sa.String(length=32), nullable=False),
        sa.Column('deal', sa.Integer(), autoincrement=False, nullable=False),
        sa.Column('record', sa.JSON(), nullable=False),
        sa.Column('verdict', sa.JSON(), nullable=False),
        sa.Column('start', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_deals_match_id_matches')),
        sa.PrimaryKeyConstraint('match_id', 'deal', name=op.f('pk_match_deals')),
    )
    conn = op.get_bind()
    for match_id in conn.execute(sa.select(matches.c.id)).scalars().all():
        record, verdict = conn.execute(sa.select(matches.c.record, matches.c.verdict)
                                       .where(matches.c.id == match_id)).one()  # one match in memory at a time
        if record["deals"]:
            starts = _standings(record, verdict, _initial(record))
            conn.execute(deals.insert(), [{"match_id": match_id, "deal": i, "record": r, "verdict": v, "start": start}
                                          for i, (r, v, start) in enumerate(zip(record["deals"], verdict["deals"], starts))])
        conn.execute(matches.update().where(matches.c.id == match_id)
                     .values(record=_shell(record), verdict=_shell(verdict)))


def downgrade() -> None:
    conn = op.get_bind()
    for match_id in conn.execute(sa.select(matches.c.id)).scalars().all():
        record, verdict = conn.execute(sa.select(matches.c.record, matches.c.verdict)
                                       .where(matches.c.id == match_id)).one()
        rows = conn.execute(sa.select(deals.c.record, deals.c.verdict).where(deals.c.match_id == match_id)
                            .order_by(deals.c.deal)).all()
        conn.execute(matches.update().where(matches.c.id == match_id).values(
            record=_whole(record, [r.record for r in rows]), verdict=_whole(verdict, [r.verdict for r in rows])))
    op.drop_table('match_deals')


# -- frozen ------------------------------------------------------------------------------
# Copies, as they were at this revision, of the code that moved the data (referee/store/
# deals.py's shell, whole, initial and standings, referee/judge.py's choice of the deal
# judged alone, referee/settlers.py's Recorded): a migration is run against databases made
# long before, by whatever the store's code has become by then, so it must move the data as
# it was moved when written. This is the one place where a copy is right. It calls the live
# code only in the engine's public judge (referee.engine), on purpose: what standing a deal
# begins from is the rules' to say, and nothing else may say it again.

OVER = ("complete", "ended_by_penalty", "redeal")  # a deal the next one may follow


def _shell(whole: dict) -> dict:
    """A record or verdict with its deals counted, not kept."""
    return {**whole, "deals": len(whole["deals"])}


def _whole(shell: dict, deals: list[dict]) -> dict:
    return {**shell, "deals": deals}


def _initial(record: dict) -> dict:
    """The standing before any deal."""
    return Totals(resolve(record["preset"], record.get("options"))).as_dict()


def _standings(record: dict, verdict: dict, start: dict) -> list[dict]:
    """The standing each deal begins from, deal 0 from `start`: each deal before the last
    judged alone from the one before (judge_last) where the deal before it is over and the
    match not won, else the record up to it judged whole, with the verdict's recorded
    settlements (no search)."""
    out, settler = [start], _Recorded(verdict)
    unclosed = {k: v for k, v in record.items() if k != "closed"}  # a close comes after every deal
    for i in range(len(record["deals"]) - 1):
        if (i == 0 or verdict["deals"][i - 1]["status"] in OVER) and not out[-1]["finished"]:
            last = Record.from_dict({"preset": record["preset"], "options": record.get("options"),
                                     "deals": record["deals"][i:i + 1]})
            judged = judge_last(last, verdict["deals"][:i], out[-1], settler)
        else:
            judged = judge(Record.from_dict({**unclosed, "deals": record["deals"][:i + 1]}), settler=settler).as_dict()
        out.append(judged["match"])
    return out


class _Recorded:
    """The lines of a stored verdict replayed (never a search): a claim with no line that
    fits is the record error claim_unsettled; a bell with none keeps the deal abandoned."""

    def __init__(self, verdict: dict):
        self.deals = verdict.get("deals") or []

    def settle(self, deal, index: int) -> Line:
        line = self.line(deal, index)
        if line is None:
            raise RecordError("claim_unsettled", f"no settlement of the claim of seat {deal.claimed.seat} is recorded "
                              "with this revision that fits its position", deal.claimed.event)
        return line

    def line(self, deal, index: int) -> Line | None:
        claim = self._deal(index).get("claim")
        table = deal.claimed.as_dict()
        if not isinstance(claim, dict) or "line" not in claim or any(claim.get(k) != v for k, v in table.items()):
            return None
        events = _plays(claim["line"])
        if events is None or not _fits(deal, events):
            return None
        return Line(events, {k: v for k, v in claim.items() if k not in table})

    def finish(self, deal, index: int) -> Line | str:
        at_close = self._deal(index).get("at_close")
        if not isinstance(at_close, dict):
            return "not_recorded"
        if not at_close.get("perfect_play"):
            return at_close.get("reason") or "not_recorded"
        events = _plays(at_close.get("line"))
        if events is None or at_close.get("event") != deal.n_events or not _fits(deal, events):
            return "not_recorded"
        return Line(events, None)

    def _deal(self, index: int) -> dict:
        deal = self.deals[index] if 0 <= index < len(self.deals) else None
        return deal if isinstance(deal, dict) else {}


def _plays(line) -> tuple | None:
    try:
        return tuple(Event(p["seat"], REVEAL) if p["card"] == "reveal" else Event(p["seat"], PLAY, Card.parse(p["card"]))
                     for p in line)
    except (TypeError, KeyError, RefereeError):
        return None


def _fits(deal, events: tuple) -> bool:
    trial = deal.copy()
    violations = len(trial.violations)
    try:
        trial.play_line(events)
    except RecordError:
        return False
    return trial.is_over and len(trial.violations) == violations
