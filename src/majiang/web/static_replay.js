// The replay page: step through a stored record; every hand is shown open (the game is over).
import {t, personName} from "./i18n.js";
import {esc, installSprite, tileIndex as idx, tilesSVG} from "./tiles.js";

installSprite();
const rec = JSON.parse(document.getElementById("record").textContent);
const events = rec.events;
const names = ((events.find(e => e.type === "start_game") || {}).names || rec.header.names || ["", "", "", ""]).map(personName);
const WIND = ["wind.e", "wind.s", "wind.w", "wind.n"];
function removeOne(arr, k) { const i = arr.indexOf(k); if (i >= 0) arr.splice(i, 1); }
function tname(p) { return t("tile." + idx(p)); }
function stateAt(n) {
  let st = null, scores = [0, 0, 0, 0], note = "";
  for (let i = 0; i < n && i < events.length; i++) {
    const e = events[i], a = e.actor;
    switch (e.type) {
      case "start_kyoku":
        st = {hands: e.tehais.map(h => h.map(idx)), melds: [[], [], [], []], rivers: [[], [], [], []], flowers: [[], [], [], []],
              dealer: e.oya, wild: null, bao: [], result: null};
        note = t("replay.dealt", {hand: (e.hand ?? 0) + 1}); break;
      case "wild": st.wild = idx(e.wild); note = t("replay.wild", {tile: tname(e.wild)}); break;
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
      case "hora": st.result = t("replay.hora", {name: names[a], tile: tname(e.pai), value: e.value + e.bonus}); note = st.result; break;
      case "ryukyoku": st.result = t("replay.ryukyoku"); note = st.result; break;
      case "end_kyoku": scores = e.scores; note = t("replay.end_kyoku", {deltas: e.deltas.join(" / ")}); break;
      case "end_game": scores = e.scores; note = t("replay.end_game"); break;
    }
  }
  return {st, scores, note};
}
let step = events.length;
function render() {
  const {st, scores, note} = stateAt(step);
  document.getElementById("step").textContent = `${step} / ${events.length} — ${note}`;
  const b = document.getElementById("board");
  if (!st) { b.innerHTML = ""; return; }
  const wild = st.wild !== null ? `<p class="rwild">${t(rec.header.rules && rec.header.rules.name === "seed000" ? "table.wildcard_baida" : "table.wildcard")} ${tilesSVG([st.wild])}</p>` : "";
  const bao = st.bao.length ? `<p class="rwild">${t("table.bao")} ${tilesSVG(st.bao)}</p>` : "";
  b.innerHTML = wild + bao + [0, 1, 2, 3].map(s => `<div class="rseat"><div class="name">${t(WIND[(s - st.dealer + 4) % 4])} ${esc(names[s])} · <b>${scores[s]}</b></div>` +
    `<div class="rhand">${tilesSVG(st.hands[s].slice().sort((x, y) => ((y === st.wild) - (x === st.wild)) || x - y))}` +
    ` ${st.melds[s].map(m => `<span class="meld">${tilesSVG(m)}</span>`).join("")} ${tilesSVG(st.flowers[s])}</div>` +
    `<div class="river">${tilesSVG(st.rivers[s])}</div></div>`).join("") +
    (st.result ? `<p class="result-line">${esc(st.result)}</p>` : "");
}
const go = n => { step = Math.max(0, Math.min(events.length, n)); render(); };
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(events.length);
document.addEventListener("keydown", e => { if (e.key === "ArrowRight") go(step + 1); if (e.key === "ArrowLeft") go(step - 1); });
render();
