"""Rule sets as plug-ins (issue 12, docs/rulesets.md).

* majiang's own six rule sets come from the ``majiang.rulesets`` entry points;
* no module under ``majiang/engine/`` imports a rule-set package;
* the example rule set of ``tests/plugins/majiang_example`` -- a package outside ``src/majiang`` -- is
  installed the way pip installs it (a ``*.dist-info`` with ``entry_points.txt`` on ``sys.path``), then
  listed by ``majiang rules``, simulated, scored and replayed, with its options in specs and headers;
* the records written by the engine before the plug-ins (``tests/data/records_v1``, made with main at
  140ac4a) replay unchanged, byte for byte.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from plugin_site import installed

from majiang.cli import main
from majiang.engine import Match, RuleSet, RuleSetError, parse_spec, run_match
from majiang.players.simulate import make_bot
from majiang.records.jsonl import ADDED_FIELDS, dumps, record_lines, replay
from majiang.rules import registry

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "majiang" / "engine"
PLUGIN = ROOT / "tests" / "plugins" / "majiang_example"
OLD_RECORDS = ROOT / "tests" / "data" / "records_v1"
OWN = ("mcr", "taiwan", "wenzhou", "wenzhou-w16", "seed000", "shandong")


# ------------------------------------------------------------------------------------ discovery
def test_own_rule_sets_are_entry_points():
    from importlib import metadata

    eps = {ep.name: ep.value for ep in metadata.entry_points(group=registry.GROUP)}
    assert {"mcr", "taiwan", "wenzhou", "seed000", "shandong"} <= set(eps)
    assert registry.names()[:6] == OWN and registry.aliases()["wenzhou13"] == "wenzhou"


def _rule_packages() -> set[str]:
    pkgs = set()
    for d in registry.rulesets().values():
        for f in (*d.scorers.values(), *d.settlements.values()):
            pkgs.add(f.__module__.rsplit(".", 1)[0] if f.__module__.count(".") >= 3 else f.__module__)
    return pkgs


def test_no_engine_module_imports_a_rule_set_package():
    rule_pkgs = _rule_packages()
    assert {"majiang.rules.mcr", "majiang.rules.taiwan", "majiang.rules.wenzhou", "majiang.rules.seed000",
            "majiang.rules.shandong"} <= rule_pkgs
    for py in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(py.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for n in names:
                bad = [p for p in rule_pkgs if n == p or n.startswith(p + ".")]
                assert not bad, f"{py.name} imports {n}"
                if n.startswith("majiang.rules"):
                    assert n.split(".")[:3] in (["majiang", "rules", "base"], ["majiang", "rules", "registry"]) \
                        or n == "majiang.rules", f"{py.name} imports {n}"


def test_describe_gives_options_and_patterns():
    d = registry.describe("taiwan")
    opts = {o["name"]: o for o in d["options"]}
    assert opts["all_flowers_count"] == {**opts["all_flowers_count"], "type": "bool", "default": False,
                                         "label_zh": "见花见台", "target": "rules"}
    assert opts["reserve"]["default"] == 16 and opts["reserve"]["target"] == "table"  # RULES.md §3.1
    pats = {p["id"]: p for p in d["patterns"]}
    assert pats["tw.huagang"] == {"id": "tw.huagang", "name_zh": "花杠", "name_en": "Flower kong", "points": 2}
    mcr = registry.describe("mcr")
    assert len(mcr["patterns"]) == 82 and {"id": "一般高", "name_zh": "一般高", "name_en": "Pure Double Chow",
                                           "points": 1} in mcr["patterns"]
    assert registry.describe("wenzhou13")["name"] == "wenzhou"
    for name in OWN:
        for o in registry.describe(name)["options"]:
            assert o["label_zh"] and o["label_en"] and o["type"] in ("bool", "int", "str")


def test_table_option_defaults_are_the_rule_sets():
    from majiang.rules.base import TABLE_OPTIONS

    plain = RuleSet()
    for name, o in TABLE_OPTIONS.items():
        assert getattr(plain, name) == o.default, name


def test_rule_options_in_specs_and_headers():
    rs = parse_spec("taiwan,all_flowers_count=true,tai_cap=16,declare_ready=true")
    assert rs.declare_ready and rs.rule_options == (("all_flowers_count", True), ("tai_cap", 16))
    assert rs.scorer_object().options.all_flowers_count and rs.scorer_object().options.tai_cap == 16
    assert RuleSet.from_options(json.loads(json.dumps(rs.to_options()))) == rs
    assert "rule_options" not in RuleSet.preset("taiwan").to_options()  # older headers keep their bytes
    assert parse_spec("taiwan,all_flowers_count=false") == RuleSet.preset("taiwan")  # defaults are not kept
    with pytest.raises(RuleSetError, match="all_flowers_count"):
        parse_spec("mcr,all_flowers_count=true")  # a Taiwan option, not an MCR one
    with pytest.raises(RuleSetError, match="tai_preset"):
        parse_spec("taiwan,tai_preset=c1_default")
    with pytest.raises(RuleSetError, match="expected an int"):
        parse_spec("taiwan,tai_cap=yes")


def test_score_takes_rule_options():
    hand = ["[chi 123m] 456m789m234p77z67s", "--win-tile", "8s", "--flowers", "1234f", "--seat", "1", "--json"]
    r = CliRunner().invoke(main, ["score", "--rules", "taiwan", *hand])
    assert json.loads(r.output)["total"] == 2  # 花槓 (RULES.md §3.2)
    r = CliRunner().invoke(main, ["score", "--rules", "taiwan,all_flowers_count=true", *hand])
    assert json.loads(r.output)["total"] == 5  # 花槓 2 + 春秋冬 3 (RULES.md §3.2 rule 2, §3.5)
    r = CliRunner().invoke(main, ["score", "--rules", "taiwan,base=100,per_tai=20", *hand])
    assert json.loads(r.output)["stakes"] == {"base": 100, "per_tai": 20}
    r = CliRunner().invoke(main, ["score", "--rules", "taiwan,nosuch=1", *hand])
    assert r.exit_code == 2 and "nosuch" in r.output


# ------------------------------------------------------------------------------ old records
@pytest.mark.parametrize("path", sorted(OLD_RECORDS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_old_records_replay_unchanged(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    m = replay(lines)
    new = record_lines(m)

    def strip(line: str) -> str:  # fields added since (hora.notation), absent from the old record
        ev = json.loads(line)
        for k in ADDED_FIELDS.get(ev.get("type", ""), ()):
            ev.pop(k, None)
        return dumps(ev)

    assert [strip(x) for x in new] == lines


# ------------------------------------------------------------------------- the example plug-in
@pytest.fixture()
def example_installed(tmp_path):
    """Install tests/plugins/majiang_example as pip would: its package and a dist-info with the entry
    point on sys.path (the importlib.metadata discovery is the real one)."""
    with installed(tmp_path, PLUGIN / "src", "majiang-example", "majiang_example", "example"):
        yield


def test_example_is_found_and_listed(example_installed):
    assert "example" in registry.names()
    r = CliRunner().invoke(main, ["rules", "--json"])
    names = [d["name"] for d in json.loads(r.output)["rulesets"]]
    assert names[:6] == list(OWN) and "example" in names
    r = CliRunner().invoke(main, ["rules", "example"])
    assert r.exit_code == 0 and "flush_points=4" in r.output and "ex.qingyise" in r.output


def test_example_plays_scores_and_replays(example_installed, tmp_path):
    rules = parse_spec("example,flush_points=6")
    assert rules.rule_options == (("flush_points", 6),) and rules.shapes == "example-pairs"
    wins = 0
    for seed in range(2):
        m = Match(rules, seed=seed, max_hands=3)
        run_match(m, [make_bot("efficiency", rules, seed=seed * 4 + i) for i in range(4)])
        lines = record_lines(m)
        header = json.loads(lines[0])
        assert header["rules"]["name"] == "example" and header["rules"]["rule_options"] == {"flush_points": 6}
        for e in m.events:
            if e["type"] == "hora":
                wins += 1
                ids = [p[0] for p in e["patterns"]]
                assert ids[0] == "ex.base" and ("ex.zimo" in ids) == (e["target"] == e["actor"])
                assert all(p[1] == 6 for p in e["patterns"] if p[0] == "ex.qingyise")
                assert sum(e["deltas"]) == 0 and e["value"] == sum(p[1] * p[2] for p in e["patterns"])
        assert record_lines(replay(lines)) == lines
    assert wins > 0
    # the simulate command names it the same way
    r = CliRunner().invoke(main, ["simulate", "--rules", "example,self_drawn_bonus=false", "--games", "1",
                                  "--max-hands", "2", "--json", "--records", str(tmp_path / "rec")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["value_unit"] == "points"
    (rec,) = (tmp_path / "rec").glob("*.jsonl")
    r = CliRunner().invoke(main, ["replay", str(rec)])
    assert r.exit_code == 0, r.output


def test_example_scores_from_the_command_line(example_installed):
    """11m234m567m789m99m + 1m self-drawn: base 1 + 清一色 (flush_points) + 自摸 1."""
    args = ["score", "11m234m567m789m99m", "--win-tile", "1m", "--self-drawn", "--json"]
    r = json.loads(CliRunner().invoke(main, [*args, "--rules", "example"]).output)
    assert (r["total"], r["pattern_ids"], r["deltas"]) == (6, ["ex.base", "ex.qingyise", "ex.zimo"], [18, -6, -6, -6])
    assert [f["name_zh"] for f in r["fans"]] == ["底分", "清一色", "自摸"]
    r = json.loads(CliRunner().invoke(main, [*args, "--rules", "example,flush_points=10,self_drawn_bonus=false"]).output)
    assert (r["total"], r["pattern_ids"]) == (11, ["ex.base", "ex.qingyise"])


def test_a_clashing_plug_in_is_named(example_installed):
    from majiang.rules.base import RuleSetDef

    clash = RuleSetDef(name="taiwan", label_zh="x", label_en="x", summary="x", table={})
    with pytest.raises(RuleSetError, match="already taken"):
        registry.register(clash, "clash-test")
    assert "taiwan" in registry.names()


def test_built_in_names_resolve_without_reading_the_entry_points(monkeypatch):
    """A bot started afresh for each Botzone turn must not pay for reading every installed
    distribution's metadata (registry module doc): majiang's own names come from its own list."""
    from importlib import metadata

    from majiang.engine import resolve

    def no_metadata(**kw):
        raise AssertionError("the installed metadata was read")

    monkeypatch.setattr(metadata, "entry_points", no_metadata)
    registry.reload()
    try:
        assert registry.get("wenzhou13").name == "wenzhou"  # an alias of our own
        rs = resolve("wenzhou-w16")
        assert rs.scorer_object() is not None and registry.scorer_factory(rs.scorer) is not None
        assert registry.find("taiwan") is registry.get("taiwan")
        with pytest.raises(AssertionError, match="metadata was read"):
            registry.find("no-such-rule-set")  # a name of no built-in: the plug-ins are read
    finally:
        monkeypatch.undo()
        registry.reload()
    assert registry.get("taiwan") is registry.rulesets()["taiwan"]  # the same object either way


def test_wenzhou_offers_the_wild_discard_switch_its_penalty_needs():
    """误打财神 (RULES.md §4.6) only applies where a 财神 may be discarded (§4.2: refused by default),
    so a form offering the penalty must offer the switch too."""
    names = [o["name"] for o in registry.describe("wenzhou")["options"]]
    assert "wild_discard_penalty" in names and "wild_discardable" in names
    (o,) = [o for o in registry.describe("wenzhou")["options"] if o["name"] == "wild_discardable"]
    assert o["default"] is False and o["target"] == "table"
