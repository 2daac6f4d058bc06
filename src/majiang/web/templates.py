"""Server-rendered pages (Jinja2, autoescaped). Kept in Python so the package needs no data files."""

from __future__ import annotations

from jinja2 import DictLoader, Environment, select_autoescape

BASE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}majiang{% endblock %}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body>
<nav><a href="/">Lobby 大厅</a> <a href="/leaderboard">Leaderboard 排行</a>
{% if user %}<a href="/players/{{ user.username }}">My games 战绩</a>
<span class="who">{{ user.username }}</span>
<form method="post" action="/logout" class="inline"><button id="logout">Log out</button></form>
{% else %}<a href="/login" id="login-link">Log in</a> <a href="/signup" id="signup-link">Sign up</a>{% endif %}
</nav>
{% if error %}<p class="error" id="error">{{ error }}</p>{% endif %}
<main>{% block main %}{% endblock %}</main>
</body></html>"""

AUTH = """{% extends "base.html" %}{% block main %}
<h1>{{ heading }}</h1>
<form method="post" action="{{ action }}" id="auth-form">
<label>User name <input name="username" id="username" required minlength="3" maxlength="32" value="{{ username }}"></label>
<label>Password <input type="password" name="password" id="password" required minlength="8" maxlength="256"></label>
<button type="submit" id="submit">{{ heading }}</button>
</form>{% endblock %}"""

LOBBY = """{% extends "base.html" %}{% block main %}
<h1>Tables 牌桌</h1>
<table class="list" id="tables"><tr><th>Table</th><th>Rules</th><th>Hands</th><th>Turn</th><th>Players</th><th>Status</th><th></th></tr>
{% for r in rooms %}<tr><td>{{ r.id }}</td><td>{{ r.rules.name }}{% if r.options_text %} ({{ r.options_text }}){% endif %}</td>
<td>{{ r.max_hands or "full" }}</td><td>{{ r.turn_time|int }}s</td>
<td>{% for n in r.names_by_seat() %}{{ n or "—" }}{% if not loop.last %}, {% endif %}{% endfor %}</td>
<td>{{ r.status }}</td><td><a href="/tables/{{ r.id }}">{{ "open" if r.status == "open" else "watch" }}</a></td></tr>
{% else %}<tr><td colspan="7">No open tables.</td></tr>{% endfor %}</table>
{% if user %}
<h2>Create a table 开桌</h2>
<form method="post" action="/tables" id="create-form">
<label>Rules <select name="preset" id="preset">{% for p in presets %}<option value="{{ p }}">{{ p }}</option>{% endfor %}</select></label>
<label>Options <input name="options" id="options" placeholder="e.g. scorer=mcr, flowers=false" maxlength="300"></label>
<label>Hands <input type="number" name="max_hands" id="max_hands" min="0" max="64" value="4"> (0 = the full match)</label>
<label>Turn time (s) <input type="number" name="turn_time" id="turn_time" min="{{ min_turn }}" max="600" value="30"></label>
<label><input type="checkbox" name="sit" value="1" id="sit" checked> Sit at the table myself</label>
<button type="submit" id="create">Create</button>
</form>
<p class="hint">Options are the rule set's own (<code>key=value</code>, comma separated): {{ option_names }}.</p>
{% else %}<p><a href="/login">Log in</a> or <a href="/signup">sign up</a> to create or join a table.</p>{% endif %}
<h2>Recent games 最近对局</h2>
<ul>{% for g in games %}<li><a href="/games/{{ g.id }}">#{{ g.id }}</a> {{ g.ruleset }} — {% for s in g.seats %}{{ s.name }} {{ s.score }}{% if not loop.last %}, {% endif %}{% endfor %}</li>
{% else %}<li>None yet.</li>{% endfor %}</ul>
<script>
// keep the list of tables fresh without reloading the page (the create form keeps its input)
setInterval(async () => {
  try {
    const r = await fetch("/", {credentials: "same-origin"});
    const t = new DOMParser().parseFromString(await r.text(), "text/html").getElementById("tables");
    if (t) document.getElementById("tables").innerHTML = t.innerHTML;
  } catch (e) { /* offline for a moment */ }
}, 5000);
</script>
{% endblock %}"""

TABLE = """{% extends "base.html" %}{% block title %}Table {{ room.id }}{% endblock %}{% block main %}
<div id="app" data-table="{{ room.id }}"></div>
{% if room.status == "open" %}
<section id="seating"><h2>Table {{ room.id }} — {{ room.rules.name }}{% if room.options_text %} ({{ room.options_text }}){% endif %}</h2>
<p>{{ room.max_hands or "full match" }} hand(s), {{ room.turn_time|int }} s a turn. Created by {{ room.creator }}.</p>
<ol class="places">{% for pl in room.places %}<li>{% if pl.empty %}<em>empty</em>
{% if user and my_place is none %}<form method="post" action="/tables/{{ room.id }}/join" class="inline"><input type="hidden" name="place" value="{{ loop.index0 }}"><button class="join">Sit here</button></form>{% endif %}
{% else %}{{ pl.name }}{% if pl.bot %} (bot){% endif %}{% endif %}</li>{% endfor %}</ol>
{% if user and my_place is not none %}<form method="post" action="/tables/{{ room.id }}/leave" class="inline"><button id="leave">Leave seat</button></form>{% endif %}
{% if user and user.id == room.creator_id %}<form method="post" action="/tables/{{ room.id }}/bots" class="inline" id="bots-form">
<select name="kind" id="bot-kind">{% for k in bot_kinds %}<option>{{ k }}</option>{% endfor %}</select>
<button id="fill-bots">Fill empty seats with bots</button></form>{% endif %}
</section>{% endif %}
<script src="/static/tiles.js"></script><script src="/static/table.js"></script>
{% endblock %}"""

PLAYER = """{% extends "base.html" %}{% block main %}
<h1>{{ name }} — games 对局</h1>
<table class="list" id="history"><tr><th>Game</th><th>Finished</th><th>Rules</th><th>Seat</th><th>Score</th><th>Place</th><th></th></tr>
{% for s in seats %}<tr><td>#{{ s.game.id }}</td><td>{{ s.game.finished_at.strftime("%Y-%m-%d %H:%M") }}</td><td>{{ s.game.ruleset }}</td>
<td>{{ s.seat + 1 }}</td><td>{{ s.score }}</td><td>{{ s.place }}</td><td><a href="/games/{{ s.game.id }}">replay</a></td></tr>
{% else %}<tr><td colspan="7">No games yet.</td></tr>{% endfor %}</table>{% endblock %}"""

GAME = """{% extends "base.html" %}{% block title %}Game {{ game.id }}{% endblock %}{% block main %}
<h1>Game #{{ game.id }} — {{ game.ruleset }}</h1>
<p>{% for s in game.seats %}seat {{ s.seat + 1 }} {{ s.name }}{% if s.is_bot %} (bot){% endif %}: <b>{{ s.score }}</b> (place {{ s.place }}){% if not loop.last %} · {% endif %}{% endfor %}</p>
<p><a href="/games/{{ game.id }}/record" id="record-link">Download the record (JSON lines)</a></p>
<div id="replay"><div class="controls"><button id="first">|◀ start</button><button id="prev">◀ back</button>
<span id="step"></span><button id="next">next ▶</button><button id="last">end ▶|</button> (or the arrow keys)</div><div id="board"></div></div>
<script id="record" type="application/json">{{ record|tojson }}</script>
<script src="/static/tiles.js"></script><script src="/static/replay.js"></script>
{% endblock %}"""

BOARD = """{% extends "base.html" %}{% block main %}
<h1>Leaderboard 排行榜</h1>
<form method="get" action="/leaderboard"><select name="rules" onchange="this.form.submit()">
{% for p in presets %}<option {% if p == rules %}selected{% endif %}>{{ p }}</option>{% endfor %}</select></form>
<table class="list" id="board"><tr><th>#</th><th>Player</th><th>Rating</th><th>μ</th><th>σ</th><th>Games</th><th>Points</th></tr>
{% for r, u in rows %}<tr><td>{{ loop.index }}</td><td><a href="/players/{{ u.username }}">{{ u.username }}</a></td>
<td>{{ "%.1f"|format(r.mu - 3 * r.sigma) }}</td><td>{{ "%.1f"|format(r.mu) }}</td><td>{{ "%.1f"|format(r.sigma) }}</td>
<td>{{ r.games }}</td><td>{{ r.points }}</td></tr>{% else %}<tr><td colspan="7">No rated games yet.</td></tr>{% endfor %}</table>
<p class="hint">Rating = TrueSkill μ − 3σ, from every finished game of this rule set (bots count as fresh opponents).</p>
{% endblock %}"""

env = Environment(loader=DictLoader({"base.html": BASE, "auth.html": AUTH, "lobby.html": LOBBY, "table.html": TABLE,
                                     "player.html": PLAYER, "game.html": GAME, "board.html": BOARD}),
                  autoescape=select_autoescape(default=True, default_for_string=True))
