"""each tournament keeps how many writes changed its matches, and when the last did

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 07:50:00

The tournament's ETag (every live page poll reads it) counted and summed the revisions of
all its matches, and the list of tournaments took each one's last change as the latest
`updated_at` of its matches: two reads over as many rows as the tournament had. Now the
tournament row keeps both (`write_count`, `changed_at`), updated by each write of one of its
matches in the write's own transaction, under the tournament's row lock the feed's
numbering takes anyway (referee/store/publishing.py, tournaments.touched); here they are
counted once from the matches already stored.
"""
from alembic import op
import sqlalchemy as sa

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('write_count', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('changed_at', sa.DateTime(timezone=True), nullable=True))
    op.execute('UPDATE tournaments SET write_count = (SELECT count(*) + coalesce(sum(revision), 0) FROM matches '
               'WHERE matches.tournament_id = tournaments.id), '
               'changed_at = (SELECT max(updated_at) FROM matches WHERE matches.tournament_id = tournaments.id)')


def downgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('changed_at')
        batch.drop_column('write_count')
