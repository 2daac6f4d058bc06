// The seat's own hand and controls: tiles sorted, the drawn tile apart at the right, the wildcard
// badged and pinned left; on your turn tap a tile to lift it and tap it again to discard (a tile
// that may not go says why); off turn tap two tiles to swap them; 理牌 sorts again (also a
// right-click). Claims are large buttons with their tiles drawn, with keyboard keys on a desktop.
import {t, lang} from "./i18n.js";
import {hand, isWild, arrange, swap} from "./state.js";
import {esc, tileSVG, tilesSVG} from "./tiles.js";
import {setHTML} from "./board.js";

const KEYS = {win: "H", pung: "P", chow: "C", "exposed-kong": "K", "concealed-kong": "K", "added-kong": "K", ready: "R", pass: "Esc"};

export function wildBadge(rules) { return rules === "seed000" ? t("hand.badge_baida") : t("hand.badge_caishen"); }

export function drawHand(st, live) {
  const handEl = document.getElementById("hand"), drawnEl = document.getElementById("drawn");
  if (st.seat === null || st.seat === undefined) { setHTML(handEl, ""); setHTML(drawnEl, ""); return; }
  const badge = wildBadge(st.rules);
  setHTML(handEl, hand.order.map((k, i) => tileSVG(k, {i, cls: (hand.selected === i ? "sel" : "") + (isWild(k, live) ? " wild" : ""),
    badge: isWild(k, live) ? badge : ""})).join(""));
  const d = live.last_draw;
  setHTML(drawnEl, d !== null && d !== undefined
    ? tileSVG(d, {i: "d", cls: "drawn-tile" + (hand.selected === "d" ? " sel" : "") + (isWild(d, live) ? " wild" : ""), badge: isWild(d, live) ? badge : ""}) : "");
}

function actionTiles(a) {
  if (a.kind === "chow" && a.low !== null && a.low !== undefined) return [a.low, a.low + 1, a.low + 2];
  if (a.tile === null || a.tile === undefined) return [];
  if (a.kind === "pung") return [a.tile, a.tile, a.tile];
  if (a.kind.endsWith("kong")) return [a.tile, a.tile, a.tile, a.tile];
  return [a.tile];
}
export function actionName(kind) { return t("act." + kind); }

export function drawActions(st, live) {
  const acts = live.legal || [];
  const claims = acts.map((a, idx) => [a, idx]).filter(([a]) => a.kind !== "discard");
  const canDiscard = acts.some(a => a.kind === "discard");
  let html = "";
  if (live.claim_tile !== null && live.claim_tile !== undefined && claims.length && live.discarder !== null && live.discarder !== undefined)
    html += `<span class="claim-from">${tileSVG(live.claim_tile)}<span>${esc(t("act.from", {name: st.names[live.discarder]}))}</span></span>`;
  const ex = live.exchange;
  html += claims.map(([a, idx]) => `<button class="act act-${a.kind}" data-kind="${a.kind}" data-idx="${idx}">` +
    (a.exchange ? `<span class="an">${esc(t("act.exchange"))}</span>${tilesSVG([a.tile])}`  // 换三张: the tile to pass
      : a.kind === "decide" ? `<span class="an">${esc(a.label_zh ? (lang === "zh" ? a.label_zh : a.label_en) : a.label)}</span>`  // 定缺: its label
      : `<span class="an">${actionName(a.kind)}</span>${tilesSVG(actionTiles(a))}`) +
    (KEYS[a.kind] ? `<kbd>${KEYS[a.kind]}</kbd>` : "") + `</button>`).join("");
  if (acts.some(a => a.exchange))
    html += `<span class="hint">${esc(t("hand.hint_exchange", {n: ex.count - ex.picked.length}))}${ex.picked.length ? " · " + esc(t("hand.exchange_picked")) + " " + tilesSVG(ex.picked) : ""}</span>`;
  else if (ex && ex.picked && ex.picked.length && !ex.gave)
    html += `<span class="hint">${esc(t("hand.exchange_wait"))} ${tilesSVG(ex.picked)}</span>`;
  if (ex && ex.gave && st.seat !== null && st.seat !== undefined && !((live.rivers || [])[st.seat] || []).length)
    html += `<span class="hint exchange-done">${esc(t("hand.exchange_gave", {to: st.names[ex.to] || "",
      dir: lang === "zh" ? ex.direction_zh : ex.direction_en, dice: (ex.dice || []).join("+")}))} ${tilesSVG(ex.gave)} · ${esc(t("hand.exchange_got", {from: st.names[ex.from] || ""}))} ${tilesSVG(ex.got)}</span>`;
  if (canDiscard) html += `<span class="hint">${t(matchMedia("(pointer: coarse)").matches ? "hand.hint_discard_touch" : "hand.hint_discard")}</span>`;
  setHTML(document.getElementById("actions"), html);
}

// Why a tile may not be discarded now (the server's legal list does not offer it).
export function whyNot(st, live, k) {
  if (isWild(k, live)) return t(st.rules === "seed000" ? "hand.why_baida" : "hand.why_caishen");
  if (live.declared_ready) return t("hand.why_ready");
  return t("hand.why_other");
}

export function handClick(ev, st, live, {discard, act, message, redraw}) {
  const svg = ev.target.closest("svg[data-i]");
  if (!svg || st.seat === null || st.seat === undefined) return;
  const i = svg.dataset.i === "d" ? "d" : Number(svg.dataset.i);
  const k = i === "d" ? live.last_draw : hand.order[i];
  const legal = live.legal || [];
  const pick = legal.find(a => a.exchange && a.tile === k);  // 换三张: tap a tile to pass it
  if (legal.some(a => a.exchange)) {
    if (pick && act) act(pick); else if (!pick) message(t("hand.why_exchange"), true);
    return;
  }
  const myTurn = legal.some(a => a.kind === "discard");
  if (myTurn) {
    const ok = legal.some(a => a.kind === "discard" && a.tile === k);
    if (!ok) { hand.selected = null; message(whyNot(st, live, k), true); redraw(); return; }
    if (hand.selected === i) { hand.selected = null; discard(k); return; }
    hand.selected = i; message(""); redraw(); return;
  }
  // off turn: tap two tiles to swap them
  if (i === "d") return;
  if (hand.selected !== null && hand.selected !== "d" && hand.selected !== i) {
    if (!swap(hand.selected, i, live)) message(t(st.rules === "seed000" ? "hand.wild_pinned_baida" : "hand.wild_pinned"), false);
    hand.selected = null;
  } else hand.selected = hand.selected === i ? null : i;
  redraw();
}

export function keyAction(ev, live) {
  const acts = live.legal || [];
  if (!acts.length || ev.target.closest("input, select, textarea")) return null;
  const key = ev.key.toLowerCase();
  const by = kinds => acts.find(a => kinds.includes(a.kind));
  if (key === "h" || key === "w") return by(["win"]);
  if (key === "p") return by(["pung"]);
  if (key === "c") return by(["chow"]);
  if (key === "k") return by(["exposed-kong", "concealed-kong", "added-kong"]);
  if (key === " " || key === "escape") return by(["pass"]);
  if (/^[1-9]$/.test(key)) { const claims = acts.filter(a => a.kind !== "discard"); return claims[Number(key) - 1] || null; }
  return null;
}
export {arrange};
