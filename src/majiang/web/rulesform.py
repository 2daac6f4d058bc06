"""The rules form of the lobby: each rule set's own options as labelled controls.

The options come from the rule set itself: :func:`majiang.rules.registry.describe` lists, for each
rule set, its options with their type, default, choices, range and Chinese and English labels (the
table options the rule set offers and its own scoring options). :func:`preset_fields` turns them into
controls: a ``bool`` a switch, a ``str`` with choices a choice, an ``int`` a number (left blank for
``None`` when nullable). A rule set the registry cannot describe falls back to the
:class:`~majiang.engine.ruleset.RuleSet` dataclass fields (:func:`ruleset_fields`), labelled from the
catalogues' ``opt.<name>`` entries.

The form posts ``opt.<preset>.<name>`` for the chosen preset's controls (every preset has its own
group; the page shows only the chosen one); :func:`options_text` turns those that differ from the
defaults into the ``key=value`` text the table keeps (``Room.options_text``) and
:func:`majiang.engine.parse_spec` reads. A form without them (or with the old free-text ``options``
field) works as before; the page no longer shows that field (docs/decisions.md).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from majiang.engine import RuleSet
from majiang.engine import ruleset as _rs
from majiang.rules import registry
from majiang.rules.base import TABLE_OPTIONS

#: RuleSet fields the form never offers: the preset's name and the seat count are fixed by the table.
FIXED = ("name", "players")


@dataclass(frozen=True, slots=True)
class OptionField:
    """One control: ``name`` (the option), ``kind`` (``"bool"``, ``"choice"``, ``"int"``, ``"int?"`` = a
    number or blank for ``None``), ``default`` as the form writes it, ``choices`` (values as strings),
    ``lo``/``hi`` for numbers, labels ``label_zh``/``label_en`` (empty: use the catalogue), ``help``
    (English) and ``help_zh`` (Chinese; :meth:`help_in` falls back to the English), ``choice_names``
    ``((value, name_zh, name_en), ...)`` as the rule set declares them (:meth:`choice_name`)."""

    name: str
    kind: str
    default: str = ""
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    label_zh: str = ""
    label_en: str = ""
    help: str = ""
    help_zh: str = ""
    choice_names: tuple[tuple[str, str, str], ...] = ()

    def choice_name(self, value: str, lang: str) -> str:
        """What players read for choice ``value``: the declared name, else the catalogue's
        ``optv.<name>.<value>``, else the value."""
        for v, zh, en in self.choice_names:
            if v == value:
                return zh if lang == "zh" else en
        from majiang.web import i18n

        return i18n.texts(lang).get(f"optv.{self.name}.{value}", value)

    def help_in(self, lang: str) -> str:
        """The help in ``lang`` (``"zh"`` or ``"en"``): Chinese where known, else the English."""
        return (self.help_zh or self.help) if lang == "zh" else self.help

    def label(self, texts: Mapping[str, str], lang: str) -> str:
        own = self.label_zh if lang == "zh" else self.label_en
        return own or texts.get("opt." + self.name, self.name)


def form_value(v: Any) -> str:
    """A value as the form writes it: ``true``/``false``, the number, the text, blank for ``None``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return "" if v is None else str(v)


def _registry_fields(preset: str) -> list[OptionField] | None:
    try:
        from majiang.rules import registry

        opts = registry.describe(preset)["options"]
    except Exception:  # noqa: BLE001 - no registry, or a rule set it cannot describe: introspect below
        return None
    out = []
    for o in opts:
        typ, choices = o.get("type"), o.get("choices")
        if choices:
            kind = "choice"
        elif typ == "bool":
            kind = "bool"
        elif typ == "int":
            kind = "int?" if o.get("nullable") else "int"
        else:
            continue  # a kind of option a form cannot offer: still settable in the free-text field
        out.append(OptionField(o["name"], kind, form_value(o.get("default")),
                               tuple(str(c) for c in choices or ()), o.get("minimum"), o.get("maximum"),
                               o.get("label_zh") or "", o.get("label_en") or "",
                               o.get("help") or "", o.get("help_zh") or "",
                               tuple((str(v), n.get("zh") or str(v), n.get("en") or str(v))
                                     for v, n in (o.get("choice_names") or {}).items())))
    return out


_KNOWN_CHOICES = {"wild_mode": _rs.WILD_MODES, "multiple_winners": _rs.MULTI_WIN, "first_dealer": _rs.FIRST_DEALER,
                  "hand_size": ("13", "16"), "dice": ("2", "3")}


def _table_words(o: Any) -> dict[str, Any]:
    """The player words of a shared table option (:data:`majiang.rules.base.TABLE_OPTIONS`) as
    :class:`OptionField` keyword arguments."""
    return dict(label_zh=o.label_zh, label_en=o.label_en, help=o.help, help_zh=o.help_zh,
                choice_names=tuple((str(v), zh, en) for v, zh, en in o.choice_names))


