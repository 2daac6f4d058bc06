"""play with friends: display names and avatars, room numbers, private and quick-start tables, chat kept
with a finished game

Revision ID: 0005_friends
Revises: 0004_heartbeats
"""
import sqlalchemy as sa
from alembic import op

revision = "0005_friends"
down_revision = "0004_heartbeats"
branch_labels = None
depends_on = None

OPEN = "status != 'finished'"


def upgrade() -> None:
    with op.batch_alter_table("users") as b:
        b.add_column(sa.Column("display_name", sa.String(64), nullable=True))
        b.add_column(sa.Column("display_key", sa.String(64), nullable=True))
        b.add_column(sa.Column("avatar", sa.String(16), nullable=False, server_default=""))
    # an existing account keeps its login as its display name (logins are ASCII: lower() is casefold)
    op.execute("UPDATE users SET display_name = username, display_key = lower(username)")
    op.create_index("ix_users_display_key", "users", ["display_key"], unique=True)
    with op.batch_alter_table("live_tables") as b:
        b.add_column(sa.Column("room", sa.String(6), nullable=True))
        b.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
        b.add_column(sa.Column("quick", sa.Boolean, nullable=False, server_default=sa.false()))
    # a room number is unique among the tables not finished (a finished table's number is free again)
    op.create_index("ix_live_tables_room_open", "live_tables", ["room"], unique=True,
                    sqlite_where=sa.text(OPEN), postgresql_where=sa.text(OPEN))
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("chat", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as b:
        b.drop_column("chat")
    op.drop_index("ix_live_tables_room_open", "live_tables")
    with op.batch_alter_table("live_tables") as b:
        b.drop_column("quick")
        b.drop_column("private")
        b.drop_column("room")
    op.drop_index("ix_users_display_key", "users")
    with op.batch_alter_table("users") as b:
        b.drop_column("avatar")
        b.drop_column("display_key")
        b.drop_column("display_name")
