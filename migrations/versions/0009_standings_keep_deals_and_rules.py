"""the standings rows keep their teams' deals and deciding rules; tournaments count those finished

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06 06:50:00

The tournament page and `referee standings` showed each team's deals and the rules that
decided its matches, and how many matches were finished, counted from every match of the
tournament on each read. Now each standings row keeps its deals and its rules (each with
how many of its matches it decided, [[id, matches], ...]) and the tournament its finished
matches, updated by the write that changes them (referee/store/standings.py); here they
are counted once from the matches stored. The code is this file's own, as a migration's
must be: it moves the data as the schema of 0008 holds it, whatever the store's code
becomes.
"""
from collections import Counter

from alembic import op
import sqlalchemy as sa

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

matches = sa.table('matches', sa.column('id', sa.String), sa.column('tournament_id', sa.String),
                   sa.column('status', sa.String), sa.column('created_at', sa.DateTime),
                   sa.column('record', sa.JSON), sa.column('verdict', sa.JSON))
standings = sa.table('standings', sa.column('tournament_id', sa.String), sa.column('team_key', sa.String),
                     sa.column('team', sa.JSON), sa.column('deals', sa.Integer), sa.column('rules', sa.JSON))
tournaments = sa.table('tournaments', sa.column('id', sa.String), sa.column('finished_count', sa.Integer))


def upgrade() -> None:
    with op.batch_alter_table('standings') as batch:
        batch.add_column(sa.Column('deals', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('rules', sa.JSON(), nullable=False, server_default='[]'))
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('finished_count', sa.Integer(), nullable=False, server_default='0'))
    conn = op.get_bind()
    for tid in conn.execute(sa.select(tournaments.c.id)).scalars().all():
        _count(conn, tid)


def _count(conn, tid: str) -> None:
    """A tournament's finished matches, and its teams' deals and rules from the valid ones
    (those the standings count; a match row holds its deals' count since 0006)."""
    c = matches.c
    found = conn.execute(sa.select(c.record['players'], c.verdict['valid'], c.verdict['match'], c.verdict['deals'])
                         .where(c.tournament_id == tid, c.status == 'finished')
                         .order_by(c.created_at, c.id)).all()  # a team's rules in the order its matches were made
    credit: dict[tuple, tuple[int, Counter]] = {}
    for players, valid, standing, deals in found:
        if not valid:
            continue
        rules = Counter(dict.fromkeys(standing.get('rule') or [], 1))
        for team in (0, 1):  # the partners of seats team and team + 2, in name order
            pair = tuple(sorted(players[team::2]))
            had, ruled = credit.get(pair, (0, Counter()))
            credit[pair] = had + deals, ruled + rules
    conn.execute(tournaments.update().where(tournaments.c.id == tid).values(finished_count=len(found)))
    for key, team in conn.execute(sa.select(standings.c.team_key, standings.c.team)
                                  .where(standings.c.tournament_id == tid)).all():
        deals, rules = credit.get(tuple(team), (0, Counter()))
        conn.execute(standings.update().where(standings.c.tournament_id == tid, standings.c.team_key == key)
                     .values(deals=deals, rules=[[rule, n] for rule, n in rules.items()]))


def downgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('finished_count')
    with op.batch_alter_table('standings') as batch:
        batch.drop_column('rules')
        batch.drop_column('deals')
