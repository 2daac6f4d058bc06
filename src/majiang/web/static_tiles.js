// The tile set, drawn by us as one SVG symbol sheet (installed once per page): dots as circles,
// bamboo as sticks (the 1 as a bird), characters with 萬, winds and dragons in their traditional
// glyphs (White as a framed blank), the eight flowers, and the face-down back. Every tile on the
// page is a tiny <svg> that <use>s its symbol, so it stays crisp at any size. A Chinese page is in
// simplified characters throughout (issue 31), its tiles included: 万, 东南西北, 发, 兰.
import {t, lang} from "./i18n.js";

const W = 40, H = 54;
const NUM = "一二三四五六七八九";
const FACES = lang === "zh" ? {wan: "万", winds: "东南西北", fa: "发", flowers: "春夏秋冬梅兰竹菊"}
  : {wan: "萬", winds: "東南西北", fa: "發", flowers: "春夏秋冬梅蘭竹菊"};
const RED = "#c62828", BLUE = "#1a4f9c", GREEN = "#1f7a3a", INK = "#1d1d1d";

const DOTS = {
  1: [[20, 27]], 2: [[20, 15], [20, 39]], 3: [[11, 13], [20, 27], [29, 41]],
  4: [[12, 15], [28, 15], [12, 39], [28, 39]], 5: [[11, 13], [29, 13], [20, 27], [11, 41], [29, 41]],
  6: [[13, 11], [27, 11], [13, 27], [27, 27], [13, 43], [27, 43]],
  7: [[9, 9], [20, 14], [31, 19], [13, 32], [27, 32], [13, 44], [27, 44]],
  8: [[13, 9], [27, 9], [13, 21], [27, 21], [13, 33], [27, 33], [13, 45], [27, 45]],
  9: [[10, 11], [20, 11], [30, 11], [10, 27], [20, 27], [30, 27], [10, 43], [20, 43], [30, 43]],
};
const DOT_COLOR = n => (n === 1 ? RED : n % 2 ? BLUE : GREEN);

const STICKS = {
  2: [[20, 15], [20, 39]], 3: [[20, 15], [13, 39], [27, 39]], 4: [[13, 15], [27, 15], [13, 39], [27, 39]],
  5: [[11, 15], [29, 15], [20, 27, 1], [11, 39], [29, 39]],
  6: [[10, 15], [20, 15], [30, 15], [10, 39], [20, 39], [30, 39]],
  7: [[20, 11, 1], [10, 28], [20, 28], [30, 28], [10, 44], [20, 44], [30, 44]],
  8: [[8, 15], [16, 15], [24, 15], [32, 15], [8, 39], [16, 39], [24, 39], [32, 39]],
  9: [[10, 11], [20, 11, 1], [30, 11], [10, 27], [20, 27, 1], [30, 27], [10, 43], [20, 43, 1], [30, 43]],
};

function body() {
  return `<rect x="1.5" y="2.5" width="37" height="51" rx="5" fill="#1e6b3a"/>` +
    `<rect x="1" y="1" width="38" height="50" rx="5" fill="#fdfaf0" stroke="#b8ab8c" stroke-width="1"/>`;
}
function glyph(ch, color, size, y) {
  return `<text x="20" y="${y}" font-size="${size}" text-anchor="middle" fill="${color}" ` +
    `font-family="'Noto Serif CJK SC','Noto Serif CJK TC','Noto Sans CJK SC',serif" font-weight="700">${ch}</text>`;
}
function stick(x, y, red) {
  const c = red ? RED : GREEN;
  return `<rect x="${x - 2.2}" y="${y - 7}" width="4.4" height="14" rx="2" fill="${c}"/>` +
    `<line x1="${x - 2.2}" x2="${x + 2.2}" y1="${y}" y2="${y}" stroke="#fdfaf0" stroke-width="0.9"/>`;
}
function bird() {  // 一索: a small bird of our own drawing
  return `<ellipse cx="21" cy="29" rx="9" ry="7" fill="${GREEN}"/>` +
    `<path d="M12 27 L4 20 L7 31 Z" fill="${BLUE}"/>` +
    `<circle cx="29" cy="20" r="5" fill="${RED}"/><circle cx="30.5" cy="19" r="1.1" fill="#fff"/>` +
    `<path d="M33.5 20 L38 21.5 L33.5 23 Z" fill="#e0a100"/>` +
    `<path d="M17 36 L15 44 M23 36 L24 44" stroke="${RED}" stroke-width="1.6"/>` +
    `<path d="M15 27 Q21 23 26 29" stroke="#fdfaf0" stroke-width="1.2" fill="none"/>`;
}
function face(k) {
  if (k < 9) return glyph(NUM[k], INK, 17, 23) + glyph(FACES.wan, RED, 18, 45);
  if (k < 18) {
    const n = k - 8;
    if (n === 1) return `<circle cx="20" cy="27" r="13" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<circle cx="20" cy="27" r="8" fill="${RED}"/><circle cx="20" cy="27" r="3" fill="#fdfaf0"/>`;
    const r = n <= 4 ? 6.5 : n <= 6 ? 5.5 : 4.8;
    return DOTS[n].map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${n === 5 && i === 2 ? RED : DOT_COLOR(n)}" stroke-width="2.2"/>` +
      `<circle cx="${x}" cy="${y}" r="${r * 0.4}" fill="${n === 5 && i === 2 ? RED : DOT_COLOR(n)}"/>`).join("");
  }
  if (k < 27) {
    const n = k - 17;
    if (n === 1) return bird();
    return STICKS[n].map(([x, y, red]) => stick(x, y, red)).join("");
  }
  if (k < 31) return glyph(FACES.winds[k - 27], INK, 26, 36);
  if (k === 31) return `<rect x="8" y="9" width="24" height="34" rx="2" fill="none" stroke="${BLUE}" stroke-width="2.4"/>` +
    `<rect x="11.5" y="12.5" width="17" height="27" rx="1" fill="none" stroke="${BLUE}" stroke-width="1"/>`;
  if (k === 32) return glyph(FACES.fa, GREEN, 26, 36);
  if (k === 33) return glyph("中", RED, 28, 37);
  const f = k - 34;
  const col = f < 4 ? [GREEN, RED, "#b8860b", BLUE][f] : [RED, "#7b1fa2", GREEN, "#b8860b"][f - 4];
  return `<text x="34" y="11" font-size="8" text-anchor="middle" fill="${col}" font-family="sans-serif">${f % 4 + 1}</text>` +
    glyph(FACES.flowers[f], col, 22, 34) +
    `<path d="M8 44 Q20 38 32 44" stroke="${col}" stroke-width="1.5" fill="none"/>`;
}
function back() {
  return `<rect x="1.5" y="2.5" width="37" height="51" rx="5" fill="#0f4d29"/>` +
    `<rect x="1" y="1" width="38" height="50" rx="5" fill="#2c8a4f" stroke="#1b5e34"/>` +
    `<rect x="5" y="5" width="30" height="42" rx="3" fill="none" stroke="#7fc79a" stroke-width="0.8"/>`;
}

