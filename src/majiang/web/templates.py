"""Server-rendered pages (Jinja2, autoescaped). Kept in Python so the package needs no data files.

Every text goes through the language's catalogue (:mod:`majiang.web.i18n`): templates call
``_("key")``; :func:`render` gives them the language, ``<html lang>``, the catalogue the scripts use,
and translates an ``error`` message. The lobby's rules form is generated from the RuleSet's own
fields (:mod:`majiang.web.rulesform`).
"""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader, Environment, select_autoescape

from majiang.rules import registry
from majiang.web import avatars, i18n, rulesform

BASE = """<!doctype html>
<html lang="{{ html_lang }}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{{ _("site.title") }}{% endblock %}</title>
<link rel="stylesheet" href="/static/style.css"><link rel="icon" href="data:,"></head>
<body class="{% block bodyclass %}page{% endblock %}">
<nav><a href="/" class="brand">{{ _("site.title") }}</a><a href="/">{{ _("nav.lobby") }}</a> <a href="/leaderboard">{{ _("nav.leaderboard") }}</a>
{% if user %}<a href="/players/{{ user.username }}">{{ _("nav.my_games") }}</a>
<span class="who">{{ avatar_svg(user.avatar, 20)|safe }}{{ user.shown_name }}</span>
<form method="post" action="/logout" class="inline"><button id="logout">{{ _("nav.logout") }}</button></form>
{% else %}<a href="/login" id="login-link">{{ _("nav.login") }}</a> <a href="/signup" id="signup-link">{{ _("nav.signup") }}</a>{% endif %}
<span class="langs">{% if lang == "zh" %}<b>中文</b> · <a href="?lang=en" lang="en" id="lang-en">English</a>{% else %}<a href="?lang=zh" lang="zh-CN" id="lang-zh">中文</a> · <b>English</b>{% endif %}</span>
</nav>
{% block error %}{% if error %}<p class="error" id="error" role="alert">{{ error }}</p>{% endif %}{% endblock %}
<main>{% block main %}{% endblock %}</main>
</body></html>"""

AUTH = """{% extends "base.html" %}{% block error %}{% endblock %}{% block main %}
{% set heading = _("auth.signup") if action == "/signup" else _("auth.login") %}
<section class="card narrow"><h1>{{ heading }}</h1>
{% if error %}<p class="error" id="error" role="alert">{{ error }}</p>{% endif %}
<form method="post" action="{{ action }}" id="auth-form">
<label>{{ _("auth.username") }} <input name="username" id="username" required minlength="3" maxlength="32" value="{{ username }}" autocomplete="username"{% if action == "/signup" %} aria-describedby="username-hint"{% endif %}></label>
{% if action == "/signup" %}<p class="hint" id="username-hint">{{ _("auth.username_hint") }}</p>{% endif %}
<label>{{ _("auth.password") }} <input type="password" name="password" id="password" required minlength="8" maxlength="256"></label>
{% if action == "/signup" %}<label>{{ _("auth.display_name") }} <input name="display_name" id="display_name" maxlength="24" value="{{ display_name }}" placeholder="{{ _('auth.display_name_ph') }}" aria-describedby="display-hint"></label>
<p class="hint" id="display-hint">{{ _("auth.display_hint") }}</p>
<fieldset class="avatars" id="avatars"><legend>{{ _("auth.avatar") }}</legend>
<label class="av"><input type="radio" name="avatar" value=""{% if not avatar %} checked{% endif %}><span class="none">{{ _("auth.no_avatar") }}</span></label>
{% for a in avatars %}<label class="av" title="{{ _('avatar.' ~ a) }}"><input type="radio" name="avatar" value="{{ a }}"{% if avatar == a %} checked{% endif %}>{{ avatar_svg(a, 36)|safe }}</label>{% endfor %}
</fieldset>{% endif %}
<button type="submit" id="submit" class="primary">{{ heading }}</button>
</form>
<p class="hint">{% if action == "/signup" %}{{ _("auth.have_account") }} <a href="/login">{{ _("auth.login") }}</a>{% else %}{{ _("auth.no_account") }} <a href="/signup">{{ _("auth.signup") }}</a>{% endif %}</p>
</section>{% endblock %}"""

