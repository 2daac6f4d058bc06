// The replay page: step through a stored record (every hand is shown open: the game is over).
(function () {
  const rec = JSON.parse(document.getElementById("record").textContent);
  const events = rec.events;
  const names = (events.find(e => e.type === "start_game") || {}).names || rec.header.names;
  function idx(txt) { return {m: 0, p: 9, s: 18, z: 27, f: 34}[txt[1]] + Number(txt[0]) - 1; }
  function removeOne(arr, t) { const i = arr.indexOf(t); if (i >= 0) arr.splice(i, 1); }
  function stateAt(n) {
    let st = null, scores = [0, 0, 0, 0], note = "";
    for (let i = 0; i < n && i < events.length; i++) {
      const e = events[i];
      const a = e.actor;
      switch (e.type) {
        case "start_kyoku":
          st = {hands: e.tehais.map(h => h.map(idx)), melds: [[], [], [], []], rivers: [[], [], [], []],
                flowers: [[], [], [], []], dealer: e.oya, wind: e.bakaze, hand: e.hand, wild: null, result: null};
          note = `Hand ${e.hand + 1} dealt`; break;
        case "wild": st.wild = e.wild; note = `Wildcard ${e.wild}`; break;
        case "flower": removeOne(st.hands[a], idx(e.pai)); st.flowers[a].push(idx(e.pai)); note = `${names[a]} sets aside ${e.pai}`; break;
        case "tsumo": st.hands[a].push(idx(e.pai)); note = `${names[a]} draws`; break;
        case "dahai": removeOne(st.hands[a], idx(e.pai)); st.rivers[a].push(idx(e.pai)); note = `${names[a]} discards ${e.pai}`; break;
        case "chi": case "pon": case "daiminkan": {
          e.consumed.forEach(t => removeOne(st.hands[a], idx(t)));
          const r = st.rivers[e.target]; if (r.length && r[r.length - 1] === idx(e.pai)) r.pop();
          st.melds[a].push(e.consumed.map(idx).concat([idx(e.pai)]).sort((x, y) => x - y));
          note = `${names[a]} ${e.type === "chi" ? "chows" : e.type === "pon" ? "pungs" : "kongs"} ${e.pai}`; break;
        }
        case "ankan": e.consumed.forEach(t => removeOne(st.hands[a], idx(t))); st.melds[a].push(e.consumed.map(idx)); note = `${names[a]} concealed kong`; break;
        case "kakan": {
          removeOne(st.hands[a], idx(e.pai));
          const m = st.melds[a].find(m => m.length === 3 && m.every(t => t === idx(e.pai)));
          if (m) m.push(idx(e.pai)); note = `${names[a]} adds a kong ${e.pai}`; break;
        }
        case "hora": st.result = `${names[a]} wins on ${e.pai} (${e.value}+${e.bonus}): ${e.patterns.map(p => p[0] + " " + p[1] + "×" + p[2]).join(", ")}`; note = st.result; break;
        case "ryukyoku": st.result = "Drawn hand 荒庄"; note = st.result; break;
        case "end_kyoku": scores = e.scores; note = `Hand over: ${e.deltas.join(" / ")}`; break;
        case "end_game": scores = e.scores; note = "Game over"; break;
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
    b.innerHTML = [0, 1, 2, 3].map(s => `<div class="rseat"><div class="name">${"东南西北"[(s - st.dealer + 4) % 4]} ${esc(names[s])} · ${scores[s]}</div>` +
      `<div>${tilesSVG(st.hands[s].slice().sort((x, y) => x - y), {small: true})} ${st.melds[s].map(m => `<span class="meld">${tilesSVG(m, {small: true})}</span>`).join("")} ${tilesSVG(st.flowers[s], {small: true})}</div>` +
      `<div class="river">${tilesSVG(st.rivers[s], {small: true})}</div></div>`).join("") +
      (st.result ? `<p class="result-line">${esc(st.result)}</p>` : "");
  }
  const go = n => { step = Math.max(0, Math.min(events.length, n)); render(); };
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(step - 1);
  document.getElementById("next").onclick = () => go(step + 1);
  document.getElementById("last").onclick = () => go(events.length);
  document.addEventListener("keydown", e => { if (e.key === "ArrowRight") go(step + 1); if (e.key === "ArrowLeft") go(step - 1); });
  render();
})();
