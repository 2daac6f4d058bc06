// The hand-end dialog: play stops, every hand is shown, the winning hand drawn with the winning
// tile marked, the pattern table (names, points, counts, total) in the page's language, the
// settlement worked out line by line, penalties, the running scores; "continue 继续" with the
// pause's countdown (the server's `pause`; without one, a 15 s local countdown). The final dialog
// at the game's end links the replay.
import {t, tn, lang, patternName, local} from "./i18n.js";
import {esc, meldSVG, tileIndex, tileSVG, tilesSVG} from "./tiles.js";
import {wildBadge} from "./hand.js";

const el = () => document.getElementById("result");

// "[chi 345m] [peng 111z] 34m123s33z** + 2m" (str of a Hand) to melds, concealed tiles, wilds, win tile
export function parseHandText(txt, wildFace) {
  const out = {melds: [], tiles: [], win: null};
  if (!txt) return out;
  const kinds = {chi: "chow", peng: "pung", kong: "exposed-kong", "kong-concealed": "concealed-kong", "kong-added": "added-kong"};
  txt = txt.replace(/\[([a-z-]+)\s+([0-9mpsz]+)[^\]]*\]/g, (m, k, ts) => {
    out.melds.push({kind: kinds[k] || k, tiles: compact(ts), claimed: null, offer: 0}); return "";
  });
  const [body, win] = txt.split("+");
  const stars = (body.match(/\*/g) || []).length;
  out.tiles = compact(body.replace(/\*/g, "").trim());
  for (let i = 0; i < stars; i++) out.tiles.unshift(wildFace ?? -1);
  if (win) out.win = compact(win.trim())[0] ?? null;
  return out;
}
function compact(s) {
  const out = []; let digits = [];
  for (const c of s.replace(/\s/g, "")) {
    if (/[0-9]/.test(c)) digits.push(c);
    else if ("mpsz".includes(c)) { digits.forEach(d => out.push(tileIndex(d + c))); digits = []; }
  }
  return out;
}

function seatName(st, s) { return esc(st.names[s] || "—"); }

function winHTML(st, r, w, wildFace) {
  const parsed = parseHandText(w.hand, wildFace);
  const concealed = r.hands && r.hands[w.actor] ? r.hands[w.actor].slice() : parsed.tiles;
  const melds = r.melds && r.melds[w.actor] ? r.melds[w.actor] : parsed.melds;
  const winTile = tileIndex(w.pai);
  // the server's concealed hand holds the winning tile on a self-draw (3n + 2 tiles with the melds
  // counted as 3): drawn once, apart, it is taken out of the concealed tiles here
  if (r.hands && r.hands[w.actor] && (concealed.length + 3 * melds.length) % 3 === 2) {
    const i = concealed.lastIndexOf(winTile);
    if (i >= 0) concealed.splice(i, 1);
  }
  const how = w.flower_win ? t(w.flower_win === "eight" ? "end.flower_eight" : "end.flower_seven")
    : w.actor === w.target ? t("end.self_drawn") : t(w.robbing ? "end.robbed_from" : "end.won_from", {name: st.names[w.target]});
  // rows worth nothing (a 0-point pattern) are not shown; a win without patterns shows its base
  const worth = p => (Array.isArray(p) ? p[1] * p[2] : p.points * p.count) !== 0;
  const shown = (w.patterns || []).filter(worth);
  const pats = shown.length ? shown : w.value ? [{name_zh: t("end.base_row"), name_en: t("end.base_row"), points: w.value, count: 1}] : [];
  const unitKey = "unit." + (st.rules === "mcr" ? "fan" : st.rules === "taiwan" ? "tai" : st.rules.startsWith("wenzhou") ? "mult" : "point");
  const unit = t(unitKey);
  const unitHead = lang === "en" ? unit.charAt(0).toUpperCase() + unit.slice(1) : unit;  // a column header: "Points"
  const rows = pats.map(p => `<tr><td>${esc(patternName(p))}</td><td class="n">${Array.isArray(p) ? p[1] : p.points}</td><td class="n">×${Array.isArray(p) ? p[2] : p.count}</td></tr>`).join("");
  // a liable player (统包, 抢杠) pays others' shares: each line says for whom
  const forWhom = l => l.for !== undefined && l.for !== null && l.for !== l.payer ? ` <small>(${esc(t("end.pays_for", {name: st.names[l.for] || "—"}))})</small>` : "";
  const settle = (w.settlement || []).map(l => `<li><b>${seatName(st, l.payer)}</b>${l.to === null ? "" : " → " + seatName(st, l.to ?? w.actor)}${forWhom(l)}: ${esc(local(l.formula))}</li>`).join("");
  return `<section class="win"><h3>${t("end.winner", {name: st.names[w.actor]})} <small>${esc(how)}</small></h3>` +
    `<div class="win-hand">${melds.map(m => meldSVG(m)).join("")}<span class="concealed">` +
    concealed.map(k => tileSVG(k, k === wildFace ? {cls: "wild", badge: wildBadge(st.rules)} : {})).join("") + `</span>` +
    `<span class="win-tile">${tileSVG(winTile, {cls: "winning"})}<small>${t("end.winning_tile")}</small></span></div>` +
    `<table class="pats"><thead><tr><th>${t("end.pattern")}</th><th>${unitHead}</th><th>${t("end.count")}</th></tr></thead><tbody>${rows}` +
    `<tr class="total"><td>${t("end.total")}</td><td class="n" colspan="2">${w.bonus ? esc(t("end.total_bonus", {value: w.value, bonus: w.bonus, unit: tn(unitKey, w.value), bonus_unit: tn(unitKey, w.bonus), what: t(st.rules === "taiwan" ? "end.bonus_bao" : "end.bonus")})) : w.value + " " + tn(unitKey, w.value)}</td></tr></tbody></table>` +
    (settle ? `<h4>${t("end.settlement")}</h4><ol class="settle-lines">${settle}</ol>` : "") + `</section>`;
}

