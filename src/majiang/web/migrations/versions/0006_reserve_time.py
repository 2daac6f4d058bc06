"""time bank: a table's reserve seconds per player per hand, beside its base time per decision

Revision ID: 0006_reserve_time
Revises: 0005_friends
"""
import sqlalchemy as sa
from alembic import op

revision = "0006_reserve_time"
down_revision = "0005_friends"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("live_tables") as b:
        b.add_column(sa.Column("reserve_time", sa.Float, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as b:
        b.drop_column("reserve_time")