LOBBY = """{% extends "base.html" %}{% block main %}
{% block friends %}<section class="card friends" id="friends">
{% if user %}<div class="quick" id="quick"><h2>{{ _("quick.title") }}</h2><p class="hint">{{ _("quick.hint", secs=quick_wait) }}</p>
<div class="quick-buttons">{% for p in presets %}<form method="post" action="/quick" class="inline"><input type="hidden" name="preset" value="{{ p }}"><button class="primary quick-start" data-preset="{{ p }}">{{ preset_name(p) }}</button></form>{% endfor %}</div></div>{% endif %}
<form method="get" action="/r" class="join-room" id="join-room"><h2><label for="room-number">{{ _("room.join") }}</label></h2>
<div class="row"><input name="room" id="room-number" inputmode="numeric" pattern="[0-9 ]{6,8}" maxlength="8" placeholder="{{ _('room.number_ph') }}" required autocomplete="off">
<button id="join-room-button" class="primary">{{ _("room.join_button") }}</button></div></form>
</section>{% endblock %}
{% macro opt_field(p, f) %}{% set fid = "opt-" ~ p ~ "-" ~ f.name %}<label class="opt opt-{{ f.kind }}" title="{{ f.help_in(lang) }}">
{% if f.kind == "bool" %}<input type="checkbox" name="opt.{{ p }}.{{ f.name }}" id="{{ fid }}" value="true"{% if f.default == "true" %} checked{% endif %}> <span>{{ f.label(texts, lang) }}</span>
{% elif f.kind == "choice" %}<span>{{ f.label(texts, lang) }}</span> <select name="opt.{{ p }}.{{ f.name }}" id="{{ fid }}">{% for c in f.choices %}<option value="{{ c }}"{% if c == f.default %} selected{% endif %}>{{ option_value(f.name, c) }}</option>{% endfor %}</select>
{% else %}<span>{{ f.label(texts, lang) }}</span> <input type="number" name="opt.{{ p }}.{{ f.name }}" id="{{ fid }}" value="{{ f.default }}"{% if f.lo is not none %} min="{{ f.lo }}"{% endif %}{% if f.hi is not none %} max="{{ f.hi }}"{% endif %}{% if f.kind == "int?" %} placeholder="{{ _('lobby.none') }}"{% endif %}>
{% endif %}<small class="default">{{ _("lobby.default", value=default_text(f)) }}</small></label>
{% endmacro %}
<section class="card"><h1>{{ _("lobby.tables") }}</h1>
<div class="table-cards" id="tables">
{% for r in rooms %}{% set mine = user is not none and r.place_of(user.id) is not none %}<article class="table-card" data-table="{{ r.id }}" data-status="{{ r.status }}">
<header><b class="t-rules">{{ preset_name(r.rules.name) }}</b>{% if r.quick %} <small class="tag">{{ _("quick.tag") }}</small>{% endif %}
<span class="t-status s-{{ r.status }}">{{ _("status." ~ r.status) }}</span></header>
{% set summary = rules_summary(r.rules.name, r.options_text, lang) %}{% if summary %}<p class="t-opts rules-summary">{{ summary }}</p>{% endif %}
<p class="t-facts"><span class="t-hands">{% if r.max_hands %}{{ _("lobby.card_hands_one") if r.max_hands == 1 else _("lobby.card_hands", n=r.max_hands) }}{% else %}{{ _("lobby.card_rounds_one") if r.rules.rounds == 1 else _("lobby.card_rounds", n=r.rules.rounds) }}{% endif %}</span>
<span class="t-time">{{ _("lobby.card_turn", secs=r.turn_time|int) }}{% if r.reserve_time %}{{ _("lobby.card_reserve", secs=r.reserve_time|int) }}{% endif %}</span>
{% if r.room %}<span class="t-room">{{ _("room.number") }} <b>{{ r.room }}</b></span>{% endif %}</p>
<ol class="t-seats">{% for pl in r.places %}<li class="{{ 'empty' if pl.empty else 'taken' }}">{% if pl.empty %}{% if r.status == "open" and not mine %}<form method="post" action="/tables/{{ r.id }}/join"><input type="hidden" name="place" value="{{ loop.index0 }}"><button class="sit" aria-label="{{ _('lobby.sit_at', n=loop.index) }}">{{ _("lobby.sit_down") }}</button></form>{% else %}<span class="free">{{ _("table.empty") }}</span>{% endif %}
{% else %}{{ avatar_svg(pl.avatar, 28)|safe }}<span class="who">{{ person(pl.name) }}</span>{% if pl.bot %} <small>{{ _("table.bot") }}</small>{% endif %}{% endif %}</li>{% endfor %}</ol>
<footer>{% if mine %}<a href="/tables/{{ r.id }}" class="button primary">{{ _("lobby.back_to_table") }}</a>{% else %}<a href="/tables/{{ r.id }}" class="button watch">{{ _("lobby.watch") }}</a>{% endif %}</footer>
</article>
{% else %}<p class="no-tables">{{ _("lobby.no_tables") }}</p>{% endfor %}</div></section>
{% if user %}
<section class="card create"><h2>{{ _("lobby.create") }}</h2>
<form method="post" action="/tables" id="create-form">
<input type="hidden" name="opt._form" value="1">
<label class="pick-rules">{{ _("lobby.rules") }} <select name="preset" id="preset">{% for p in presets %}<option value="{{ p }}" title="{{ preset_summary(p, lang) }}">{{ preset_name(p) }}</option>{% endfor %}</select></label>
{% for p in presets %}{% set line = preset_summary(p, lang) %}{% if line %}<p class="preset-summary" data-preset="{{ p }}"{% if not loop.first %} hidden{% endif %}>{{ line }}</p>{% endif %}{% endfor %}
<div class="row basics">
<label>{{ _("lobby.hands") }} <input type="number" name="max_hands" id="max_hands" min="0" max="64" value="4" inputmode="numeric" aria-describedby="hands-hint"></label>
<label>{{ _("lobby.turn_time") }} <input type="number" name="turn_time" id="turn_time" min="{{ min_turn }}" max="600" value="30" inputmode="numeric"></label>
<label>{{ _("lobby.reserve_time") }} <input type="number" name="reserve_time" id="reserve_time" min="0" max="600" value="0" inputmode="numeric" aria-describedby="reserve-hint"></label>
</div>
<p class="hint" id="hands-hint">{{ _("lobby.hands") }}{{ _("lobby.hint_sep") }}{{ _("lobby.hands_hint") }}</p>
<p class="hint" id="reserve-hint">{{ _("lobby.reserve_time") }}{{ _("lobby.hint_sep") }}{{ _("lobby.reserve_hint") }}</p>
{% for p, fields in preset_fields.items() %}{% set heads = headlines(p) %}{% if heads %}<div class="headline" data-preset="{{ p }}"{% if not loop.first %} hidden{% endif %}>
{% for n in heads %}{% for f in fields if f.name == n %}{{ opt_field(p, f) }}{% endfor %}{% endfor %}</div>{% endif %}{% endfor %}
<div class="row switches">
<label class="switch"><input type="checkbox" name="sit" value="1" id="sit" checked> {{ _("lobby.sit") }}</label>
<label class="switch" title="{{ _('room.private_hint') }}"><input type="checkbox" name="private" value="1" id="private"> {{ _("room.private") }}</label>
</div>
<details id="rule-options"><summary>{{ _("lobby.more_rules") }} <small>{{ _("lobby.options_hint") }}</small></summary>
{% for p, fields in preset_fields.items() %}{% set heads = headlines(p) %}<fieldset class="opts" data-preset="{{ p }}"{% if not loop.first %} hidden{% endif %}>
<legend>{{ preset_name(p) }}</legend>
{% for f in fields if f.name not in heads %}{{ opt_field(p, f) }}{% endfor %}</fieldset>{% endfor %}
</details>
<button type="submit" id="create" class="primary">{{ _("lobby.create_button") }}</button>
</form>
<script type="module" src="/static/lobby.js"></script></section>
{% else %}<p class="card">{{ _("lobby.login_first_html")|safe }}</p>{% endif %}
<section class="card"><h2>{{ _("lobby.recent") }}</h2>
<ul class="games">{% for g in games %}<li><a href="/games/{{ g.id }}">#{{ g.id }}</a> {{ preset_name(g.ruleset) }} — {% for s in g.seats %}{{ person(s.name) }} <b>{{ s.score }}</b>{% if not loop.last %}, {% endif %}{% endfor %}</li>
{% else %}<li>{{ _("lobby.none_yet") }}</li>{% endfor %}</ul></section>
<script>
// keep the list of tables fresh without reloading the page (the create form keeps its input)
setInterval(async () => {
  try {
    const r = await fetch(location.pathname + location.search, {credentials: "same-origin"});
    const t = new DOMParser().parseFromString(await r.text(), "text/html").getElementById("tables");
    if (t) document.getElementById("tables").innerHTML = t.innerHTML;
  } catch (e) { /* offline for a moment */ }
}, 5000);
</script>
{% endblock %}"""

