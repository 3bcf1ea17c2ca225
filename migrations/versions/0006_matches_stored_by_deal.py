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

from referee.store.deals import initial, shell, standings, whole
from referee.store.views import Head

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
            starts = standings(Head(record, verdict), 0, initial(record))
            conn.execute(deals.insert(), [{"match_id": match_id, "deal": i, "record": r, "verdict": v, "start": start}
                                          for i, (r, v, start) in enumerate(zip(record["deals"], verdict["deals"], starts))])
        conn.execute(matches.update().where(matches.c.id == match_id)
                     .values(record=shell(record), verdict=shell(verdict)))


def downgrade() -> None:
    conn = op.get_bind()
    for match_id in conn.execute(sa.select(matches.c.id)).scalars().all():
        record, verdict = conn.execute(sa.select(matches.c.record, matches.c.verdict)
                                       .where(matches.c.id == match_id)).one()
        rows = conn.execute(sa.select(deals.c.record, deals.c.verdict).where(deals.c.match_id == match_id)
                            .order_by(deals.c.deal)).all()
        conn.execute(matches.update().where(matches.c.id == match_id).values(
            record=whole(record, [r.record for r in rows]), verdict=whole(verdict, [r.verdict for r in rows])))
    op.drop_table('match_deals')
