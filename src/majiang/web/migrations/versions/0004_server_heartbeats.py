"""server heartbeats: the live server processes, among which the tables are shared

Revision ID: 0004_heartbeats
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004_heartbeats"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_heartbeats",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("host", sa.String(255), nullable=False),
    )
    op.create_index("ix_server_heartbeats_seen", "server_heartbeats", ["seen"])


def downgrade() -> None:
    op.drop_table("server_heartbeats")