TABLE = """{% extends "base.html" %}{% block title %}{{ _("table.title", id=room.id) }}{% endblock %}
{% block bodyclass %}page-table{% endblock %}{% block main %}
{% if room.status == "open" %}
<section id="seating" class="card"><h2>{{ _("table.title", id=room.id) }} — {{ preset_name(room.rules.name) }}{% set rs = rules_summary(room.rules.name, room.options_text, lang) %}{% if rs %} <small class="rules-summary">{{ rs }}</small>{% endif %}</h2>
{% block invite %}{% if room.room %}<div class="invite" id="invite"><span class="room-label">{{ _("room.private_title") if room.private else _("room.number") }}</span>
<b class="room-number" id="room-number-big">{{ room.room }}</b>
<span class="invite-link"><a href="/r/{{ room.room }}" id="invite-link">/r/{{ room.room }}</a>
<button type="button" id="copy-invite" class="copy" data-room="{{ room.room }}" data-copied="{{ _('room.copied') }}">{{ _("room.copy") }}</button></span>
{% if room.quick %}<p class="hint" id="quick-countdown" data-until="{{ (room.created + room.quick_wait)|int }}">{{ _("quick.countdown_intro") }} <b class="secs"></b></p>{% endif %}
</div>
<script>
(() => { const b = document.getElementById("copy-invite"); if (!b) return;
  b.addEventListener("click", async () => { const url = location.origin + "/r/" + b.dataset.room;
    try { await navigator.clipboard.writeText(url); } catch (e) { const i = document.createElement("input"); i.value = url; document.body.append(i); i.select(); document.execCommand("copy"); i.remove(); }
    b.textContent = b.dataset.copied; });
  const q = document.getElementById("quick-countdown");
  if (q) { const tick = () => { const left = Math.max(0, Math.round(+q.dataset.until - Date.now() / 1000)); q.querySelector(".secs").textContent = left + "s"; if (left > 0) setTimeout(tick, 1000); }; tick(); }
})();
</script>{% endif %}{% endblock %}
<p>{{ _("table.setup", hands=(room.max_hands or _("lobby.full_match")), secs=room.turn_time|int, creator=room.creator) }}</p>
<ol class="places">{% for pl in room.places %}<li>{% if pl.empty %}<em>{{ _("table.empty") }}</em>
{% if user and my_place is none %}<form method="post" action="/tables/{{ room.id }}/join" class="inline"><input type="hidden" name="place" value="{{ loop.index0 }}"><button class="join">{{ _("table.sit_here") }}</button></form>{% endif %}
{% else %}{{ person(pl.name) }}{% if pl.bot %} <small>({{ _("table.bot") }})</small>{% endif %}{% endif %}</li>{% endfor %}</ol>
{% if user and my_place is not none %}<form method="post" action="/tables/{{ room.id }}/leave" class="inline"><button id="leave">{{ _("table.leave") }}</button></form>{% endif %}
{% block creator %}{% if user and user.id == room.creator_id and room.places|selectattr("empty", "false")|list|length > 0 %}
<details class="creator-tools" id="creator-tools"><summary>{{ _("room.creator_tools") }}</summary>
<form method="post" action="/tables/{{ room.id }}/remove" class="inline" id="remove-form"><select name="place" id="remove-place">{% for pl in room.places %}{% if not pl.empty %}<option value="{{ loop.index0 }}">{{ loop.index }}. {{ person(pl.name) }}</option>{% endif %}{% endfor %}</select>
<button id="remove">{{ _("room.remove") }}</button></form>
<form method="post" action="/tables/{{ room.id }}/move" class="inline" id="move-form"><select name="place" id="move-from">{% for pl in room.places %}{% if not pl.empty %}<option value="{{ loop.index0 }}">{{ loop.index }}. {{ person(pl.name) }}</option>{% endif %}{% endfor %}</select>
→ <select name="to" id="move-to">{% for pl in room.places %}<option value="{{ loop.index0 }}">{{ _("room.place_n", n=loop.index) }}</option>{% endfor %}</select>
<button id="move">{{ _("room.move") }}</button></form></details>{% endif %}{% endblock %}
{% if user and user.id == room.creator_id %}<form method="post" action="/tables/{{ room.id }}/bots" class="inline" id="bots-form">
<select name="kind" id="bot-kind">{% for k in bot_kinds %}<option value="{{ k }}">{{ _("bot." ~ k) }}</option>{% endfor %}</select>
<button id="fill-bots" class="primary">{{ _("table.fill_bots") }}</button></form>{% endif %}
<p class="hint c-wait-note">{{ _("table.waiting") }} {{ _("table.starts_when_full") }}</p>
</section>{% endif %}
<div id="app" data-table="{{ room.id }}" data-rules="{{ room.rules.name }}"></div>
<script type="module" src="/static/table.js"></script>
{% endblock %}"""

