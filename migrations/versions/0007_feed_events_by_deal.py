"""feed events name their deal in a column: a write reads its deal's events, not the match's

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 05:00:00

A write asks what the feed has announced of the deal it changed (publishing.announced): that
read filtered the match's every event by its payload's `deal`, so it grew with the match.
Now each event keeps its payload's deal (trick, deal and violation events; null for the
match's own) in `deal`, indexed with the match.
"""
from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

events = sa.table('feed_events', sa.column('id', sa.String), sa.column('payload', sa.JSON),
                  sa.column('deal', sa.Integer))
BATCH = 1000


def upgrade() -> None:
    with op.batch_alter_table('feed_events') as batch:
        batch.add_column(sa.Column('deal', sa.Integer(), nullable=True))
        batch.create_index('ix_feed_events_match_id_deal', ['match_id', 'deal'], unique=False)
    conn = op.get_bind()
    last = ""
    while True:  # in batches by id: a feed may be large
        rows = conn.execute(sa.select(events.c.id, events.c.payload).where(events.c.id > last)
                            .order_by(events.c.id).limit(BATCH)).all()
        if not rows:
            break
        deals = [{"key": r.id, "deal": r.payload.get("deal")} for r in rows if type(r.payload.get("deal")) is int]
        if deals:
            conn.execute(events.update().where(events.c.id == sa.bindparam("key")).values(deal=sa.bindparam("deal")),
                         deals)
        last = rows[-1].id


def downgrade() -> None:
    with op.batch_alter_table('feed_events') as batch:
        batch.drop_index('ix_feed_events_match_id_deal')
        batch.drop_column('deal')
