"""Play in the browser: a lobby, tables over WebSockets, records and a leaderboard (``majiang serve``).

* :mod:`majiang.web.app` -- the FastAPI application (:func:`~majiang.web.app.create_app`);
* :mod:`majiang.web.rooms` -- tables and their game loops (bots, time limits, reconnects);
* :mod:`majiang.web.state` -- what each connection may see;
* :mod:`majiang.web.db` -- SQLAlchemy models and Alembic migrations;
* :mod:`majiang.web.auth` -- password hashing and the log-in rate limit;
* :mod:`majiang.web.cli` -- the ``serve`` click command.
"""