PLAYER = """{% extends "base.html" %}{% block main %}
<section class="card"><h1>{{ _("player.title", name=name) }}</h1>
{% if stats %}<nav class="tabs" id="stat-tabs">{% for p in stats %}<a href="#stats-{{ p }}">{{ preset_name(p) }}</a>{% endfor %}</nav>{% endif %}
{% for p, st in stats.items() %}{% set unit = _("unit." ~ units[p]) %}<section class="stats" id="stats-{{ p }}" data-preset="{{ p }}"><h2>{{ preset_name(p) }}</h2>
<div class="figures">
<div class="fig"><b data-stat="games">{{ st.games }}</b><span>{{ _("stats.games") }}</span></div>
<div class="fig"><b data-stat="hands">{{ st.hands }}</b><span>{{ _("stats.hands") }}</span></div>
<div class="fig"><b data-stat="win_rate">{{ "%.1f"|format(100 * st.win_rate) }}%</b><span>{{ _("stats.win_rate") }}</span></div>
<div class="fig"><b data-stat="self_draw_rate">{{ "%.1f"|format(100 * st.self_draw_rate) }}%</b><span>{{ _("stats.self_draw_rate") }}</span></div>
<div class="fig"><b data-stat="deal_in_rate">{{ "%.1f"|format(100 * st.deal_in_rate) }}%</b><span>{{ _("stats.deal_in_rate") }}</span></div>
<div class="fig"><b data-stat="average_value">{{ "%.1f"|format(st.average_value) }}</b><span>{{ _("stats.average", unit=unit) }}</span></div>
<div class="fig"><b data-stat="best">{% if st.best %}<a href="/games/{{ st.best.game_id }}?hand={{ st.best.hand }}&amp;step={{ st.best.step }}">{{ st.best.value }} {{ _n("unit." ~ units[p], st.best.value) }}</a>{% else %}—{% endif %}</b><span>{{ _("stats.best") }}</span></div>
{% if ratings.get(p) %}{% set r = ratings[p] %}<div class="fig"><b data-stat="rating">{{ "%.1f"|format(r.mu - 3 * r.sigma) }}</b><span>{{ _("board.rating") }}</span></div>{% endif %}
</div>
{% if charts[p][1] > 1 %}<figure class="rating-chart"><figcaption>{{ _("stats.rating_history", n=charts[p][1]) }}</figcaption>{{ charts[p][0]|safe }}</figure>{% endif %}
</section>{% endfor %}
<h2>{{ _("stats.recent") }}</h2>
<table class="list" id="history"><thead><tr><th>{{ _("player.game") }}</th><th>{{ _("player.finished") }}</th><th>{{ _("lobby.rules") }}</th><th>{{ _("player.score") }}</th><th>{{ _("player.place") }}</th><th class="wide">{{ _("stats.table") }}</th><th></th></tr></thead><tbody>
{% for s in seats %}<tr class="place-{{ s.place }}"><td>#{{ s.game.id }}</td><td>{{ s.game.finished_at.strftime("%Y-%m-%d %H:%M") }}</td><td>{{ preset_name(s.game.ruleset) }}</td>
<td class="n">{{ s.score }}</td><td class="n">{{ _("game.place", place=s.place) }}</td>
<td class="wide">{% for o in s.game.seats|sort(attribute="seat") %}{% if o.seat != s.seat %}{{ person(o.name) }} {{ o.score }}{% if not loop.last %} · {% endif %}{% endif %}{% endfor %}</td>
<td><a href="/games/{{ s.game.id }}">{{ _("player.replay") }}</a></td></tr>
{% else %}<tr><td colspan="7">{{ _("player.no_games") }}</td></tr>{% endfor %}</tbody></table></section>{% endblock %}"""

