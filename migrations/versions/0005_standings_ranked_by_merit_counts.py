"""the standings' ranks counted from the teams of each merit, not from every row above

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06 04:40:00

0004 counted a rank from the rows above it on an index of the teams' merits: a count over as
many rows as rank above, which grew with the tournament (a finished match between two new
teams counted most of the table, several times). Now a table keeps how many teams have each
merit (won, court difference, points difference), and a rank is summed over the merits
above it, which are few beside the teams; the standings rows no longer keep the
differences, and lose the index.
"""
from alembic import op
import sqlalchemy as sa

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

MERIT = ['won', 'court_difference', 'points_difference']


def upgrade() -> None:
    op.create_table(
        'standing_merits',
        sa.Column('tournament_id', sa.String(length=32), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False, autoincrement=False) for name in MERIT),
        sa.Column('teams', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_standing_merits_tournament_id_tournaments')),
        sa.PrimaryKeyConstraint('tournament_id', *MERIT, name=op.f('pk_standing_merits')),
    )
    op.execute('INSERT INTO standing_merits (tournament_id, won, court_difference, points_difference, teams) '
               'SELECT tournament_id, won, court_difference, points_difference, count(*) FROM standings '
               'GROUP BY tournament_id, won, court_difference, points_difference')
    op.drop_index('ix_standings_merit', table_name='standings')
    with op.batch_alter_table('standings') as batch:
        batch.drop_column('court_difference')
        batch.drop_column('points_difference')


def downgrade() -> None:
    with op.batch_alter_table('standings') as batch:
        batch.add_column(sa.Column('court_difference', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('points_difference', sa.Integer(), nullable=True))
    op.execute('UPDATE standings SET court_difference = courts_for - courts_against, '
               'points_difference = points_for - points_against')
    with op.batch_alter_table('standings') as batch:
        batch.alter_column('court_difference', existing_type=sa.Integer(), nullable=False)
        batch.alter_column('points_difference', existing_type=sa.Integer(), nullable=False)
    op.create_index('ix_standings_merit', 'standings', ['tournament_id', 'won', 'court_difference', 'points_difference'],
                    unique=False)
    op.drop_table('standing_merits')
