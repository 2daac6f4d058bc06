// Tiles drawn as SVG: a rounded rectangle with the Chinese name (number above, suit below).
const MJ_NUMS = "一二三四五六七八九";
const MJ_SUITS = ["万", "筒", "条"];
const MJ_HON = ["东", "南", "西", "北", "白", "发", "中"];
const MJ_FLO = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const MJ_WIND = ["东", "南", "西", "北"];
function tileName(t) {
  if (t === null || t === undefined) return "";
  if (t < 27) return MJ_NUMS[t % 9] + MJ_SUITS[Math.floor(t / 9)];
  if (t < 34) return MJ_HON[t - 27];
  if (t < 42) return MJ_FLO[t - 34];
  return "?";
}
function tileColor(t) {
  if (t < 9) return "#b71c1c";
  if (t < 18) return "#0d47a1";
  if (t < 27) return "#1b5e20";
  if (t < 31) return "#212121";
  if (t === 31) return "#0d47a1";
  if (t === 32) return "#1b5e20";
  if (t === 33) return "#b71c1c";
  return "#6a1b9a";
}
function tileSVG(t, opts) {
  opts = opts || {};
  const w = opts.small ? 26 : 38, h = opts.small ? 36 : 52;
  const cls = "tile" + (opts.cls ? " " + opts.cls : "");
  const data = (t === null || t === undefined) ? "" : ` data-tile="${t}"`;
  const title = (t === null || t === undefined) ? "" : `<title>${tileName(t)}</title>`;
  if (t === null || t === undefined || t < 0) {
    return `<svg class="${cls} back" width="${w}" height="${h}" viewBox="0 0 38 52"><rect x="1" y="1" width="36" height="50" rx="5" fill="#2e7d32" stroke="#1b5e20" stroke-width="2"/></svg>`;
  }
  const c = tileColor(t);
  let top, bottom;
  if (t < 27) { top = MJ_NUMS[t % 9]; bottom = MJ_SUITS[Math.floor(t / 9)]; }
  else { top = tileName(t); bottom = ""; }
  const frame = t === 31 ? `<rect x="8" y="9" width="22" height="34" fill="none" stroke="${c}" stroke-width="2"/>` : "";
  const txt = bottom
    ? `<text x="19" y="23" font-size="17" text-anchor="middle" fill="${c}">${top}</text><text x="19" y="44" font-size="15" text-anchor="middle" fill="${c}">${bottom}</text>`
    : (t === 31 ? "" : `<text x="19" y="34" font-size="${t >= 34 ? 18 : 22}" text-anchor="middle" fill="${c}">${top}</text>`);
  return `<svg class="${cls}"${data} width="${w}" height="${h}" viewBox="0 0 38 52">${title}<rect x="1" y="1" width="36" height="50" rx="5" fill="#fffdf5" stroke="#8d6e63" stroke-width="2"/>${frame}${txt}</svg>`;
}
function tilesSVG(ts, opts) { return (ts || []).map(t => tileSVG(t, opts)).join(""); }
function meldSVG(m, opts) {
  return `<span class="meld" title="${m.kind}">${tilesSVG(m.tiles, Object.assign({small: true}, opts || {}))}</span>`;
}
function esc(s) { return String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c])); }
