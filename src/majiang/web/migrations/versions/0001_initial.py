"""initial schema: users, games, game_seats, ratings

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_users_username", "users", ["username"], unique=True)
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_index("ix_games_ruleset", "games", ["ruleset"])
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_table(
        "game_seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
    )
    op.create_index("ix_game_seats_game_id", "game_seats", ["game_id"])
    op.create_index("ix_game_seats_user_id", "game_seats", ["user_id"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.UniqueConstraint("user_id", "ruleset"),
    )
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_index("ix_ratings_ruleset", "ratings", ["ruleset"])


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("game_seats")
    op.drop_table("games")
    op.drop_table("users")
