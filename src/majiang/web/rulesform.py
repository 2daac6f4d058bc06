"""The rules form of the lobby: one labelled control per rule-set option, generated from the
:class:`~majiang.engine.ruleset.RuleSet` dataclass itself (field name, type, default), never from a
hand-kept list.

:func:`option_fields` introspects the fields: a ``bool`` becomes a switch, a ``str`` with a known set of
values (``wild_mode``, ``shapes``, ``scorer``...) a choice, an ``int`` a number, ``int | None`` a number
that may be left blank. Labels are the catalogues' ``opt.<name>`` entries (:mod:`majiang.web.i18n`).
Each preset's defaults (:func:`preset_defaults`) let the page reset the controls when the preset changes.

The form posts ``opt.<name>`` fields; :func:`options_text` turns those that differ from the preset into
the ``key=value`` text the table keeps (``Room.options_text``) and :func:`majiang.engine.parse_spec`
reads, so a form without them (or with the old free-text ``options`` field) works as before.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from majiang.engine import PRESET_NAMES, RuleSet
from majiang.engine import ruleset as _rs

#: Options the form does not offer: the preset's name and the seat count are fixed by the table.
FIXED = ("name", "players")

#: Numbers' ranges as the RuleSet validates them (RuleSet.__post_init__).
RANGES: dict[str, tuple[int, int]] = {
    "reserve": (0, 60), "rounds": (1, 16), "min_score": (0, 1000), "followed_penalty": (0, 100),
    "wild_discard_penalty": (0, 100), "max_dealer_streak": (0, 100), "wild_tile": (0, 33),
}


@dataclass(frozen=True, slots=True)
class OptionField:
    """One control: ``name`` (the RuleSet field), ``kind`` (``"bool"``, ``"choice"``, ``"int"``,
    ``"int?"`` = a number or blank for ``None``), ``choices`` (for ``"choice"``; values as strings),
    ``lo``/``hi`` (for numbers)."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None


def _choices(name: str) -> tuple[str, ...]:
    known: dict[str, tuple[str, ...]] = {
        "wild_mode": tuple(_rs.WILD_MODES),
        "multiple_winners": tuple(_rs.MULTI_WIN),
        "first_dealer": tuple(_rs.FIRST_DEALER),
        "shapes": tuple(_rs._SHAPE_PRESETS),
        "scorer": tuple(sorted(_rs._SCORERS)),
        "settlement": tuple(sorted(_rs._SETTLEMENTS)),
        "hand_size": ("13", "16"),
        "dice": ("2", "3"),
    }
    return known.get(name, ())


def option_fields() -> list[OptionField]:
    """Every option of :class:`RuleSet` but :data:`FIXED`, in the dataclass's order."""
    out = []
    for f in dataclasses.fields(RuleSet):
        if f.name.startswith("_") or f.name in FIXED:
            continue
        typ = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        ch = _choices(f.name)
        if ch:
            out.append(OptionField(f.name, "choice", ch))
        elif typ == "bool":
            out.append(OptionField(f.name, "bool"))
        elif typ == "int":
            lo, hi = RANGES.get(f.name, (0, 1000))
            out.append(OptionField(f.name, "int", lo=lo, hi=hi))
        elif typ in ("int | None", "Optional[int]"):
            lo, hi = RANGES.get(f.name, (0, 1000))
            out.append(OptionField(f.name, "int?", lo=lo, hi=hi))
        else:  # a new kind of option: offered as free text through the choice of its default
            out.append(OptionField(f.name, "choice", (str(f.default),)))
    return out


def _form_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "" if v is None else str(v)


def preset_defaults() -> dict[str, dict[str, str]]:
    """``{preset: {option: value as the form writes it}}`` for every preset."""
    return {p: {f.name: _form_value(getattr(RuleSet.preset(p), f.name)) for f in option_fields()}
            for p in PRESET_NAMES}


def preset_defaults_json() -> str:
    return json.dumps(preset_defaults(), separators=(",", ":"))


def options_text(preset: str, form: Mapping[str, Any], free_text: str = "") -> str:
    """The ``key=value`` text of the form's ``opt.<name>`` fields that differ from ``preset``'s
    defaults, after ``free_text`` (the old free-text field, still accepted). A switch not posted is
    off only when the form says it carried the switches (``opt._form=1``): an unchecked checkbox is
    not sent. Unknown presets give ``free_text`` back unchanged (the caller reports them)."""
    if preset not in PRESET_NAMES or form.get("opt._form") is None:
        return free_text
    base = RuleSet.preset(preset)
    parts = [p for p in (s.strip() for s in free_text.split(",")) if p]
    given = {p.partition("=")[0].strip() for p in parts}
    for f in option_fields():
        if f.name in given:
            continue
        key = "opt." + f.name
        default = _form_value(getattr(base, f.name))
        if f.kind == "bool":
            val = "true" if form.get(key) not in (None, "", "false", "0") else "false"
        else:
            raw = form.get(key)
            if raw is None:
                continue
            val = str(raw).strip()
        if val == default:
            continue
        if f.kind == "int?" and val == "":
            val = "null"
        parts.append(f"{f.name}={val}")
    return ",".join(parts)
