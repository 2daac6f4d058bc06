"""Doors for bots written outside majiang.

* :mod:`majiang.protocols.botzone` -- Botzone's Chinese Standard Mahjong protocol (requests
  ``0``-``3``, responses ``PASS``/``PLAY``/``PENG``/...), both input forms and keep-running mode; a
  seat's knowledge and its legal responses; any majiang bot as a Botzone bot (``majiang bot``).
* :mod:`majiang.protocols.judge` -- a local judge with Botzone's rules (per-seat wall quarters,
  claim priority, 8-fan minimum, its scoring, time limits, -30 for a fault).
* :mod:`majiang.protocols.jsonl` -- our JSON-lines bot protocol for every rule set (record events
  plus ``possible_actions`` at each decision).
* :mod:`majiang.protocols.procs` -- external bots as subprocesses (time limits, crashes, garbage).

Tournaments between any of these bots live in :mod:`majiang.tournament`; the guide is
``docs/bots.md`` and the message reference ``docs/protocol.md``.
"""