GAME = """{% extends "base.html" %}{% block title %}{{ _("game.title", id=game.id) }}{% endblock %}{% block main %}
{% set seatname = {} %}{% for s in game.seats %}{% set _x = seatname.update({s.seat: person(s.name)}) %}{% endfor %}
<section class="card replay-card"><h1>{{ _("game.title", id=game.id) }} — {{ preset_name(game.ruleset) }}</h1>
<p class="players">{% for s in game.seats|sort(attribute="seat") %}{{ person(s.name) }}{% if s.is_bot and person(s.name) == s.name %} <small>({{ _("table.bot") }})</small>{% endif %}: <b>{{ s.score }}</b> ({{ _("game.place", place=s.place) }}){% if not loop.last %} · {% endif %}{% endfor %}</p>
{% block gamechat %}{% if chat %}<details class="game-chat" id="game-chat" open><summary>{{ _("chat.title") }} ({{ chat|length }})</summary>
<ol class="chat-lines">{% for ln in chat %}<li class="{{ ln.audience }}" data-at="{{ ln.at }}"><span class="who">{{ ln.name }}</span>{% if ln.audience == "spectators" %} <small>({{ _("chat.spectator") }})</small>{% endif %}: <span class="text">{{ ln.text }}</span></li>{% endfor %}</ol></details>{% endif %}{% endblock %}
<div class="replay-layout">
<ol class="hand-list" id="hand-list">{% for h in hands %}<li><a href="?hand={{ h.n }}" data-hand="{{ h.n }}" data-start="{{ h.start }}">
<b>{{ _("replay.hand_label", wind=_("wind." ~ "eswn"[h.wind]), n=h.n) }}</b> <small>{{ _("replay.dealer_is", name=seatname.get(h.dealer, "")) }}</small>
<span class="hres">{% if h.wins %}{% for w in h.wins %}{{ _("replay.won_value", name=seatname.get(w[0], ""), value=w[1]) }}{% if not loop.last %} · {% endif %}{% endfor %}{% elif h.drawn %}{{ _("replay.ryukyoku") }}{% endif %}</span></a></li>{% endfor %}</ol>
<div id="replay"><div class="controls">
<button id="first" title="{{ _('game.first') }}">{{ _("game.first") }}</button><button id="prev-hand">{{ _("game.prev_hand") }}</button><button id="prev">{{ _("game.prev") }}</button>
<button id="play" class="primary" data-play="{{ _('game.play') }}" data-pause="{{ _('game.pause') }}">{{ _("game.play") }}</button>
<button id="next">{{ _("game.next") }}</button><button id="next-hand">{{ _("game.next_hand") }}</button><button id="last">{{ _("game.last") }}</button>
<label>{{ _("game.speed") }} <select id="speed"><option value="2">0.5×</option><option value="1" selected>1×</option><option value="0.5">2×</option><option value="0.25">4×</option></select></label>
</div>
<p class="step-line"><span id="step"></span> <small>{{ _("game.keys") }}</small></p>
<div id="board"></div><div id="replay-result" class="result-panel" hidden></div>
<p class="share"><a href="/games/{{ game.id }}" id="share-link">{{ _("game.share") }}</a> <button id="copy-link">{{ _("game.copy") }}</button>
· <a href="/games/{{ game.id }}/record" id="record-link">{{ _("game.download") }}</a></p>
</div></div>
</section>
<script id="record" type="application/json">{{ record|tojson }}</script>
<script type="module" src="/static/replay.js"></script>
{% endblock %}"""

