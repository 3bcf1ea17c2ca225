"""revisions store patches (what each write changed), the head's record and verdict once

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:30:00

Every revision used to hold the whole record and verdict again. Now the match holds its
head's record and verdict, and each revision the patches from the revision before (see
referee/store/patches.py, whose format is a stored format: changing it needs a migration).
Each patch is checked byte for byte as it is made, so every revision reads as it did.
"""
from alembic import op
import sqlalchemy as sa

from referee.store.patches import apply, diff

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

matches = sa.table('matches', sa.column('id', sa.String), sa.column('revision', sa.Integer),
                   sa.column('record', sa.JSON), sa.column('verdict', sa.JSON))
revisions = sa.table('revisions', sa.column('id', sa.Integer), sa.column('match_id', sa.String),
                     sa.column('number', sa.Integer), sa.column('record', sa.JSON), sa.column('verdict', sa.JSON),
                     sa.column('deals', sa.Integer), sa.column('record_patch', sa.JSON),
                     sa.column('verdict_patch', sa.JSON))


def _revision_ids(conn, match_id):
    return conn.execute(sa.select(revisions.c.id).where(revisions.c.match_id == match_id)
                        .order_by(revisions.c.number)).scalars().all()


def upgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('record', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('verdict', sa.JSON(), nullable=True))
    with op.batch_alter_table('revisions') as batch:
        batch.add_column(sa.Column('deals', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('record_patch', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('verdict_patch', sa.JSON(), nullable=True))
    conn = op.get_bind()
    for match_id in conn.execute(sa.select(matches.c.id)).scalars().all():
        record = verdict = None  # one revision in memory at a time: a match may be large
        for rid in _revision_ids(conn, match_id):
            new_record, new_verdict = conn.execute(sa.select(revisions.c.record, revisions.c.verdict)
                                                   .where(revisions.c.id == rid)).one()
            conn.execute(revisions.update().where(revisions.c.id == rid).values(
                deals=len(new_record["deals"]), record_patch=diff(record, new_record),
                verdict_patch=diff(verdict, new_verdict)))
            record, verdict = new_record, new_verdict
        conn.execute(matches.update().where(matches.c.id == match_id).values(record=record, verdict=verdict))
    with op.batch_alter_table('matches') as batch:
        batch.alter_column('record', existing_type=sa.JSON(), nullable=False)
        batch.alter_column('verdict', existing_type=sa.JSON(), nullable=False)
    with op.batch_alter_table('revisions') as batch:
        batch.drop_column('record')
        batch.drop_column('verdict')
        batch.alter_column('deals', existing_type=sa.Integer(), nullable=False)
        batch.alter_column('record_patch', existing_type=sa.JSON(), nullable=False)
        batch.alter_column('verdict_patch', existing_type=sa.JSON(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('revisions') as batch:
        batch.add_column(sa.Column('record', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('verdict', sa.JSON(), nullable=True))
    conn = op.get_bind()
    for match_id in conn.execute(sa.select(matches.c.id)).scalars().all():
        record = verdict = None
        for rid in _revision_ids(conn, match_id):
            record_patch, verdict_patch = conn.execute(sa.select(revisions.c.record_patch, revisions.c.verdict_patch)
                                                       .where(revisions.c.id == rid)).one()
            record, verdict = apply(record, record_patch), apply(verdict, verdict_patch)
            conn.execute(revisions.update().where(revisions.c.id == rid).values(record=record, verdict=verdict))
    with op.batch_alter_table('revisions') as batch:
        batch.alter_column('record', existing_type=sa.JSON(), nullable=False)
        batch.alter_column('verdict', existing_type=sa.JSON(), nullable=False)
        batch.drop_column('deals')
        batch.drop_column('record_patch')
        batch.drop_column('verdict_patch')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('record')
        batch.drop_column('verdict')
