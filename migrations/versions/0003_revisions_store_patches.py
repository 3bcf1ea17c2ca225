"""revisions store patches (what each write changed), the head's record and verdict once

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:30:00

Every revision used to hold the whole record and verdict again. Now the match holds its
head's record and verdict, and each revision the patches from the revision before (see
referee/store/patches.py, whose format is a stored format: changing it needs a migration;
this file makes them with its own copy, below).
Each patch is checked byte for byte as it is made, so every revision reads as it did.
"""
from typing import Any

from alembic import op
import orjson
import sqlalchemy as sa

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


# -- frozen ------------------------------------------------------------------------------
# A copy, as it was at this revision, of referee/store/patches.py's diff and apply: a
# migration is run against databases made long before, by whatever the store's code has
# become by then, so it makes and reads the patches as they were made when it was written.
# This is the one place where a copy is right.

_MISSING = object()


def diff(a: Any, b: Any) -> dict:
    """The patch from `a` to `b` (`a` None: there was nothing before)."""
    return {"=": b} if a is None else _diff(a, b)


def _same(a: Any, b: Any) -> bool:
    """The same JSON, byte for byte."""
    return a is b or (a == b and orjson.dumps(a) == orjson.dumps(b))


def apply(a: Any, patch: dict) -> Any:
    """`a` patched."""
    if "=" in patch:
        return patch["="]
    if "d" in patch:
        out = dict(a)
        for key, sub in patch["d"].items():
            out[key] = apply(a.get(key), sub)
        return out
    keep, edit, tail = patch["l"]
    return a[:keep] + ([apply(a[keep], edit)] if edit is not None else []) + tail


def _diff(a: Any, b: Any) -> dict:
    if type(a) is dict and type(b) is dict and list(b)[:len(a)] == list(a):
        return {"d": {k: _diff(a.get(k, _MISSING), v) for k, v in b.items() if k not in a or not _same(a[k], v)}}
    if type(a) is list and type(b) is list:
        keep = _common_prefix(a, b)
        if keep < len(a) and keep < len(b) and type(a[keep]) is type(b[keep]) and isinstance(b[keep], (dict, list)):
            return {"l": [keep, _diff(a[keep], b[keep]), b[keep + 1:]]}
        return {"l": [keep, None, b[keep:]]}
    return {"=": b}


def _common_prefix(a: list, b: list) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and _same(a[i], b[i]):
        i += 1
    return i
