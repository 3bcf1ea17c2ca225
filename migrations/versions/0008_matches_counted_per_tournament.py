"""each tournament keeps how many matches it holds, which its match limit reads

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 06:40:00

A new match was refused past REFEREE_MAX_MATCHES by counting the tournament's matches, a
count over as many rows as the tournament had. Now the tournament row keeps the count
(`match_count`), one more with each match stored, in the same transaction (see
referee/store/limits.py); here it is counted once from the matches already stored.
"""
from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('match_count', sa.Integer(), nullable=False, server_default='0'))
    op.execute('UPDATE tournaments SET match_count = '
               '(SELECT count(*) FROM matches WHERE matches.tournament_id = tournaments.id)')


def downgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('match_count')