BOARD = """{% extends "base.html" %}{% block main %}
<section class="card"><h1>{{ _("board.title") }}</h1>
<nav class="tabs" id="board-tabs">{% for p in presets %}<a href="/leaderboard?rules={{ p }}"{% if p == rules %} class="on" aria-current="page"{% endif %}>{{ preset_name(p) }}</a>{% endfor %}</nav>
<table class="list" id="board"><thead><tr><th>#</th><th>{{ _("board.player") }}</th><th>{{ _("board.rating") }}</th><th class="wide">μ</th><th class="wide">σ</th><th>{{ _("board.games") }}</th><th>{{ _("board.points") }}</th></tr></thead><tbody>
{% for r, u in rows %}<tr><td>{{ loop.index }}</td><td><a href="/players/{{ u.username }}">{{ u.shown_name }}</a></td>
<td class="n">{{ "%.1f"|format(r.mu - 3 * r.sigma) }}</td><td class="n wide">{{ "%.1f"|format(r.mu) }}</td><td class="n wide">{{ "%.1f"|format(r.sigma) }}</td>
<td class="n">{{ r.games }}</td><td class="n">{{ r.points }}</td></tr>{% else %}<tr><td colspan="7">{{ _("board.none") }}</td></tr>{% endfor %}</tbody></table>
<p class="hint">{{ _("board.hint") }}</p></section>
{% endblock %}"""

