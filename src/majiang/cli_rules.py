"""``majiang rules``: the rule sets found through the ``majiang.rulesets`` entry points, with their options.

``majiang rules`` lists every rule set (name, aliases, unit, label, summary) and its options (name,
type, default, label, choices); ``majiang rules NAME`` shows one with its help texts and its pattern
catalogue; ``--json`` prints :func:`majiang.rules.registry.describe` of each (one JSON object: a
list under ``rulesets``, or the one rule set). Options are set as ``--rules "NAME,option=value"`` in
``simulate``, ``play`` and ``score``.
"""

from __future__ import annotations

import json

import click

from majiang.errors import MajiangError


def _fmt_value(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@click.command("rules")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules(name: str | None, as_json: bool) -> None:
    """List the rule sets (or show rule set NAME) with their options and, for NAME, its patterns."""
    from majiang.rules import registry

    try:
        names = [registry.get(name).name] if name else list(registry.names())
        described = [registry.describe(n) for n in names]
    except MajiangError as e:
        click.echo(f"Error: {e}", err=True)
        raise SystemExit(2) from None
    if as_json:
        click.echo(json.dumps(described[0] if name else {"rulesets": described}, ensure_ascii=False))
        return
    click.echo("Options set in a spec: NAME,option=value,... (table) marks a table rule every rule set may "
               "offer (the engine's RuleSet); the rest are the rule set's own scoring options.\n")
    for d in described:
        alias = f" (also {', '.join(d['aliases'])})" if d["aliases"] else ""
        click.echo(f"{d['name']}{alias} -- {d['label_en']} / {d['label_zh']} [{d['unit']}]")
        click.echo(f"  {d['summary']}")
        for o in d["options"]:
            extra = f" {{{'|'.join(_fmt_value(c) for c in o['choices'])}}}" if o["choices"] else ""
            click.echo(f"    {o['name']}={_fmt_value(o['default'])}  {o['type']}{extra}  "
                       f"{o['label_en']} / {o['label_zh']}" + ("" if o["target"] == "rules" else "  (table)"))
            if name and o["help"]:
                click.echo(f"        {o['help']}" + (f" [{o['source']}]" if o.get("source") else ""))
        if name:
            click.echo(f"  patterns ({len(d['patterns'])}):")
            for p in d["patterns"]:
                pts = "" if p["points"] is None else str(p["points"])
                click.echo(f"    {p['id']:<32} {p['name_zh']:<10} {p['name_en']:<40} {pts:>4}")
        click.echo("")
