// Drawing the table: four seats round a centre in their real places (the viewer at the bottom),
// each seat's river in front of it (rows of six, in order, the latest marked), melds with the
// claimed tile turned toward its giver, flowers, and the centre: round and hand, winds, dealer,
// wall count, dice, the wildcard and its indicator, the acting seat's clock.
import {t} from "./i18n.js";
import {esc, meldSVG, tileSVG, tilesSVG} from "./tiles.js";
import {AVATARS} from "./avatars.js";

const POS = ["bottom", "right", "top", "left"];
// Assign markup only when it changed: a state update redraws just what moved.
export function setHTML(el, html) { if (el && el._html !== html) { el.innerHTML = html; el._html = html; } }
export function boardHTML() {
  return `<div id="board">
    <div class="opp opp-top" id="opp-2"></div><div class="opp opp-left" id="opp-3"></div>
    <div class="opp opp-right" id="opp-1"></div>
    <div id="pond">${[2, 3, 1, 0].map(k => `<div class="rcell rc-${POS[k]}"><div class="river r-${POS[k]}" id="river-${k}"></div></div>`).join("")}
      <div id="centre"></div></div>
    <div class="opp opp-bottom" id="opp-0"></div></div>`;
}

export function windOf(seat, dealer) { return (seat - dealer + 4) % 4; }
const WIND_KEYS = ["wind.e", "wind.s", "wind.w", "wind.n"];
const WIND_SHORT = ["wind_short.e", "wind_short.s", "wind_short.w", "wind_short.n"];

function dieSVG(n) {
  const P = {1: [[10, 10]], 2: [[5, 5], [15, 15]], 3: [[5, 5], [10, 10], [15, 15]], 4: [[5, 5], [15, 5], [5, 15], [15, 15]],
    5: [[5, 5], [15, 5], [10, 10], [5, 15], [15, 15]], 6: [[5, 5], [15, 5], [5, 10], [15, 10], [5, 15], [15, 15]]}[n] || [];
  return `<svg class="die" viewBox="0 0 20 20" role="img" aria-label="${n}"><rect x="0.5" y="0.5" width="19" height="19" rx="4" fill="#fff" stroke="#999"/>` +
    P.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.1" fill="${n === 1 || n === 4 ? "#c62828" : "#222"}"/>`).join("") + `</svg>`;
}

export function seatPlate(st, live, s, me) {
  const w = windOf(s, live.dealer ?? 0);
  const active = live.turn === s;
  const dealer = s === live.dealer ? `<span class="dealer" title="${t("table.dealer")}">${t("table.dealer_short")}${live.dealer_streak ? "+" + live.dealer_streak : ""}</span>` : "";
  const bot = st.bots && st.bots[s] ? `<span class="bot">${t("table.bot")}</span>` : "";
  const you = s === st.seat ? `<span class="you">${t("table.you")}</span>` : "";
  // issue 30: a winner who has left the play (血战到底), and the seat's revealed decisions (定缺: 缺 m)
  const out = live.out && live.out[s] ? `<span class="out">${t("table.out")}</span>` : "";
  const dec = live.decided && live.decided[s] ? Object.values(live.decided[s]) : [];
  const decided = dec.length ? `<span class="decided" title="${t("table.decided")}">${esc(t("table.decided") + " " + dec.join(" "))}</span>` : "";
  return `<div class="plate${active ? " active" : ""}${out ? " left" : ""}" data-seat="${s}"><span class="wind" title="${t(WIND_KEYS[w])}">${t(WIND_SHORT[w])}</span>` +
    `${AVATARS[(st.avatars || [])[s]] || ""}<span class="pname" title="${esc(st.bots && st.bots[s] ? t("bot." + st.bots[s]) : st.names[s] || "")}">${esc(st.names[s] || "—")}</span>${you}${dealer}${bot}${decided}${out}` +
    `<span class="score" data-seat="${s}">${st.scores ? st.scores[s] : 0}</span></div>`;
}

