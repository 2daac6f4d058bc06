// The table page: wires the connection, the state, the board, the hand, the dialogs and the sounds.
import {t, tm, personName} from "./i18n.js";
import {connect} from "./connection.js";
import {S, hand, reconcile, arrange} from "./state.js";
import {installSprite, tileSVG} from "./tiles.js";
import {boardHTML, drawBoard, setHTML} from "./board.js";
import {drawHand, drawActions, handClick, keyAction} from "./hand.js";
import {showResult, showFinal, hide, isOpen, updatePause} from "./dialogs.js";
import {play, isMuted, setMuted} from "./sound.js";
import {initChat, chatState, onChat} from "./chat.js";

const app = document.getElementById("app");
installSprite();
app.innerHTML = boardHTML() + `
  <div id="me">
    <div id="hand-row"><div id="hand"></div><div id="drawn"></div></div>
    <div id="toolbar">
      <span id="watching" class="watching" hidden>${t("table.watching")}</span>
      <button id="arrange" type="button">${t("hand.arrange")}</button>
      <span id="ready"></span>
      <button id="mute" type="button" aria-pressed="${isMuted() ? "true" : "false"}">${isMuted() ? t("sound.off") : t("sound.on")}</button>
    </div>
    <div id="autoplay" hidden></div>
    <div id="actions"></div>
    <div id="message" role="status"></div>
  </div>
  <div id="result" class="dialog" hidden role="dialog" aria-modal="true"></div>`;

const timer = {turn: null, pause: null};
window.__mjRenderTimes = [];
window.__mj = S;  // read by the browser tests (the state the page drew)
let shownResults = null;

const conn = connect(app.dataset.table, {
  onState, onError: m => setMsg(tm(m), true),
  onStatus: ok => setMsg(ok ? "" : t("table.reconnecting"), !ok, !ok),
  onGone: () => setMsg(t("table.gone"), true, true),
  onEnded: () => setMsg(t("table.ended"), true, true),
  onChat: m => onChat(m),
});
initChat(conn);

// A message about play (a refused tile, a server error) stays until the game moves on; one about
// the connection (reconnecting, gone) until the connection changes.
let msgSticky = false;
function setMsg(text, err, sticky = false) {
  const m = document.getElementById("message");
  m.textContent = text || ""; m.className = err ? "error" : "";
  msgSticky = sticky && !!text;
}
// the game moved: a discard, a claim, a draw, the turn, a hand's end or 托管 changed
function moved(prev, live) {
  if (!prev) return false;
  const n = xs => (xs || []).reduce((a, r) => a + r.length, 0);
  return n(prev.rivers) !== n(live.rivers) || n(prev.melds) !== n(live.melds) || prev.turn !== live.turn ||
    prev.last_draw !== live.last_draw || prev.hand_number !== live.hand_number || !!prev.auto_play !== !!live.auto_play;
}

function sounds(prev, live, st) {
  if (!prev || !prev.rivers || !live.rivers) return;
  const n = rs => rs.reduce((a, r) => a + r.length, 0);
  const m = ms => ms.reduce((a, r) => a + r.length, 0);
  const mk = ms => ms.flat().filter(x => x.kind.endsWith("kong")).length;
  if (m(live.melds) > m(prev.melds) || (live.hidden_kongs || []).reduce((a, b) => a + b, 0) > (prev.hidden_kongs || []).reduce((a, b) => a + b, 0))
    play(mk(live.melds) > mk(prev.melds) ? "kong" : "claim");
  else if (n(live.rivers) > n(prev.rivers)) play("discard");
  if (live.last_draw !== null && live.last_draw !== undefined && prev.last_draw !== live.last_draw) play("draw");
}

function onState(st) {
  const t0 = performance.now();
  st.names = (st.names || []).map(personName);
  app.dataset.version = st.version;
  app.dataset.status = st.status;
  chatState(st);
  const prevSt = S.st;
  if (st.status === "open") {
    if (prevSt && JSON.stringify(prevSt.places) !== JSON.stringify(st.places)) { location.reload(); return; }
    S.st = st;
    document.getElementById("centre").innerHTML = `<div class="c-wait">${t("table.waiting")}</div>`;
    return;
  }
  if (prevSt && prevSt.status === "open") { location.reload(); return; }
  const seating = document.getElementById("seating"); if (seating) seating.remove();
  document.body.classList.add("playing");
  // a visitor without a seat watches: no hand, so no hand controls; the page says so
  const watching = st.seat === null || st.seat === undefined;
  document.body.classList.toggle("watching", watching);
  document.getElementById("watching").hidden = !watching;
  let live = st.live && Object.keys(st.live).length ? st.live : null;
  if (live) S.lastLive = live;
  else live = Object.assign({}, S.lastLive, {legal: [], last_draw: null, time_left: null, turn: null});
  const prevLive = S.live;
  S.prev = prevSt; S.st = st; S.live = live;
  if (st.seat !== null && st.seat !== undefined && live.hand) reconcile(live, `${(st.results || []).length}:${live.hand_number}`);
  sounds(prevLive, live, st);
  if (!msgSticky && moved(prevLive, live)) setMsg("");
  timer.turn = {left: live.time_left, at: Date.now()};
  render(prevLive);
  // the hand end: open the dialog once per result; close it when the pause is over
  const res = st.results || [];
  // arriving during a hand-end pause or after the game: show the last hand's end too
  if (shownResults === null) shownResults = st.pause || st.status === "finished" ? Math.max(0, res.length - 1) : res.length;
  if (res.length > shownResults) {
    const r = res[res.length - 1];
    shownResults = res.length;
    if (r.wins.length) play("win");
    showResult(st, r, live.wild_face, {onContinue: () => conn.cont()});
  } else if ("pause" in st && !st.pause && isOpen() && st.status === "playing") {
    hide();
  }
  if (st.pause) updatePause(st, timer);
  if (st.status === "finished") showFinal(st);
  const dt = performance.now() - t0;
  window.__mjRenderTimes.push(dt);
  app.dataset.renderMs = dt.toFixed(2);
}

