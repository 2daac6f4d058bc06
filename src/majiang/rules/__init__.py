"""Scoring rule sets, one sub-package per rule set (RULES.md §8, "Suggested shape"; issue 12).

* :mod:`majiang.rules.base` — the protocol below the engine: ``WinContext``, ``ScoreResult``,
  ``Scorer``, ``Settlement``, ``Option``, ``PatternInfo``, ``RuleSetDef``;
* :mod:`majiang.rules.registry` — rule sets found through the entry-point group ``majiang.rulesets``;
  ``registry.describe(name)`` gives a rule set's options and pattern catalogue as JSON values;
* one package per rule set, each with a ``ruleset.py`` declaring it: :mod:`majiang.rules.mcr` (Chinese
  Official, the 81 fans), :mod:`majiang.rules.taiwan`, :mod:`majiang.rules.wenzhou` (W13 and W16),
  :mod:`majiang.rules.seed000`, :mod:`majiang.rules.shandong`; :mod:`majiang.rules.settlement` the
  shared zero-sum ledger.
"""
