"""Alembic environment: run with a connection passed in ``config.attributes["connection"]``
(:func:`majiang.web.db.migrate`), or with ``sqlalchemy.url`` set for offline/CLI use."""

from alembic import context
from sqlalchemy import create_engine

from majiang.web.db import Base

config = context.config
target_metadata = Base.metadata

conn = config.attributes.get("connection")
if conn is not None:
    context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
elif context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    eng = create_engine(config.get_main_option("sqlalchemy.url"))
    with eng.connect() as c:
        context.configure(connection=c, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
