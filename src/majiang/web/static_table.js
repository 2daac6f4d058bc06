// The table page: one WebSocket, the seat's own view, actions as buttons, tiles by clicking.
(function () {
  const app = document.getElementById("app");
  const tableId = app.dataset.table;
  let S = null;              // last state
  let order = [];            // client-side order of the concealed tiles (drawn tile apart)
  let selected = null;       // index into order, or "d" for the drawn tile
  let shownResults = 0;      // results already shown
  let timerBase = null;
  let ws = null, retry = 0;
  let lastLive = {};         // the board stays shown once the game is over

  app.innerHTML = `
    <div id="info"></div>
    <div id="board">
      <div class="seat top" id="seat-2"></div>
      <div class="seat left" id="seat-3"></div>
      <div class="seat right" id="seat-1"></div>
      <div class="seat bottom" id="seat-0"></div>
    </div>
    <div id="me"><div id="hand"></div><div id="drawn"></div></div>
    <div id="ready"></div>
    <div id="actions"></div>
    <div id="message"></div>
    <div id="result" hidden></div>`;

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/tables/${tableId}`);
    ws.onopen = () => { retry = 0; setMsg(""); };
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") onState(msg);
      else if (msg.type === "error") setMsg(msg.message, true);
    };
    ws.onclose = () => {
      setMsg("connection lost — reconnecting…", true);
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 500 * retry);
    };
  }
  function setMsg(text, err) {
    const m = document.getElementById("message");
    m.textContent = text; m.className = err ? "error" : "";
  }
  function send(action) { ws.send(JSON.stringify({type: "action", action: action})); }
  function sendAutoWin(on) { ws.send(JSON.stringify({type: "auto_win", on: on})); }

  function reconcile(hand, drawn) {
    const rest = hand.slice();
    if (drawn !== null && drawn !== undefined) rest.splice(rest.indexOf(drawn), 1);
    const pool = {};
    rest.forEach(t => pool[t] = (pool[t] || 0) + 1);
    const kept = [];
    order.forEach(t => { if (pool[t]) { kept.push(t); pool[t]--; } });
    Object.keys(pool).map(Number).sort((a, b) => a - b).forEach(t => { for (let i = 0; i < pool[t]; i++) kept.push(t); });
    if (kept.join() !== order.join()) selected = null;
    order = kept;
  }

  function onState(st) {
    app.dataset.version = st.version;
    app.dataset.status = st.status;
    const prev = S;
    const prevStatus = S ? S.status : null;
    S = st;
    if (st.status === "open") {
      if (prev && JSON.stringify(prev.places) !== JSON.stringify(st.places)) { location.reload(); return; }
      renderOpen(st);
      return;
    }
    if (prevStatus === "open") { location.reload(); return; }
    const seating = document.getElementById("seating"); if (seating) seating.remove();
    if (st.live && Object.keys(st.live).length) lastLive = st.live;
    else st.live = Object.assign({}, lastLive, {legal: [], last_draw: null, time_left: null, turn: null});
    const live = st.live;
    if (st.seat !== null && live.hand) reconcile(live.hand, live.last_draw); else order = [];
    timerBase = {left: live.time_left, at: Date.now()};
    render();
    const res = st.results || [];
    if (res.length > shownResults) { showResult(res[res.length - 1], st); shownResults = res.length; }
    else if (st.status === "finished") showFinal(st);
    if (st.game_id) document.querySelectorAll(".final-link").forEach(el => {
      el.innerHTML = `<a href="/games/${st.game_id}">Replay and record 回放</a>`;
    });
  }

  function renderOpen(st) {
    document.getElementById("info").textContent = "Waiting for players… the game starts when all four seats are taken.";
  }

  const WIND = ["东", "南", "西", "北"];
  function render() {
    const st = S, live = st.live || {};
    const me = st.seat === null ? 0 : st.seat;
    const turnName = live.turn !== null && live.turn !== undefined ? st.names[live.turn] : "—";
    const wild = live.wild_face !== null && live.wild_face !== undefined
      ? `<span class="wild">财神 wildcard ${tileSVG(live.wild_face, {small: true})} (indicator ${tileSVG(live.indicator, {small: true})})</span>` : "";
    document.getElementById("info").innerHTML =
      `<b>${esc(st.rules)}</b> · hand ${(live.hand_number ?? 0) + 1}${st.max_hands ? "/" + st.max_hands : ""} · ` +
      `${WIND[(live.prevalent_wind ?? 27) - 27]}风圈 · wall <span id="wall">${live.wall_live ?? 0}</span> · ` +
      `turn: <span id="turn">${esc(turnName)}</span> · <span id="timer"></span> ${wild}` +
      (st.seat === null ? ` · <i>spectating 观战</i>` : "") +
      (st.status === "finished" ? ` · <b>finished</b>` : "");
    for (let k = 0; k < 4; k++) {
      const s = (me + k) % 4;
      const el = document.getElementById("seat-" + k);
      if (!live.rivers) { el.innerHTML = ""; continue; }
      const wind = WIND[(s - live.dealer + 4) % 4];
      const hidden = live.hidden_kongs[s] ? `<span class="meld">${tilesSVG(Array(4).fill(null), {small: true})}</span>`.repeat(live.hidden_kongs[s]) : "";
      const backs = s === st.seat ? "" : tilesSVG(Array(live.hand_counts[s]).fill(null), {small: true});
      el.innerHTML =
        `<div class="name ${live.turn === s ? "active" : ""}">${wind} ${esc(st.names[s])}${st.bots[s] ? " [bot]" : ""}` +
        `${s === live.dealer ? " (庄)" : ""} · <span class="score" data-seat="${s}">${st.scores[s]}</span></div>` +
        `<div class="concealed">${backs}</div>` +
        `<div class="melds">${live.melds[s].map(m => meldSVG(m)).join("")}${hidden}</div>` +
        `<div class="flowers">${tilesSVG(live.flowers[s], {small: true})}</div>` +
        `<div class="river">${tilesSVG(live.rivers[s], {small: true, cls: (live.claim_tile !== null && live.discarder === s) ? "" : ""})}</div>`;
    }
    // own hand
    const handEl = document.getElementById("hand"), drawnEl = document.getElementById("drawn");
    handEl.innerHTML = order.map((t, i) => tileSVG(t, {cls: selected === i ? "sel" : ""}).replace("<svg ", `<svg data-i="${i}" `)).join("");
    const d = live.last_draw;
    drawnEl.innerHTML = (st.seat !== null && d !== null && d !== undefined) ? tileSVG(d, {cls: selected === "d" ? "sel" : ""}).replace("<svg ", `<svg data-i="d" `) : "";
    // waits (听牌), sent to this seat alone when its hand is ready, and the auto-win switch
    renderReady(st, live);
    // actions
    const acts = (live.legal || []);
    const buttons = acts.filter(a => a.kind !== "discard");
    const canDiscard = acts.some(a => a.kind === "discard");
    let html = buttons.map((a, i) => `<button class="act" data-kind="${a.kind}" data-idx="${acts.indexOf(a)}">${esc(a.label)}</button>`).join("");
    if (canDiscard) html += ` <span class="hint">Click a tile twice to discard it 打牌 · click two tiles to swap · right-click to arrange</span>`;
    if (live.claim_tile !== null && live.claim_tile !== undefined && buttons.length)
      html = `<span class="claim">${tileSVG(live.claim_tile, {small: true})} from ${esc(st.names[live.discarder])}:</span> ` + html;
    document.getElementById("actions").innerHTML = html;
    tick();
  }

  function renderReady(st, live) {
    const el = document.getElementById("ready");
    const w = live.waits;
    if (st.seat === null || st.status !== "playing" || (!w && !live.auto_win)) { el.innerHTML = ""; return; }
    let html = "";
    if (w) {
      html += `<span class="waits">听 Waits: ` + w.tiles.map(x =>
        `<span class="wait" data-tile="${x.tile}">${tileSVG(x.tile, {small: true})}` +
        `<span class="unseen" title="copies not in sight">×${x.unseen}</span>` +
        `${x.tile === live.wild_face ? " 财神" : ""}</span>`).join(" ") +
        ` <span class="hint">(${w.tiles.reduce((n, x) => n + x.unseen, 0)} unseen)</span></span>`;
    }
    html += ` <label class="autowin"><input type="checkbox" id="auto-win"${live.auto_win ? " checked" : ""}> ` +
      `自动和 Auto-win</label>`;
    el.innerHTML = html;
  }
  document.getElementById("ready").addEventListener("change", ev => {
    if (ev.target.id === "auto-win") sendAutoWin(ev.target.checked);
  });

  function tick() {
    const el = document.getElementById("timer");
    if (!el || !timerBase || timerBase.left === null || timerBase.left === undefined || !S || S.status !== "playing") { if (el) el.textContent = ""; return; }
    const left = Math.max(0, timerBase.left - (Date.now() - timerBase.at) / 1000);
    el.textContent = `time left ${left.toFixed(0)}s`;
  }
  setInterval(tick, 250);

  function discardable(t) {
    return S && S.live && (S.live.legal || []).some(a => a.kind === "discard" && a.tile === t);
  }

  document.getElementById("me").addEventListener("click", ev => {
    const svg = ev.target.closest("svg[data-i]");
    if (!svg) return;
    const i = svg.dataset.i === "d" ? "d" : Number(svg.dataset.i);
    const t = i === "d" ? S.live.last_draw : order[i];
    if (selected === i) {
      if (discardable(t)) { send({kind: "discard", tile: t}); selected = null; }
      else { selected = null; render(); }
      return;
    }
    if (selected !== null && selected !== "d" && i !== "d") {
      const tmp = order[selected]; order[selected] = order[i]; order[i] = tmp; selected = null;
    } else {
      selected = i;
    }
    render();
  });
  document.getElementById("me").addEventListener("contextmenu", ev => {
    ev.preventDefault();
    order.sort((a, b) => a - b); selected = null; render();
  });
  document.getElementById("actions").addEventListener("click", ev => {
    const b = ev.target.closest("button.act");
    if (!b) return;
    const a = S.live.legal[Number(b.dataset.idx)];
    send({kind: a.kind, tile: a.tile, low: a.low});
  });

  const PAT = {fixed: "基本分 base", flower: "花牌 flower"};
  function showResult(r, st) {
    const el = document.getElementById("result");
    let body = `<h2>Hand ${r.hand + 1} ${r.drawn ? "— drawn 荒庄" : ""}</h2>`;
    r.wins.forEach(w => {
      body += `<div class="win"><b>${esc(st.names[w.actor])}</b> wins 和 on ${tileSVG(tileIndex(w.pai), {small: true})}` +
        (w.actor === w.target ? " (self-drawn 自摸)" : ` from ${esc(st.names[w.target])}`) +
        `<div class="hand-text">${esc(w.hand)}</div><table class="pats"><tr><th>Pattern</th><th>Points</th><th>×</th></tr>` +
        w.patterns.map(p => `<tr><td>${esc(PAT[p[0]] || p[0])}</td><td>${p[1]}</td><td>${p[2]}</td></tr>`).join("") +
        `<tr><td><b>value + bonus</b></td><td colspan="2">${w.value} + ${w.bonus}</td></tr></table></div>`;
    });
    body += `<table class="settle"><tr><th>Player</th><th>This hand</th><th>Total</th></tr>` +
      [0, 1, 2, 3].map(s => `<tr><td>${esc(st.names[s])}</td><td>${r.deltas[s] > 0 ? "+" : ""}${r.deltas[s]}</td><td>${r.scores[s]}</td></tr>`).join("") + `</table>`;
    if (st.status === "finished") body += finalText(st);
    body += `<button id="result-close">Continue 继续</button>`;
    el.innerHTML = body; el.hidden = false;
    document.getElementById("result-close").onclick = () => { el.hidden = true; };
  }
  function finalText(st) {
    return `<p class="final"><b>Game over 终局.</b> <span class="final-link"></span></p>`;
  }
  function showFinal(st) {
    const el = document.getElementById("result");
    if (!el.hidden || el.dataset.final) return;
    el.dataset.final = "1";
    el.innerHTML = `<h2>Final scores</h2>` + [0, 1, 2, 3].map(s => `<div>${esc(st.names[s])}: ${st.scores[s]}</div>`).join("") + finalText(st) +
      `<button id="result-close">Close</button>`;
    el.hidden = false;
    document.getElementById("result-close").onclick = () => { el.hidden = true; };
  }
  function tileIndex(txt) {  // compact "5m" / "7z" / "1f" to an index
    const n = Number(txt[0]), s = txt[1];
    return {m: 0, p: 9, s: 18, z: 27, f: 34}[s] + n - 1;
  }
  connect();
})();