export function installSprite() {
  if (document.getElementById("mj-sprite")) return;
  let s = "";
  for (let k = 0; k < 42; k++) s += `<symbol id="mjt-${k}" viewBox="0 0 ${W} ${H}">${body()}${face(k)}</symbol>`;
  s += `<symbol id="mjt-back" viewBox="0 0 ${W} ${H}">${back()}</symbol>`;
  const div = document.createElement("div");
  div.innerHTML = `<svg id="mj-sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>${s}</defs></svg>`;
  document.body.prepend(div.firstChild);
}

export function tileName(k) {
  if (k === null || k === undefined || k < 0) return t("tile.back");
  return t("tile." + k);
}

// One tile. opts: cls (extra classes), rot (0, 90, 180, 270: drawn turned), i (data-i), badge (text
// pinned on the tile, e.g. 财 for the wildcard), label (aria-label override).
export function tileSVG(k, opts = {}) {
  const hidden = k === null || k === undefined || k < 0;
  const id = hidden ? "back" : k;
  const side = opts.rot === 90 || opts.rot === 270;
  const vb = side ? `0 0 ${H} ${W}` : `0 0 ${W} ${H}`;
  let g = `<use href="#mjt-${id}"/>`;
  if (opts.rot === 90) g = `<g transform="translate(${H} 0) rotate(90)">${g}</g>`;
  else if (opts.rot === 270) g = `<g transform="translate(0 ${W}) rotate(-90)">${g}</g>`;
  else if (opts.rot === 180) g = `<g transform="rotate(180 ${W / 2} ${H / 2})">${g}</g>`;
  if (opts.badge) g += `<circle cx="${side ? H - 9 : W - 8}" cy="9" r="8" fill="#d32f2f"/><text x="${side ? H - 9 : W - 8}" y="13" font-size="11" text-anchor="middle" fill="#fff" font-weight="700">${opts.badge}</text>`;
  const cls = "tile" + (side ? " side" : "") + (hidden ? " back" : "") + (opts.cls ? " " + opts.cls : "");
  const data = hidden ? "" : ` data-tile="${k}"`;
  const di = opts.i !== undefined ? ` data-i="${opts.i}"` : "";
  const label = opts.label || tileName(k);
  return `<svg class="${cls}"${data}${di} viewBox="${vb}" role="img" aria-label="${label}">${g}</svg>`;
}
export function tilesSVG(ts, opts = {}) { return (ts || []).map(k => tileSVG(k, opts)).join(""); }

// A meld as laid on the table: the claimed tile turned sideways, on the giver's side (left player:
// first, opposite: middle, right player: last); a concealed kong shows its two ends face down.
export function meldSVG(m, opts = {}) {
  const tiles = m.tiles.slice();
  let html = "";
  if (m.kind === "concealed-kong" || m.hidden) {
    html = tiles.map((k, i) => tileSVG(i === 0 || i === 3 ? null : k, opts)).join("");
  } else {
    let ci = m.claimed === null || m.claimed === undefined ? -1 : tiles.indexOf(m.claimed);
    if (ci >= 0) {
      const claimed = tiles.splice(ci, 1)[0];
      const pos = m.offer === 1 ? 0 : m.offer === 2 ? 1 : tiles.length;
      tiles.splice(pos, 0, claimed);
      ci = pos;
    }
    html = tiles.map((k, i) => tileSVG(k, Object.assign({}, opts, i === ci ? {rot: 90, cls: "claimed"} : {}))).join("");
  }
  const giver = opts.giverName ? `<span class="giver">${esc(opts.giverName)}</span>` : "";
  return `<span class="meld${opts.fresh ? " fresh" : ""}" data-kind="${m.kind}">${html}${giver}</span>`;
}

export function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}
// "5m" / "7z" / "1f" (record notation) to a tile index
export function tileIndex(txt) {
  const n = Number(txt[0]), s = txt[1];
  return {m: 0, p: 9, s: 18, z: 27, f: 34}[s] + n - 1;
}