TEMPLATES = {"base.html": BASE, "auth.html": AUTH, "lobby.html": LOBBY, "table.html": TABLE,
             "player.html": PLAYER, "game.html": GAME, "board.html": BOARD}

env = Environment(loader=DictLoader(TEMPLATES), autoescape=select_autoescape(default=True, default_for_string=True))
env.globals["avatar_svg"] = avatars.svg
env.globals["rules_summary"] = rulesform.summary


def headlines(preset: str) -> tuple[str, ...]:
    """The options the lobby's form shows first for ``preset`` (the rule set's own
    ``headline_options``; none for a name the registry does not know)."""
    from majiang.rules import registry

    d = registry.find(preset)
    return tuple(getattr(d, "headline_options", ())) if d is not None else ()


def preset_summary(preset: str, lang: str) -> str:
    """The rule set's one line for players in ``lang`` (``summary_zh``/``summary_en``), "" if it has none."""
    from majiang.rules import registry

    d = registry.find(preset)
    return (getattr(d, "summary_zh" if lang == "zh" else "summary_en", "") or "") if d is not None else ""


env.globals["headlines"] = headlines
env.globals["preset_summary"] = preset_summary


def lang_context(lang: str) -> dict[str, Any]:
    """What every page needs to speak ``lang``: ``_``, ``lang``, ``html_lang``, the scripts' catalogue,
    and the helpers naming presets and option values."""

    def _(key: str, **kw: Any) -> str:
        return i18n.t(lang, key, **kw)

    def preset_name(p: str) -> str:
        got = i18n.texts(lang).get("preset." + p)
        if got is None:  # a plug-in's rule set: its own labels (issue 30), else its bare name
            from majiang.rules import registry

            d = registry.find(p)
            got = p if d is None else ((d.label_zh if lang == "zh" else d.label_en) or p)
        return got

    def option_value(name: str, value: str) -> str:
        """A choice's name for players: as its option declares it (any rule set), else the catalogue's."""
        return rulesform.choice_names(lang).get((name, value)) or i18n.texts(lang).get(f"optv.{name}.{value}", value)

    def default_text(f: rulesform.OptionField) -> str:
        if f.kind == "bool":
            return i18n.t(lang, "lobby.on" if f.default == "true" else "lobby.off")
        if f.kind == "choice":
            return option_value(f.name, f.default)
        return f.default or i18n.t(lang, "lobby.none")

    return {"_": _, "_n": lambda key, n, **kw: i18n.tn(lang, key, n, **kw), "lang": lang, "html_lang": i18n.HTML_LANG[lang],
            "preset_name": preset_name, "person": lambda name: i18n.person_name(name, lang), "option_value": option_value, "default_text": default_text,
            "texts": i18n.texts(lang), "presets": registry.names(), "preset_fields": rulesform.all_preset_fields()}


def render(template: str, lang: str, **ctx: Any) -> str:
    """Render a page in ``lang``; an ``error`` (English, as the routes write it) is translated."""
    ctx = {**lang_context(lang), **ctx}
    if ctx.get("error"):
        ctx["error"] = i18n.translate_message(str(ctx["error"]), lang)
    return env.get_template(template).render(**ctx)
