"""the standings kept per team, updated by each match's result

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06 04:00:00

A finished match's write counted the standings it changed from every finished match of its
tournament, so that it cost more with each match before it. Now each team's figures are a
row, which the write updates by the match's result (see referee/store/standings.py); the
rows are counted here, once, from the finished matches already stored.
"""
from alembic import op
import sqlalchemy as sa

from referee.store.standings import FIGURES, finished_matches, tally, team_key

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
        rows = tally(finished_matches(conn, matches, tid))
        if rows:
            conn.execute(standings.insert(), [
                {'tournament_id': tid, 'team_key': team_key(team), 'team': list(team),
                 **{name: row[name] for name in FIGURES}, 'court_difference': row['courts_for'] - row['courts_against'],
                 'points_difference': row['points_for'] - row['points_against']} for team, row in rows.items()])


def downgrade() -> None:
    op.drop_index('ix_standings_merit', table_name='standings')
    op.drop_table('standings')
