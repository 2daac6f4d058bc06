"""Finding rule sets: the entry-point group ``majiang.rulesets`` (issue 12, ``docs/rulesets.md``).

A distribution registers its rule sets in its ``pyproject.toml``::

    [project.entry-points."majiang.rulesets"]
    taiwan = "majiang.rules.taiwan.ruleset:RULESET"

The object an entry point names is a :class:`~majiang.rules.base.RuleSetDef`, a sequence of them,
or a function returning either. majiang's own six (``mcr``, ``taiwan``, ``wenzhou``, ``wenzhou-w16``,
``seed000``, ``shandong``) are registered the same way. Only when the installed metadata of majiang
itself lacks the group (a source tree whose editable install predates it) are majiang's own entries
read from :data:`_OWN_ENTRY_POINTS`, the same list as in ``pyproject.toml``.

Reading the installed metadata costs tens of milliseconds (more on a busy machine), which a bot
started afresh for every Botzone turn pays each time. So a lookup of one name (:func:`get`,
:func:`find`, :func:`scorer_factory`, :func:`settlement_factory`, :func:`shape_rules`) first tries
majiang's own rule sets, loaded from :data:`_OWN_ENTRY_POINTS` without the metadata, and reads the
entry points only for a name they lack. Every listing (:func:`rulesets`, :func:`names`, ...) reads
them. A plug-in cannot take a name of majiang's own (the clash is reported when the entry points are
read), so the answer for a built-in name is the same either way.

Public functions (the engine, the command line and the web table use them):

* :func:`rulesets` -- every rule set by name, :func:`names` -- the names, :func:`get` -- one by
  name or alias (:class:`~majiang.rules.base.RuleSetError` naming the known ones);
* :func:`describe` -- for a rule-set name, plain JSON values: its labels, unit, its options
  (``name, type, default, label_zh, label_en, help, choices, ...``) and its pattern catalogue
  (``id, name_zh, name_en, points``): what a rules form and its translations need;
* :func:`register` -- add a rule set at run time (tests, notebooks); :func:`reload` -- read the
  entry points again;
* :func:`scorer_factory`, :func:`settlement_factory`, :func:`shape_rules` -- lookups by the names a
  rule set's table gives (used by :class:`majiang.engine.RuleSet`); :func:`scorer_owner` and
  :func:`bot_tuning` -- the rule set behind a scorer, and how the bots play it.

Two rule sets may not share a name, an alias, a scorer or settlement name with different factories,
or a shape name: :class:`~majiang.rules.base.RuleSetError` says which distributions clash.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

from majiang.analysis import ShapeRules
from majiang.rules.base import DEFAULT_TUNING, BotTuning, RuleSetDef, RuleSetError, ScorerFactory, SettlementFactory

GROUP = "majiang.rulesets"
"""The entry-point group rule sets register under."""

_OWN_ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("mcr", "majiang.rules.mcr.ruleset:RULESET"),
    ("taiwan", "majiang.rules.taiwan.ruleset:RULESET"),
    ("wenzhou", "majiang.rules.wenzhou.ruleset:RULESETS"),
    ("seed000", "majiang.rules.seed000.ruleset:RULESET"),
    ("shandong", "majiang.rules.shandong.ruleset:RULESET"),
)
"""majiang's own entries, as in ``pyproject.toml``; read only if the installed metadata lacks them."""


class _Registry:
    def __init__(self) -> None:
        self.defs: dict[str, RuleSetDef] = {}
        self.aliases: dict[str, str] = {}
        self.scorers: dict[str, ScorerFactory] = {}
        self.settlements: dict[str, SettlementFactory] = {}
        self.shapes: dict[str, ShapeRules] = {}
        self.origin: dict[str, str] = {}
        self.owners: dict[str, RuleSetDef] = {}  # scorer name -> the rule set declaring it

    def add(self, d: RuleSetDef, origin: str) -> None:
        if not isinstance(d, RuleSetDef):
            raise RuleSetError(f"{origin}: expected a majiang.rules.base.RuleSetDef, got {type(d).__name__}")
        validate(d, origin)
        for n in (d.name, *d.aliases):
            if n in self.defs or n in self.aliases:
                other = self.origin.get(self.aliases.get(n, n), "?")
                if self.defs.get(n) is d:
                    return
                raise RuleSetError(f"rule set name {n!r} of {origin} is already taken by {other}")
        for kind, mine, theirs in (("scorer", d.scorers, self.scorers), ("settlement", d.settlements, self.settlements),
                                   ("shapes", d.shapes, self.shapes)):
            for n, f in mine.items():
                if n in theirs and theirs[n] is not f:
                    raise RuleSetError(f"{kind} name {n!r} of rule set {d.name!r} ({origin}) is already taken")
        self.defs[d.name] = d
        self.origin[d.name] = origin
        for a in d.aliases:
            self.aliases[a] = d.name
        self.scorers.update(d.scorers)
        for n in d.scorers:
            self.owners.setdefault(n, d)
        self.settlements.update(d.settlements)
        self.shapes.update(d.shapes)


