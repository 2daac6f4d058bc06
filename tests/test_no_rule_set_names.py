"""The bots (``majiang/players``) and the ``score`` command (``majiang/cli.py``, ``majiang/cli_score.py``) know no
rule set by name: what differs per rule set comes from its ``RuleSetDef`` (``bot_tuning``, ``score_command``),
so a plug-in rule set is played and scored the same way (issue 29).

An AST scan: a string equal to a registered rule-set name, alias or scorer name fails the test where code
compares with it, keys a dict or a lookup with it, or lists it in a tuple, list or set (the usual ways to
branch on a name). Prose in docstrings and messages is not code and is not read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import majiang
from majiang.rules import registry

SRC = Path(majiang.__file__).parent
FILES = sorted((SRC / "players").glob("*.py")) + [SRC / "cli_score.py", SRC / "cli.py"]
SCORE_PARTS_OF_CLI = ("score", "_print_score", "_flower_arg", "_wind", "_seat_opt", "_discarder", "__getattr__")
"""cli.py holds every command: only the ``score`` command's own functions are read there (the ``analyze``
command's ``--shapes`` presets share names with rule sets and are shapes, not a branch on the rule set)."""
NAMES = frozenset(registry.names()) | frozenset(registry.aliases()) | frozenset(registry.scorer_names())


def _strings(node: ast.AST) -> list[ast.Constant]:
    """String constants at ``node`` or directly inside a tuple, list or set literal there."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def name_uses(source: str, names: frozenset[str] = NAMES) -> list[tuple[int, str]]:
    """``(line, name)`` of each place in ``source`` that branches on a name of ``names``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        cands: list[ast.Constant] = []
        if isinstance(node, ast.Compare):
            for x in (node.left, *node.comparators):
                cands += _strings(x)
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                if k is not None:
                    cands += _strings(k)
        elif isinstance(node, ast.Subscript):
            cands += _strings(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and \
                node.func.attr in ("get", "setdefault", "pop"):
            cands += _strings(node.args[0])
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            cands += _strings(node)
        elif isinstance(node, ast.MatchValue):
            cands += _strings(node.value)
        found += [(c.lineno, c.value) for c in cands if c.value in names]
    return sorted(set(found))


def test_the_scan_sees_the_ways_code_branches_on_a_name():
    # the shapes of code this issue removed (strong.py's DEFENCE, RON_RATES, _typical; cli.py's dispatch)
    bad = {
        'DEFENCE = {"taiwan": 0.25}': "taiwan",
        'if rules.scorer == "mcr":\n    pass': "mcr",
        'if sc in ("wz13", "wz16"):\n    pass': "wz13",
        '_WILD_SCORERS = ("wz13", "wz16", "seed000", "shandong")': "seed000",
        'x = LEARNED["taiwan"]': "taiwan",
        'x = RATES.get("wz13", 2.1)': "wz13",
        'match rules.name:\n    case "wenzhou":\n        pass': "wenzhou",
    }
    for code, name in bad.items():
        assert (name in {n for _, n in name_uses(code)}), code
    assert name_uses('"""Taiwan and mcr in prose."""\nraise ValueError("MCR has no wildcards: mcr")') == []
    assert {"mcr", "taiwan", "wenzhou", "wenzhou13", "wenzhou-w16", "seed000", "shandong", "wz13", "wz16"} <= NAMES


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_rule_set_or_scorer_name_in_the_bots_or_the_score_command(path: Path):
    source = path.read_text(encoding="utf-8")
    if path.name == "cli.py":
        parts = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name in SCORE_PARTS_OF_CLI]
        assert {"score", "_print_score"} <= {n.name for n in parts}
        source = "\n".join(ast.unparse(n) for n in parts)
    uses = name_uses(source)
    assert uses == [], f"{path.name} branches on rule-set or scorer names at (line, name): {uses}"
