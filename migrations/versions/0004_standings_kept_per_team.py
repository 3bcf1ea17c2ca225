"""the standings kept per team, updated by each match's result

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06 04:00:00

A finished match's write counted the standings it changed from every finished match of its
tournament, so that it cost more with each match before it. Now each team's figures are a
row, which the write updates by the match's result (see referee/store/standings.py); the
rows are counted here, once, from the finished matches already stored, with this file's own
copy of the code that counted them (below).
"""
import hashlib

from alembic import op
import orjson
import sqlalchemy as sa

from referee.engine import Record, judge
from referee.engine.cards import Card
from referee.engine.errors import RecordError, RefereeError
from referee.engine.playrecord import PLAY, REVEAL, Event
from referee.engine.settlement import Line

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

matches = sa.table('matches', sa.column('id', sa.String), sa.column('tournament_id', sa.String),
                   sa.column('status', sa.String), sa.column('record', sa.JSON), sa.column('verdict', sa.JSON))
tournaments = sa.table('tournaments', sa.column('id', sa.String))


def upgrade() -> None:
    standings = op.create_table(
        'standings',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        sa.Column('team_key', sa.String(length=64), nullable=False),
        sa.Column('team', sa.JSON(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in (*FIGURES, 'court_difference', 'points_difference')),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], name=op.f('fk_standings_tournament_id_tournaments')),
        sa.PrimaryKeyConstraint('tournament_id', 'team_key', name=op.f('pk_standings')),
    )
    op.create_index('ix_standings_merit', 'standings', ['tournament_id', 'won', 'court_difference', 'points_difference'],
                    unique=False)
    conn = op.get_bind()
    for tid in conn.execute(sa.select(tournaments.c.id)).scalars().all():
        rows = tally(finished_matches(conn, tid))
        if rows:
            conn.execute(standings.insert(), [
                {'tournament_id': tid, 'team_key': team_key(team), 'team': list(team),
                 **{name: row[name] for name in FIGURES}, 'court_difference': row['courts_for'] - row['courts_against'],
                 'points_difference': row['points_for'] - row['points_against']} for team, row in rows.items()])


def downgrade() -> None:
    op.drop_index('ix_standings_merit', table_name='standings')
    op.drop_table('standings')


# -- frozen ------------------------------------------------------------------------------
# Copies, as they were at this revision, of the code that counts the rows (referee/store/
# standings.py's FIGURES, team_key, finished_matches and tally, with referee/settlers.py's
# Recorded for the winner of a match closed before records carried `closed`): a migration
# is run against databases made long before, by whatever the store's code has become by
# then, so it must count as it counted when written. This is the one place where a copy is
# right. Of the live code it calls the engine's judge only: who won is the rules' to say.

FIGURES = ("played", "won", "lost", "drawn", "courts_for", "courts_against", "points_for", "points_against")


def team_key(team: tuple[str, ...]) -> str:
    return hashlib.sha256(orjson.dumps(list(team))).hexdigest()


def finished_matches(conn, tid: str) -> list[tuple[dict, dict]]:
    """The tournament's finished matches as (record, verdict), with what `tally` reads: the
    players and the verdict's validity and standing (the whole of a match closed before
    records carried `closed`, which `_winner` judges)."""
    c = matches.c
    stmt = sa.select(c.id, c.record['players'], c.verdict['valid'], c.verdict['match']).where(
        c.tournament_id == tid, c.status == 'finished')
    found, whole = [], []
    for mid, players, valid, standing in conn.execute(stmt).all():
        if valid and not standing['finished']:
            whole.append(mid)
        else:
            found.append(({'players': players}, {'valid': valid, 'match': standing}))
    if whole:
        found += [(r.record, r.verdict) for r in conn.execute(sa.select(c.record, c.verdict).where(c.id.in_(whole)))]
    return found


def tally(found: list[tuple[dict, dict]]) -> dict[tuple[str, ...], dict]:
    """Per team (the pair of partners, seats t and t + 2, in name order), its figures."""
    rows: dict[tuple[str, ...], dict] = {}
    for record, verdict in found:
        if not verdict['valid']:
            continue
        winner, m = _winner(record, verdict), verdict['match']
        for team in (0, 1):
            pair = tuple(sorted(record['players'][team::2]))
            row = rows.setdefault(pair, {'team': list(pair), **dict.fromkeys(FIGURES, 0)})
            row['played'] += 1
            row['won' if winner == team else 'drawn' if winner is None else 'lost'] += 1
            row['courts_for'] += m['courts'][team]
            row['courts_against'] += m['courts'][1 - team]
            row['points_for'] += m['points'][team]
            row['points_against'] += m['points'][1 - team]
    return rows


def _winner(record: dict, verdict: dict) -> int | None:
    """The winner as the verdict says; a match closed before records carried `closed` judged
    closed (R-26) with the claims its verdict settled (no search)."""
    if verdict['match']['finished']:
        return verdict['match']['winner']
    return judge(Record.from_dict({**record, 'closed': True}), settler=_Recorded(verdict)).as_dict()['match']['winner']


class _Recorded:
    """The lines of a stored verdict replayed (never a search): a claim with no line that
    fits is the record error claim_unsettled; a bell with none keeps the deal abandoned."""

    def __init__(self, verdict: dict):
        self.deals = verdict.get('deals') or []

    def settle(self, deal, index: int) -> Line:
        line = self.line(deal, index)
        if line is None:
            raise RecordError('claim_unsettled', f'no settlement of the claim of seat {deal.claimed.seat} is recorded '
                              'with this revision that fits its position', deal.claimed.event)
        return line

    def line(self, deal, index: int) -> Line | None:
        claim = self._deal(index).get('claim')
        table = deal.claimed.as_dict()
        if not isinstance(claim, dict) or 'line' not in claim or any(claim.get(k) != v for k, v in table.items()):
            return None
        events = _plays(claim['line'])
        if events is None or not _fits(deal, events):
            return None
        return Line(events, {k: v for k, v in claim.items() if k not in table})

    def finish(self, deal, index: int) -> Line | str:
        at_close = self._deal(index).get('at_close')
        if not isinstance(at_close, dict):
            return 'not_recorded'
        if not at_close.get('perfect_play'):
            return at_close.get('reason') or 'not_recorded'
        events = _plays(at_close.get('line'))
        if events is None or at_close.get('event') != deal.n_events or not _fits(deal, events):
            return 'not_recorded'
        return Line(events, None)

    def _deal(self, index: int) -> dict:
        deal = self.deals[index] if 0 <= index < len(self.deals) else None
        return deal if isinstance(deal, dict) else {}


def _plays(line) -> tuple | None:
    try:
        return tuple(Event(p['seat'], REVEAL) if p['card'] == 'reveal' else Event(p['seat'], PLAY, Card.parse(p['card']))
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
