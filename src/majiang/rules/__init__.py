"""Scoring rule sets, one sub-package per ruleset (RULES.md §8, "Suggested shape").

* :mod:`majiang.rules.mcr` — Chinese Official / MCR, the 81 fans (国标麻将, RULES.md §6, seed 004).
"""
