"""durable tables (live_tables, table_log, table_leases), server-side sessions, log-in failures

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("creator_id", sa.Integer, nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("options_text", sa.String(400), nullable=False),
        sa.Column("max_hands", sa.Integer, nullable=True),
        sa.Column("turn_time", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("places", sa.JSON, nullable=False),
        sa.Column("game_id", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_live_tables_creator_id", "live_tables", ["creator_id"])
    op.create_index("ix_live_tables_status", "live_tables", ["status"])
    op.create_index("ix_live_tables_created_at", "live_tables", ["created_at"])
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("live_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("row", sa.JSON, nullable=False),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("last_seen", sa.DateTime, nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False),
    )
    op.create_index("ix_user_sessions_user_id", "user_sessions", ["user_id"])
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for t in ("login_failures", "user_sessions", "table_leases", "table_log", "live_tables"):
        op.drop_table(t)