function render(prevLive) {
  const st = S.st, live = S.live;
  drawBoard(st, live, prevLive);
  drawHand(st, live);
  drawActions(st, live);
  drawReady(st, live);
  tick();
}
function redraw() { drawHand(S.st, S.live); }

function drawReady(st, live) {
  const el = document.getElementById("ready");
  const w = live.waits;
  let html = "";
  if (st.seat !== null && st.seat !== undefined && st.status === "playing") {
    if (w) html += `<span class="waits">${t("hand.waits")} ` + w.tiles.map(x =>
      `<span class="wait" data-tile="${x.tile}">${tileSmall(x.tile)}<span class="unseen" title="${t("hand.unseen_title")}">×${x.unseen}</span></span>`).join("") + `</span>`;
    if (w || live.auto_win) html += `<label class="autowin"><input type="checkbox" id="auto-win"${live.auto_win ? " checked" : ""}> ${t("hand.auto_win")}</label>`;
  }
  setHTML(el, html);  // unchanged markup is left alone: a button or switch is not replaced under the finger
  const ap = document.getElementById("autoplay");
  ap.hidden = !live.auto_play;
  if (live.auto_play) setHTML(ap, `${t("hand.auto_play")} <button id="take-back" type="button">${t("hand.take_back")}</button>`);
  drawMute();
}

function tileSmall(k) { return tileSVG(k, {cls: "mini"}); }

function tick() {
  const el = document.getElementById("timer");
  if (!el) return;
  const st = S.st;
  const tb = st && st.pause ? timer.pause : timer.turn;
  if (!tb || tb.left === null || tb.left === undefined || !st || st.status !== "playing") { el.textContent = ""; el.className = "c-clock"; return; }
  const left = Math.max(0, tb.left - (Date.now() - tb.at) / 1000);
  el.textContent = `${Math.ceil(left)}`;
  el.className = "c-clock" + (left < 5 ? " urgent" : "");
  const cd = document.getElementById("countdown");
  if (cd && st.pause) cd.textContent = `(${Math.ceil(left)})`;
}
setInterval(tick, 250);

function drawMute() {
  const mute = document.getElementById("mute");
  mute.textContent = isMuted() ? t("sound.off") : t("sound.on");
  mute.setAttribute("aria-pressed", isMuted() ? "true" : "false");
}
document.getElementById("me").addEventListener("click", ev => {
  if (ev.target.id === "mute") { setMuted(!isMuted()); drawMute(); return; }
  if (!S.st) return;
  if (ev.target.id === "arrange") { arrange(S.live); redraw(); return; }
  if (ev.target.id === "take-back") { conn.back(); return; }
  const b = ev.target.closest("button.act");
  if (b) { const a = S.live.legal[Number(b.dataset.idx)]; if (a) conn.action(a); return; }
  handClick(ev, S.st, S.live, {discard: k => conn.action({kind: "discard", tile: k}), act: a => conn.action(a), message: setMsg, redraw});
});
document.getElementById("me").addEventListener("change", ev => {
  if (ev.target.id === "auto-win") conn.autoWin(ev.target.checked);
});
document.getElementById("me").addEventListener("contextmenu", ev => {
  if (!ev.target.closest("#hand-row")) return;
  ev.preventDefault(); arrange(S.live); redraw();
});
document.addEventListener("keydown", ev => {
  if (!S.st || S.st.status !== "playing") return;
  if (isOpen() && (ev.key === "Enter" || ev.key === " ")) { const b = document.getElementById("result-close"); if (b && !b.disabled) { ev.preventDefault(); b.click(); } return; }
  const a = keyAction(ev, S.live);
  if (a) { ev.preventDefault(); conn.action(a); }
});