export function resultHTML(st, r, wildFace) {
  let html = `<h2>${t("end.title", {hand: (r.hand ?? 0) + 1})} · ${r.wins.length ? t("end.won") : t("end.drawn")}</h2>`;
  html += r.wins.map(w => winHTML(st, r, w, wildFace)).join("");
  if ((r.penalties || []).length) html += `<h4>${t("end.penalties")}</h4><ul>` + r.penalties.map(p =>
    `<li>${esc(local({zh: p.name_zh, en: p.name_en}))}: ${t("end.penalty_line", {name: st.names[p.actor], amount: -Math.min(...p.deltas)})}</li>`).join("") + `</ul>`;
  if (r.hands) {
    const winners = new Set(r.wins.map(w => w.actor));
    html += `<h4>${t("end.hands")}</h4><div class="all-hands">` + [0, 1, 2, 3].filter(s => !winners.has(s)).map(s =>
      `<div class="ohand"><span class="pname">${seatName(st, s)}</span>${((r.melds || [])[s] || []).map(m => meldSVG(m)).join("")}` +
      `${tilesSVG((r.hands[s] || []).slice().sort((a, b) => a - b))}</div>`).join("") + `</div>`;
  }
  html += `<table class="scores"><thead><tr><th>${t("end.player")}</th><th>${t("end.this_hand")}</th><th>${t("end.total_score")}</th></tr></thead><tbody>` +
    [0, 1, 2, 3].map(s => `<tr><td>${seatName(st, s)}</td><td class="n ${r.deltas[s] > 0 ? "plus" : r.deltas[s] < 0 ? "minus" : ""}">${r.deltas[s] > 0 ? "+" : ""}${r.deltas[s]}</td><td class="n">${r.scores[s]}</td></tr>`).join("") + `</tbody></table>`;
  return html;
}

let localTimer = null;
export function showResult(st, r, wildFace, {onContinue}) {
  const d = el();
  d.dataset.hand = r.hand;
  const over = st.status === "finished";
  // the game's end: the standings and the replay link come first, and the dialog stays
  d.innerHTML = `<div class="dlg-body">${over ? finalHTML(st) : ""}${resultHTML(st, r, wildFace)}` +
    `<div class="dlg-foot"><span id="pause-info"></span>` +
    (over ? `<a class="button primary" href="/">${t("nav.lobby")}</a>`
          : `<button id="result-close" class="primary">${t("end.continue")} <span id="countdown"></span></button>`) +
    `</div></div>`;
  d.hidden = false;
  if (over) { d.dataset.final = "1"; return; }
  document.getElementById("result-close").onclick = () => {
    onContinue();
    document.getElementById("result-close").disabled = true;
    if (!("pause" in st)) hide();
  };
  if (!("pause" in st) && st.status !== "finished") {  // a server without the pause: count down here
    const until = Date.now() + 15000;
    clearInterval(localTimer);
    localTimer = setInterval(() => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      const c = document.getElementById("countdown"); if (c) c.textContent = `(${left})`;
      if (!left) hide();
    }, 250);
  }
}
export function updatePause(st, timer) {
  const p = st.pause;
  const info = document.getElementById("pause-info");
  if (!p || !info) return;
  const waiting = (p.waiting || []).map(s => st.names[s]).join(", ");
  info.textContent = waiting ? t("end.waiting_for", {names: waiting}) : "";
  const btn = document.getElementById("result-close");
  if (btn && st.seat !== null && st.seat !== undefined && !(p.waiting || []).includes(st.seat)) btn.disabled = true;
  timer.pause = {left: p.time_left, at: Date.now()};
}
export function hide() { clearInterval(localTimer); const d = el(); d.hidden = true; delete d.dataset.hand; }
export function isOpen() { return !el().hidden; }

// Places by score, standard competition ranking ("1224": a tie shares the better place), as the
// stored games rank (state.py competition_places): [160, -50, -50, -60] -> [1, 2, 2, 4].
export function places(scores) { return scores.map(s => 1 + scores.filter(o => o > s).length); }

function finalHTML(st) {
  const order = [0, 1, 2, 3].sort((a, b) => st.scores[b] - st.scores[a]);
  const pl = places(st.scores);
  return `<div class="final"><h3>${t("end.game_over")}</h3><ol>` + order.map(s => `<li value="${pl[s]}" data-place="${pl[s]}">${seatName(st, s)} <b>${st.scores[s]}</b></li>`).join("") +
    `</ol><p class="final-link">${st.game_id ? `<a href="/games/${st.game_id}">${t("end.replay")}</a>` : ""}</p></div>`;
}
export function showFinal(st) {
  const d = el();
  if (!d.hidden) { const f = d.querySelector(".final-link"); if (f && st.game_id && !f.innerHTML) f.innerHTML = `<a href="/games/${st.game_id}">${t("end.replay")}</a>`; return; }
  if (d.dataset.final) return;
  d.dataset.final = "1";
  d.innerHTML = `<div class="dlg-body">${finalHTML(st)}<div class="dlg-foot"><a class="button primary" href="/">${t("nav.lobby")}</a></div></div>`;
  d.hidden = false;
}
