"""read-only tournament keys; webhook secrets sealed (longer column); feed events by match

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 06:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('read_key_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('webhooks') as batch:
        batch.alter_column('secret', type_=sa.Text(), existing_type=sa.String(length=64), existing_nullable=False)
    op.create_index(op.f('ix_feed_events_match_id'), 'feed_events', ['match_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_feed_events_match_id'), table_name='feed_events')
    with op.batch_alter_table('webhooks') as batch:
        batch.alter_column('secret', type_=sa.String(length=64), existing_type=sa.Text(), existing_nullable=False)
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('read_key_hash')