def ruleset_fields(preset: str = "mcr") -> list[OptionField]:
    """Every option of :class:`RuleSet` but :data:`FIXED`, from the dataclass fields and types, with
    ``preset``'s defaults (the fallback when the registry cannot describe a rule set)."""
    base = RuleSet.preset(preset)
    names = RuleSet.option_names()
    out = []
    for f in dataclasses.fields(RuleSet):
        if f.name not in names or f.name in FIXED:
            continue
        typ = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        default = form_value(getattr(base, f.name))
        o = TABLE_OPTIONS.get(f.name)
        words = {} if o is None else _table_words(o)
        if f.name in _KNOWN_CHOICES:
            out.append(OptionField(f.name, "choice", default, tuple(str(c) for c in _KNOWN_CHOICES[f.name]), **words))
        elif typ == "bool":
            out.append(OptionField(f.name, "bool", default, **words))
        elif typ == "int":
            out.append(OptionField(f.name, "int", default, lo=0, **words))
        elif typ in ("int | None", "Optional[int]"):
            out.append(OptionField(f.name, "int?", default, lo=0, **words))
    return out


def preset_fields(preset: str) -> list[OptionField]:
    """The controls of ``preset``: its own option list (registry), else the RuleSet fields."""
    got = _registry_fields(preset)
    return got if got else ruleset_fields(preset)


def all_preset_fields() -> dict[str, list[OptionField]]:
    """The controls of every rule set the registry knows now (a plug-in found after start included)."""
    return _fields_of(tuple(registry.names()))


@lru_cache(maxsize=8)
def _fields_of(names: tuple[str, ...]) -> dict[str, list[OptionField]]:
    return {p: preset_fields(p) for p in names}


def choice_names(lang: str) -> dict[tuple[str, str], str]:
    """``{(option, value): name}`` of every choice the rule sets declare, in ``lang``."""
    return _choice_names(lang, tuple(registry.names()))


@lru_cache(maxsize=16)
def _choice_names(lang: str, names: tuple[str, ...]) -> dict[tuple[str, str], str]:
    return {(f.name, v): (zh if lang == "zh" else en)
            for fields in _fields_of(names).values() for f in fields for v, zh, en in f.choice_names}


def options_text(preset: str, form: Mapping[str, Any], free_text: str = "") -> str:
    """The ``key=value`` text of the form's ``opt.<preset>.<name>`` fields that differ from their
    defaults, after ``free_text`` (the old free-text field, still accepted; an option written there
    wins). A switch not posted is off only when the form says it carried the switches
    (``opt._form=1``): an unchecked checkbox is not sent. An unknown preset gives ``free_text`` back
    unchanged (the caller reports it)."""
    if preset not in registry.names() or form.get("opt._form") is None:
        return free_text
    parts = [p for p in (s.strip() for s in free_text.split(",")) if p]
    given = {p.partition("=")[0].strip() for p in parts}
    for f in preset_fields(preset):
        if f.name in given:
            continue
        key = f"opt.{preset}.{f.name}"
        if f.kind == "bool":
            val = "true" if form.get(key) not in (None, "", "false", "0") else "false"
        else:
            raw = form.get(key)
            if raw is None:
                continue
            val = str(raw).strip()
        if val == f.default:
            continue
        if f.kind == "int?" and val == "":
            val = "null"
        parts.append(f"{f.name}={val}")
    return ",".join(parts)


def _field(preset: str, name: str) -> OptionField | None:
    for f in preset_fields(preset) if preset in registry.names() else _registry_fields(preset) or ():
        if f.name == name:
            return f
    o = TABLE_OPTIONS.get(name)
    if o is not None:  # a table option this rule set does not offer in its form (typed as free text)
        kind = "choice" if o.choices else "bool" if o.type == "bool" else "int?" if o.nullable else "int"
        return OptionField(name, kind, form_value(o.default), tuple(str(c) for c in o.choices or ()), **_table_words(o))
    return None


def summary(preset: str, options_text: str, lang: str) -> str:
    """A table's options as players read them: each option of ``options_text`` (the ``key=value`` text the
    table keeps) that differs from ``preset``'s default, as "label: choice" in ``lang``, joined by `` · ``
    (``宝牌加台：开 · 起胡台数：3`` / ``Bao tiles: on · Minimum tai: 3``); empty when nothing differs.
    An option with no player words (a field no catalogue labels) is left out, never shown by its id."""
    from majiang.web import i18n

    texts = i18n.texts(lang)
    colon = "：" if lang == "zh" else ": "
    parts: list[str] = []
    seen: dict[str, str] = {}
    for item in (options_text or "").split(","):
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if key and eq:
            seen[key] = raw  # a later value wins, as in parse_spec
    for key, raw in seen.items():
        f = _field(preset, key)
        if f is None:
            if "opt." + key not in texts:
                continue
            f = OptionField(key, "int")
        val = raw.lower() if raw.lower() in ("true", "false", "null", "none", "") else raw
        if val in ("null", "none"):
            val = ""
        if val == f.default:
            continue
        if f.kind == "bool" or val in ("true", "false"):
            shown = i18n.t(lang, "lobby.on" if val == "true" else "lobby.off")
        elif f.kind == "choice":
            shown = f.choice_name(val, lang)
        else:
            shown = val or i18n.t(lang, "lobby.none")
        parts.append(f"{f.label(texts, lang)}{colon}{shown}")
    return " · ".join(parts)