function meldsHTML(st, live, s, fresh) {
  const ms = (live.melds && live.melds[s]) || [];
  let html = ms.map((m, i) => {
    const giver = m.offer ? (s - m.offer + 4) % 4 : null;
    return meldSVG(m, {giverName: giver !== null ? st.names[giver] : "", fresh: fresh && i === ms.length - 1});
  }).join("");
  const hk = (live.hidden_kongs && live.hidden_kongs[s]) || 0;
  for (let i = 0; i < hk; i++) html += `<span class="meld" data-kind="concealed-kong">${tilesSVG([null, null, null, null])}</span>`;
  const fl = (live.flowers && live.flowers[s]) || [];
  if (fl.length) html += `<span class="flowers">${tilesSVG(fl)}</span>`;
  return html;
}

export function drawBoard(st, live, prev) {
  const me = st.seat === null || st.seat === undefined ? 0 : st.seat;
  const prevRivers = (prev && prev.rivers) || [[], [], [], []];
  const prevMelds = (prev && prev.melds) || [[], [], [], []];
  for (let k = 0; k < 4; k++) {
    const s = (me + k) % 4;
    const el = document.getElementById("opp-" + k);
    const fresh = ((live.melds || [])[s] || []).length > (prevMelds[s] || []).length;
    if (k === 0) {
      setHTML(el, seatPlate(st, live, s, me) + `<div class="melds">${meldsHTML(st, live, s, fresh)}</div>` +
        (st.seat === null || st.seat === undefined ? `<div class="backs">${tilesSVG(Array((live.hand_counts || [])[s] || 0).fill(null))}</div>` : ""));
    } else {
      const n = (live.hand_counts || [])[s] || 0;
      setHTML(el, seatPlate(st, live, s, me) + `<div class="backs">${tilesSVG(Array(n).fill(null))}</div>` +
        `<div class="melds">${meldsHTML(st, live, s, fresh)}</div>`);
    }
    const river = (live.rivers || [])[s] || [];
    const grew = river.length > (prevRivers[s] || []).length;
    const lastSeat = live.discarder;
    setHTML(document.getElementById("river-" + k), river.map((x, i) => {
      const last = i === river.length - 1 && s === lastSeat;
      return tileSVG(x, {cls: (last ? "last" : "") + (grew && i === river.length - 1 ? " fresh" : "")});
    }).join(""));
  }
  drawCentre(st, live, me);
}

export function drawCentre(st, live, me) {
  const el = document.getElementById("centre");
  if (!live || live.round === undefined) { setHTML(el, `<div class="c-wait">${t("table.waiting")}</div>`); return; }
  const round = t(WIND_KEYS[((live.prevalent_wind ?? 27) - 27 + 4) % 4]);
  const handNo = (live.hand_number ?? 0) + 1;
  const edges = [0, 1, 2, 3].map(k => {
    const s = (me + k) % 4;
    return `<span class="edge e-${POS[k]}${live.turn === s ? " on" : ""}">${t(WIND_SHORT[windOf(s, live.dealer ?? 0)])}</span>`;
  }).join("");
  const wild = live.wild_face !== null && live.wild_face !== undefined
    ? `<div class="c-wild"><span>${t(st.rules === "seed000" ? "table.wildcard_baida" : "table.wildcard")}</span>${tileSVG(live.wild_face, {cls: "c-tile"})}` +
      // the indicator only when it differs from the wildcard's face (Wenzhou's 翻牌 is the 财神 itself)
      (live.indicator !== null && live.indicator !== undefined && live.indicator !== live.wild_face
        ? `<span class="ind">${t("table.indicator")}</span>${tileSVG(live.indicator, {cls: "c-tile"})}` : "") + `</div>` : "";
  const bao = (live.bao || []).length ? `<div class="c-wild"><span>${t("table.bao")}</span>${tilesSVG(live.bao, {cls: "c-tile"})}</div>` : "";
  const dice = (live.dice || []).length ? `<div class="c-dice">${live.dice.map(dieSVG).join("")}</div>` : "";
  setHTML(el, edges + `<div class="c-in"><div class="c-round">${t("table.round_hand", {round, hand: handNo})}` +
    (st.max_hands ? ` / ${st.max_hands}` : "") + `</div>` +
    `<div class="c-wall">${t("table.wall")} <b id="wall">${live.wall_live ?? 0}</b></div>` + dice + wild + bao +
    `<div class="c-clock" id="timer"></div></div>`);
}
