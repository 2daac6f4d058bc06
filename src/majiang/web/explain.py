"""The hand-end settlement worked out line by line, for the hand-end dialog (issue 13 item 5).

:func:`explain_win` re-derives each payment of one ``hora`` event from the rule set's own settlement
formula -- MCR competition (RULES.md §9.6: 8 + fan from the discarder or each player on a self-draw,
8 from the others), Taiwan (§3.3: base + (台 + 莊家/連莊) × per 台), Wenzhou W13 (§4.6: B × M with the
dealer, M between non-dealers, + 犯枪 from the discarder), W16 (§4.5: M × F with the dealer) and
the flat settlements (seed 000, Shandong, the stand-in ``flat``: the value from each payer). The
constants are read from the rule packages (``Stakes``, ``dealer_base``, ``dealer_factor``).

The derived payments must add up to the event's ``deltas``; when they do not (a house option this
module does not know, 统包, 财神钱...), the explanation falls back to the plain payments read off the
deltas, so the dialog never shows a formula that disagrees with the scores.

When one player pays every loser's amount (W13's 统包 and 抢杠 liability, RULES.md §4.6), each
line is the formula's payment with that player as payer and ``"for"``: the seat whose share it is.

Each line is ``{"payer": seat, "amount": n, "to": seat, "formula": {"zh": ..., "en": ...}}`` (the
formula's words from the catalogues, keys ``explain.*``); W16's 财神钱 and kong money, settled among
all players on top of the win, come as lines with ``"to": None`` and the seat's net in the formula.
"""

from __future__ import annotations

from typing import Any

from majiang.engine import RuleSet
from majiang.web.i18n import LANGS, t, tn


def _both(key: str, **kw: Any) -> dict[str, str]:
    return {lang: t(lang, key, **kw) for lang in LANGS}


def _opt(rules: RuleSet, name: str, default: Any) -> Any:
    """The rule set's own option ``name`` (``RuleSet.rule_option``), else ``default``."""
    try:
        v = rules.rule_option(name)
    except Exception:  # noqa: BLE001 - an older RuleSet or an option this rule set does not have
        return default
    return default if v is None else v


def _payments(rules: RuleSet, win: dict, dealer: int, streak: int) -> list[tuple[int, int, dict]] | None:
    """``(payer, amount, formula)`` per payment by the rule set's formula, or ``None`` when unknown."""
    w, d = win["actor"], win["target"]
    self_drawn = w == d
    total = int(win["value"]) + int(win.get("bonus") or 0)
    name = rules.settlement
    out: list[tuple[int, int, dict]] = []
    others = [s for s in range(4) if s != w]
    if name == "competition":
        base = 8
        for s in others:
            full = self_drawn or s == d
            amt = base + total if full else base
            out.append((s, amt, _both("explain.mcr_full" if full else "explain.mcr_base", base=base, fan=total,
                                      amount=amt)))
        return out
    if name == "taiwan":
        from majiang.rules.taiwan.options import TaiwanOptions
        from majiang.rules.taiwan.settlement import Stakes

        st, opts = Stakes(_opt(rules, "base", 30), _opt(rules, "per_tai", 10)), TaiwanOptions()
        fw = win.get("flower_win")
        payers = others if (self_drawn and fw != "seven") else [d]
        for s in payers:
            dt = opts.dealer_tai(streak) if dealer in (w, s) else 0
            amt = st.base + (total + dt) * st.per_tai
            key = "explain.tw_dealer" if dt else "explain.tw" if total else "explain.tw_base"  # no "+ 0 台" term
            out.append((s, amt, _both(key, base=st.base, tai=total, dealer_tai=dt, streak=streak,
                                      per=st.per_tai, amount=amt)))
        return out
    if name == "wz13":
        from majiang.rules.wenzhou import w13

        b = w13.dealer_base(streak)
        opt = w13.DEFAULT_OPTIONS
        for s in others:
            with_dealer = dealer in (w, s)
            amt = b * total if with_dealer else total
            out.append((s, amt, _both("explain.wz13_dealer" if with_dealer else "explain.wz13", base=b,
                                      mult=total, amount=amt)))
        fq = _opt(rules, "fanqiang_penalty", opt.fanqiang_penalty)
        if not self_drawn and fq and not win.get("robbing"):
            out.append((d, fq, _both("explain.fanqiang", amount=fq)))
        return out
    if name == "wz16":
        from majiang.rules.wenzhou import w16

        f = w16.dealer_factor(streak)
        for s in others:
            with_dealer = dealer in (w, s)
            amt = total * f if with_dealer else total
            out.append((s, amt, _both("explain.wz16_dealer" if with_dealer else "explain.wz16", factor=f,
                                      mult=total, amount=amt)))
        return out
    if name in ("seed000", "shandong", "flat"):
        payers = others if self_drawn else [d]
        for s in payers:
            out.append((s, total, {lang: tn(lang, "explain.flat", total, amount=total) for lang in LANGS}))
        return out
    return None


def _liable(pays: list[tuple[int, int, dict]], deltas: list[int], winner: int) -> int | None:
    """The one seat that paid every loser's amount of the rule set's formula (统包 or 抢杠 liability,
    RULES.md §4.6: "he pays everybody's amount once"; 犯枪 stays with the discarder), or ``None`` when
    the deltas say otherwise."""
    for liable in range(4):
        if liable == winner:
            continue
        check = [0, 0, 0, 0]
        for s, amt, f in pays:
            payer = s if f == _both("explain.fanqiang", amount=amt) else liable
            check[payer] -= amt
            check[winner] += amt
        if check == deltas:
            return liable
    return None


def explain_win(rules: RuleSet, win: dict, dealer: int | None, streak: int) -> list[dict]:
    """The payment lines of one win (module doc). ``dealer``/``streak`` are the hand's (from its
    ``start_kyoku`` event)."""
    deltas = list(win.get("deltas") or [0, 0, 0, 0])
    pays = None
    if dealer is not None:
        try:
            pays = _payments(rules, win, dealer, streak)
        except Exception:  # noqa: BLE001 - a rule package refusing the numbers: fall back below
            pays = None
    w = win["actor"]
    if pays is not None:
        check = [0, 0, 0, 0]
        for s, amt, _ in pays:
            check[s] -= amt
            check[w] += amt
        lines = [{"payer": s, "amount": amt, "to": w, "formula": f} for s, amt, f in pays]
        if check == deltas:
            return lines
        if rules.settlement == "wz16":  # 财神钱 and kong money (RULES.md §4.5) settle on top of the win
            return lines + [{"payer": s, "amount": check[s] - deltas[s], "to": None,
                             "formula": _both("explain.wz16_extra", amount=deltas[s] - check[s])}
                            for s in range(4) if deltas[s] != check[s]]
        liable = _liable(pays, deltas, w)
        if liable is not None:  # 统包 / 抢杠: one player pays every loser's amount (RULES.md §4.6)
            why = "explain.robbed_pays" if win.get("robbing") else "explain.tongbao_pays"
            out = []
            for s, amt, f in pays:
                if s == liable or f == _both("explain.fanqiang", amount=amt):
                    out.append({"payer": s, "amount": amt, "to": w, "formula": f})
                else:
                    out.append({"payer": liable, "amount": amt, "to": w, "for": s,
                                "formula": {lang: t(lang, why, formula=f[lang]) for lang in LANGS}})
            return out
    return [{"payer": s, "amount": -deltas[s], "to": w, "formula": _both("explain.plain", amount=-deltas[s])}
            for s in range(4) if deltas[s] < 0]
