"""the last deal's row keeps what a live write needs of the deals before it

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 07:00:00

A live write (a card, a deal added) judged its last deal alone but still read every deal
back, to digest and sign the whole record and verdict. Now the last deal's row keeps the
SHA-256 states of the match's record and verdict in canonical form up to that deal and the
events of the deals before it (referee/store/deals.py), so the write reads that row and the
match's. Rows made before have none: the next write of their match reads the whole match
once and writes it.
"""
from alembic import op
import sqlalchemy as sa

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('match_deals') as batch:
        batch.add_column(sa.Column('prefix', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('match_deals') as batch:
        batch.drop_column('prefix')
