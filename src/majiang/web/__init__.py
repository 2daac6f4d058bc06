"""Play in the browser: a lobby, tables over WebSockets, records and a leaderboard (``majiang serve``).

* :mod:`majiang.web.app` -- the FastAPI application (:func:`~majiang.web.app.create_app`);
* :mod:`majiang.web.rooms` -- a table (:class:`~majiang.web.rooms.Room`) and what each connection is sent,
  from its parts :mod:`~majiang.web.room_seats` (places, people's requests), :mod:`~majiang.web.room_log`
  (the log that is its state) and :mod:`~majiang.web.room_clock` (clock, claim windows, bots);
* :mod:`majiang.web.lobby` -- the tables of a process, their leases and the watchdog;
* :mod:`majiang.web.state` -- what each connection may see;
* :mod:`majiang.web.db` -- SQLAlchemy models and Alembic migrations;
* :mod:`majiang.web.auth` -- password hashing and the log-in rate limit;
* :mod:`majiang.web.cli` -- the ``serve`` click command.
"""
