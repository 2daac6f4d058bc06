"""Records: our JSON-lines game record and importers of other formats.

* :mod:`.jsonl` -- our record: header (rules, seed, walls) + one event per line; ``write_record``,
  ``read_record``, ``replay`` (re-run through the engine, every step checked);
* :mod:`.botzone` -- the Botzone log reader (rounds, winners' hands);
* :mod:`.botzone_replay` -- Botzone rounds replayed through the engine's table (every action legal).
"""