def validate(d: RuleSetDef, origin: str) -> None:
    """Check a rule set's declaration when it is registered (issue 30), so that a plug-in's mistake is
    reported by name at once rather than as a bare ``TypeError`` at first use: every ``table`` key is a
    :class:`~majiang.engine.RuleSet` field, a ``true``/``false`` field holds a bool, an int field an int,
    and a value of a labelled table option (:data:`~majiang.rules.base.TABLE_OPTIONS`) suits it.
    Raises :class:`RuleSetError` naming the rule set and ``origin`` (its distribution and entry point)."""
    import dataclasses

    from majiang.engine.ruleset import RuleSet  # the engine's fields; imported here (the engine imports us)
    from majiang.rules.base import TABLE_OPTIONS

    fields = {f.name: f for f in dataclasses.fields(RuleSet) if not f.name.startswith("_")}
    where = f"rule set {d.name!r} of {origin}"
    for k, v in d.table.items():
        f = fields.get(k)
        if f is None or k in ("name", "rule_options"):
            hint = " (the tile set is the field 'tiles', e.g. tiles=\"mps\" for no honours)" \
                if k in ("honours", "honors", "suits", "tile_set") else ""
            raise RuleSetError(f"{where}: unknown table key {k!r}{hint}; known: "
                               f"{', '.join(n for n in fields if n not in ('name', 'rule_options'))}")
        if f.type in ("bool", bool) and not isinstance(v, bool):
            raise RuleSetError(f"{where}: table key {k}={v!r} must be true or false")
        if f.type in ("int", int) and (not isinstance(v, int) or isinstance(v, bool)):
            raise RuleSetError(f"{where}: table key {k}={v!r} must be an int")
        if k in TABLE_OPTIONS:
            try:
                TABLE_OPTIONS[k].check(v)
            except RuleSetError as e:
                raise RuleSetError(f"{where}: table key {e}".replace("rule option ", "")) from None


_REG: _Registry | None = None
_EXTRA: list[tuple[RuleSetDef, str]] = []


def _unpack(obj: Any, origin: str) -> Iterable[RuleSetDef]:
    if callable(obj) and not isinstance(obj, RuleSetDef):
        obj = obj()
    if isinstance(obj, RuleSetDef):
        return (obj,)
    try:
        return tuple(obj)
    except TypeError:
        raise RuleSetError(f"{origin}: expected a RuleSetDef or a sequence of them, got {type(obj).__name__}") from None


def _load(value: str) -> Any:
    mod, _, attr = value.partition(":")
    obj: Any = importlib.import_module(mod)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def _build() -> _Registry:
    reg = _Registry()
    eps = list(metadata.entry_points(group=GROUP))
    seen_values = {ep.value for ep in eps}
    own = [(n, v) for n, v in _OWN_ENTRY_POINTS if v not in seen_values]
    entries: list[tuple[str, Callable[[], Any], str]] = []
    for n, v in own:  # a source tree whose installed metadata predates the group
        entries.append((n, lambda v=v: _load(v), f"majiang ({v})"))
    own_order = [v for _, v in _OWN_ENTRY_POINTS]
    for ep in sorted(eps, key=lambda e: (own_order.index(e.value) if e.value in own_order else len(own_order),
                                         e.name)):
        dist = getattr(getattr(ep, "dist", None), "name", None) or "?"
        entries.append((ep.name, ep.load, f"{dist} ({ep.value})"))
    missing = [(n, lambda v=v: _load(v), f"majiang ({v})") for n, v in own]  # metadata predating the group
    entries = missing + entries if missing else entries
    for _name, load, origin in entries:
        try:
            obj = load()
        except RuleSetError:
            raise
        except Exception as e:  # noqa: BLE001 - a broken plug-in is named, not hidden
            raise RuleSetError(f"cannot load rule set entry point {origin}: {type(e).__name__}: {e}") from e
        for d in _unpack(obj, origin):
            reg.add(d, origin)
    for d, origin in _EXTRA:
        reg.add(d, origin)
    return reg


_OWN: _Registry | None = None


def _own() -> _Registry:
    """majiang's own rule sets only, without reading the installed metadata (module doc)."""
    global _OWN
    if _OWN is None:
        own = _Registry()
        for _n, v in _OWN_ENTRY_POINTS:
            origin = f"majiang ({v})"
            for d in _unpack(_load(v), origin):
                own.add(d, origin)
        _OWN = own
    return _OWN


def _one(table: str, name: str) -> Any:
    """``name`` looked up in the registry's ``table`` ("defs", "scorers", ...): among majiang's own
    first while the entry points have not been read, then in the full registry."""
    if _REG is None:
        own = _own()
        got = getattr(own, table).get(own.aliases.get(name, name) if table == "defs" else name)
        if got is not None:
            return got
    reg = _reg()
    return getattr(reg, table).get(reg.aliases.get(name, name) if table == "defs" else name)


def _reg() -> _Registry:
    global _REG
    if _REG is None:
        _REG = _build()
    return _REG


