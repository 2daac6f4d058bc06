// The replay page (牌谱): step through a stored record with every seat's tiles open (the game is
// over). Step n = the state after the record's first n events: the page opens at step 0, or at
// `?hand=H&step=S` (hand H counted from 1, S steps after its deal: S = 0 is the hand as dealt), or
// at `?step=N` (the whole game's step N). The hand list jumps to a hand; ← → step, the buttons
// step, jump hand by hand, and play on at the chosen speed. At a hand's end the same result panel
// as at the table (dialogs.js) is shown. The share link always points at the step shown.
import {t, personName} from "./i18n.js";
import {esc, installSprite, tileIndex as idx, tilesSVG} from "./tiles.js";
import {resultHTML} from "./dialogs.js";

installSprite();
const rec = JSON.parse(document.getElementById("record").textContent);
const events = rec.events;
const results = rec.results || [];
const preset = (rec.header.rules && rec.header.rules.name) || "";
const names = ((events.find(e => e.type === "start_game") || {}).names || rec.header.names || ["", "", "", ""]).map(personName);
const starts = events.map((e, i) => e.type === "start_kyoku" ? i : -1).filter(i => i >= 0);
const WIND = ["wind.e", "wind.s", "wind.w", "wind.n"];
function removeOne(arr, k) { const i = arr.indexOf(k); if (i >= 0) arr.splice(i, 1); }
function tname(p) { return t("tile." + idx(p)); }
// the hand (0-based) that step n shows, or -1 before the first deal
function handAt(n) { let h = -1; starts.forEach((s, k) => { if (s < n) h = k; }); return h; }
function stateAt(n) {
  let st = null, scores = [0, 0, 0, 0], note = "", hand = -1, ended = false;
  for (let i = 0; i < n && i < events.length; i++) {
    const e = events[i], a = e.actor;
    switch (e.type) {
      case "start_kyoku":
        hand += 1; ended = false;
        st = {hands: e.tehais.map(h => h.map(idx)), melds: [[], [], [], []], rivers: [[], [], [], []], flowers: [[], [], [], []],
              dealer: e.oya, wild: null, bao: [], result: null};
        note = t("replay.dealt", {hand: hand + 1}); break;
      case "wild": st.wild = idx(e.wild); note = t(preset === "seed000" ? "replay.wild_baida" : "replay.wild", {tile: tname(e.wild)}); break;
      case "bao": st.bao.push(idx(e.pai)); note = t("replay.bao", {tile: tname(e.pai)}); break;
      case "flower": removeOne(st.hands[a], idx(e.pai)); st.flowers[a].push(idx(e.pai)); note = t("replay.flower", {name: names[a], tile: tname(e.pai)}); break;
      case "tsumo": st.hands[a].push(idx(e.pai)); note = t("replay.draw", {name: names[a]}); break;
      case "dahai": removeOne(st.hands[a], idx(e.pai)); st.rivers[a].push(idx(e.pai)); note = t("replay.discard", {name: names[a], tile: tname(e.pai)}); break;
      case "chi": case "pon": case "daiminkan": {
        e.consumed.forEach(x => removeOne(st.hands[a], idx(x)));
        const r = st.rivers[e.target]; if (r.length && r[r.length - 1] === idx(e.pai)) r.pop();
        st.melds[a].push(e.consumed.map(idx).concat([idx(e.pai)]).sort((x, y) => x - y));
        note = t("replay." + e.type, {name: names[a], tile: tname(e.pai)}); break;
      }
      case "ankan": e.consumed.forEach(x => removeOne(st.hands[a], idx(x))); st.melds[a].push(e.consumed.map(idx)); note = t("replay.ankan", {name: names[a]}); break;
      case "kakan": {
        removeOne(st.hands[a], idx(e.pai));
        const m = st.melds[a].find(m => m.length === 3 && m.every(x => x === idx(e.pai)));
        if (m) m.push(idx(e.pai)); note = t("replay.kakan", {name: names[a], tile: tname(e.pai)}); break;
      }
      case "hora": note = t("replay.hora", {name: names[a], tile: tname(e.pai), value: e.value + e.bonus}); ended = true; break;
      case "ryukyoku": note = t("replay.ryukyoku"); ended = true; break;
      case "end_kyoku": scores = e.scores; ended = true; note = t("replay.end_kyoku", {deltas: e.deltas.join(" / ")}); break;
      case "end_game": scores = e.scores; note = t("replay.end_game"); break;
    }
  }
  return {st, scores, note, hand, ended};
}
function seatHTML(st, scores, s) {
  const sorted = st.hands[s].slice().sort((x, y) => ((y === st.wild) - (x === st.wild)) || x - y);
  return `<div class="rseat" data-seat="${s}"><div class="name">${t(WIND[(s - st.dealer + 4) % 4])} ${esc(names[s])}` +
    `${s === st.dealer ? ` <small class="dealer">${t("replay.dealer")}</small>` : ""} · <b>${scores[s]}</b></div>` +
    `<div class="rhand">${tilesSVG(sorted)} ${st.melds[s].map(m => `<span class="meld">${tilesSVG(m)}</span>`).join("")}` +
    ` ${tilesSVG(st.flowers[s])}</div><div class="river">${tilesSVG(st.rivers[s])}</div></div>`;
}
const params = new URLSearchParams(location.search);
function initialStep() {
  const h = parseInt(params.get("hand") || "", 10), s = parseInt(params.get("step") || "", 10) || 0;
  if (h >= 1 && h <= starts.length) return starts[h - 1] + 1 + Math.max(0, s);
  return Math.max(0, s);
}
let step = Math.min(events.length, initialStep());
function shareURL() {
  const h = handAt(step);
  const q = h < 0 ? `?step=${step}` : `?hand=${h + 1}&step=${step - starts[h] - 1}`;
  return location.origin + location.pathname + q;
}
function render() {
  const {st, scores, note, hand, ended} = stateAt(step);
  document.getElementById("step").textContent = `${step} / ${events.length} — ${note}`;
  const b = document.getElementById("board");
  b.dataset.step = step;
  b.dataset.hand = hand + 1;
  document.querySelectorAll("#hand-list a").forEach(a => a.classList.toggle("on", Number(a.dataset.hand) === hand + 1));
  const link = document.getElementById("share-link");
  link.href = shareURL();
  const panel = document.getElementById("replay-result");
  if (!st) {
    b.innerHTML = `<p class="hint">${esc(t("replay.before_deal"))}</p>` + `<ol class="places">${names.map(n => `<li>${esc(n)}</li>`).join("")}</ol>`;
    panel.hidden = true; panel.innerHTML = ""; return;
  }
  const wild = st.wild !== null ? `<p class="rwild">${t(preset === "seed000" ? "table.wildcard_baida" : "table.wildcard")} ${tilesSVG([st.wild])}</p>` : "";
  const bao = st.bao.length ? `<p class="rwild">${t("table.bao")} ${tilesSVG(st.bao)}</p>` : "";
  b.innerHTML = wild + bao + [0, 1, 2, 3].map(s => seatHTML(st, scores, s)).join("");
  const r = results[hand];
  if (ended && r) {
    const full = Object.assign({}, r, {hands: st.hands.map(h => h.slice()), melds: st.melds.map(ms => ms.map(m => ({kind: m.length === 4 ? "exposed-kong" : m[0] === m[1] ? "pung" : "chow", tiles: m, claimed: null, offer: 0})))});
    panel.innerHTML = resultHTML({names, rules: preset, status: "finished"}, full, st.wild);
    panel.hidden = false;
  } else { panel.hidden = true; panel.innerHTML = ""; }
}
let timer = null;
const go = n => { step = Math.max(0, Math.min(events.length, n)); render(); if (step >= events.length) stop(); };
function stop() { clearInterval(timer); timer = null; const p = document.getElementById("play"); p.textContent = p.dataset.play; }
function play() {
  if (timer) { stop(); return; }
  if (step >= events.length) go(0);
  const p = document.getElementById("play"); p.textContent = p.dataset.pause;
  timer = setInterval(() => go(step + 1), 800 * Number(document.getElementById("speed").value));
}
function jumpHand(k) { if (k >= 0 && k < starts.length) go(starts[k] + 1); }
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(events.length);
document.getElementById("play").onclick = play;
document.getElementById("speed").onchange = () => { if (timer) { stop(); play(); } };
document.getElementById("prev-hand").onclick = () => { const h = handAt(step); jumpHand(step > starts[h] + 1 ? h : h - 1); };
document.getElementById("next-hand").onclick = () => jumpHand(handAt(step) + 1);
document.querySelectorAll("#hand-list a").forEach(a => a.addEventListener("click", e => { e.preventDefault(); jumpHand(Number(a.dataset.hand) - 1); }));
document.getElementById("copy-link").onclick = async () => {
  try { await navigator.clipboard.writeText(shareURL()); document.getElementById("copy-link").textContent = t("replay.copied"); } catch (e) { /* no clipboard: the link is there */ }
};
document.addEventListener("keydown", e => {
  if (e.target.closest && e.target.closest("select, input")) return;
  if (e.key === "ArrowRight") go(step + 1);
  if (e.key === "ArrowLeft") go(step - 1);
  if (e.key === "ArrowDown" || e.key === "PageDown") jumpHand(handAt(step) + 1);
  if (e.key === "ArrowUp" || e.key === "PageUp") { const h = handAt(step); jumpHand(step > starts[h] + 1 ? h : h - 1); }
  if (e.key === " ") { e.preventDefault(); play(); }
});
render();
