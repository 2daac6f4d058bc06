// The client's state: the last message from the server and the seat's own arrangement of its
// concealed tiles (the server keeps no order). Rules of the arrangement (issue 13, seed 003):
// sorted on the deal; the drawn tile apart at the right until the discard; a tile that joins the
// hand (the drawn tile kept, a claim's leftovers) is put in its sorted place; the wildcard always
// pinned at the left; the player may swap two tiles or sort again (理牌).
export const S = {st: null, live: {}, lastLive: {}, prev: null};
export const hand = {order: [], selected: null, key: null};

export function isWild(k, live) { return live.wild_face !== null && live.wild_face !== undefined && k === live.wild_face; }

export function sortTiles(ts, live) {
  const w = ts.filter(k => isWild(k, live)), rest = ts.filter(k => !isWild(k, live));
  return w.concat(rest.sort((a, b) => a - b));
}

function multisetMinus(a, b) {
  const pool = {};
  b.forEach(k => pool[k] = (pool[k] || 0) + 1);
  const out = [];
  a.forEach(k => { if (pool[k]) pool[k]--; else out.push(k); });
  return out;
}

// Bring the order in line with the server's hand: keep what is still held where it was, put new
// tiles in their sorted places; a new hand (another hand number) starts sorted.
export function reconcile(live, handKey) {
  const all = (live.hand || []).slice();
  const d = live.last_draw;
  if (d !== null && d !== undefined) { const i = all.indexOf(d); if (i >= 0) all.splice(i, 1); }
  if (hand.key !== handKey) {
    hand.key = handKey; hand.order = sortTiles(all, live); hand.selected = null; return;
  }
  const gone = multisetMinus(hand.order, all);     // discarded or melded
  const pool = {};
  gone.forEach(k => pool[k] = (pool[k] || 0) + 1);
  const kept = [];
  hand.order.forEach(k => { if (pool[k]) pool[k]--; else kept.push(k); });
  const added = multisetMinus(all, kept);
  added.sort((a, b) => a - b).forEach(k => insertSorted(kept, k, live));
  if (gone.length || added.length) hand.selected = null;
  hand.order = pinWild(kept, live);
}
function pinWild(order, live) {
  return order.filter(k => isWild(k, live)).concat(order.filter(k => !isWild(k, live)));
}
function insertSorted(order, k, live) {
  if (isWild(k, live)) { order.unshift(k); return; }
  let i = order.findIndex(x => !isWild(x, live) && x > k);
  if (i < 0) i = order.length;
  order.splice(i, 0, k);
}
export function arrange(live) { hand.order = sortTiles(hand.order, live); hand.selected = null; }
export function swap(i, j, live) {
  const o = hand.order;
  if (isWild(o[i], live) || isWild(o[j], live)) return false;  // the wildcard stays pinned left
  [o[i], o[j]] = [o[j], o[i]];
  return true;
}