def reload() -> None:
    """Forget what was found and read the entry points again (after installing a plug-in)."""
    global _REG
    _REG = None


def register(d: RuleSetDef, origin: str = "register()") -> RuleSetDef:
    """Add ``d`` without an entry point (kept across :func:`reload`); returns ``d``."""
    _reg().add(d, origin)  # raises RuleSetError on a clash, before anything is kept
    _EXTRA.append((d, origin))
    return d


def unregister(name: str) -> None:
    """Remove a rule set added with :func:`register` (tests)."""
    _EXTRA[:] = [(d, o) for d, o in _EXTRA if d.name != name]
    reload()


def rulesets() -> dict[str, RuleSetDef]:
    """Every rule set found, by name (majiang's own first, then plug-ins by entry-point name)."""
    return dict(_reg().defs)


def names() -> tuple[str, ...]:
    """The names of :func:`rulesets` (aliases not included)."""
    return tuple(_reg().defs)


def own_names() -> tuple[str, ...]:
    """majiang's own rule-set names, each followed by its aliases (without reading the entry points)."""
    return tuple(n for d in _own().defs.values() for n in (d.name, *d.aliases))


def aliases() -> dict[str, str]:
    """Alias → rule-set name (``{"wenzhou13": "wenzhou"}``)."""
    return dict(_reg().aliases)


def get(name: str) -> RuleSetDef:
    """The rule set called ``name`` (or an alias of it). Raises :class:`RuleSetError` naming the known ones."""
    d = _one("defs", name) if isinstance(name, str) else None
    if d is None:
        reg = _reg()
        known = ", ".join(list(reg.defs) + [f"{a} (= {c})" for a, c in reg.aliases.items()])
        raise RuleSetError(f"unknown rule set {name!r}; known: {known} (a rule set of a plug-in is known once "
                           "its package is installed, e.g. pip install -e plugins/majiang-sichuan; docs/rulesets.md)")
    return d


def find(name: str) -> RuleSetDef | None:
    """:func:`get` or ``None``."""
    return _one("defs", name) if isinstance(name, str) else None


def scorer_factory(name: str) -> ScorerFactory | None:
    """The scorer factory a rule set registered under ``name``, or ``None``."""
    return _one("scorers", name)


def scorer_owner(name: str) -> RuleSetDef | None:
    """The rule set that declares the scorer ``name`` (the first one, when several share it), or ``None``
    for a generic scorer (``fixed``, ...)."""
    return _one("owners", name)


def bot_tuning(scorer: str) -> BotTuning:
    """How the bots play a table scored by ``scorer``: the :class:`~majiang.rules.base.BotTuning` of the
    rule set declaring it (:func:`scorer_owner`), the defaults for a generic scorer."""
    d = _one("owners", scorer)
    return d.bot_tuning if d is not None else DEFAULT_TUNING


def settlement_factory(name: str) -> SettlementFactory | None:
    """The settlement factory a rule set registered under ``name``, or ``None``."""
    return _one("settlements", name)


def shape_rules(name: str) -> ShapeRules | None:
    """The :class:`ShapeRules` a rule set registered under ``name``, or ``None``."""
    return _one("shapes", name)


def shape_names() -> tuple[str, ...]:
    return tuple(_reg().shapes)


def scorer_names() -> tuple[str, ...]:
    return tuple(_reg().scorers)


def settlement_names() -> tuple[str, ...]:
    return tuple(_reg().settlements)


def describe(name: str) -> dict[str, Any]:
    """Everything a rules form needs about rule set ``name`` (or an alias), as plain JSON values::

        {"name": "taiwan", "label_zh": "台湾十六张", "label_en": "Taiwan 16-tile", "summary": "...",
         "summary_zh": "...", "summary_en": "...", "headline_options": ["bao_pai", "minimum_tai"],
         "unit": "tai", "aliases": [],
         "options": [{"name", "type", "default", "label_zh", "label_en", "help", "choices",
                      "minimum", "maximum", "nullable", "target"}, ...],
         "patterns": [{"id", "name_zh", "name_en", "points"}, ...]}

    ``options`` are the table options the rule set offers (``target="table"``, defaults its table
    values) then its own (``target="rules"``); each is set in a spec as ``"taiwan,name=value"``.
    ``summary_zh``/``summary_en`` say for players what kind of game it is and ``headline_options`` name
    the options a lobby shows first (``""`` and ``[]`` when the rule set declares none).
    ``patterns`` ids are those of the record's ``hora.patterns``. Raises :class:`RuleSetError` for an
    unknown name."""
    d = get(name)
    return {"name": d.name, "label_zh": d.label_zh, "label_en": d.label_en, "summary": d.summary,
            "summary_zh": d.summary_zh, "summary_en": d.summary_en, "headline_options": list(d.headline_options),
            "unit": d.unit,
            "aliases": list(d.aliases), "options": [o.as_dict() for o in d.all_options()],
            "patterns": [p.as_dict() for p in d.pattern_catalogue()]}
