// Short sounds made here with Web Audio (no recordings are fetched): draw, discard, claim, win.
// The mute switch is remembered per browser (localStorage "majiang-mute").
let ctx = null;
let muted = localStorage.getItem("majiang-mute") === "1";
export function isMuted() { return muted; }
export function setMuted(m) { muted = m; localStorage.setItem("majiang-mute", m ? "1" : "0"); }

function ac() {
  if (!ctx) { const A = window.AudioContext || window.webkitAudioContext; if (!A) return null; ctx = new A(); }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}
function tone(freq, start, dur, type = "sine", gain = 0.18) {
  const c = ac(); if (!c) return;
  const o = c.createOscillator(), g = c.createGain();
  o.type = type; o.frequency.value = freq;
  const t0 = c.currentTime + start;
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(c.destination);
  o.start(t0); o.stop(t0 + dur + 0.02);
}
function knock(start = 0, gain = 0.35) {  // a tile set down: a short filtered noise burst
  const c = ac(); if (!c) return;
  const n = Math.floor(c.sampleRate * 0.06), buf = c.createBuffer(1, n, c.sampleRate), d = buf.getChannelData(0);
  for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 3);
  const src = c.createBufferSource(), f = c.createBiquadFilter(), g = c.createGain();
  src.buffer = buf; f.type = "bandpass"; f.frequency.value = 1800; f.Q.value = 1.2; g.gain.value = gain;
  src.connect(f).connect(g).connect(c.destination);
  src.start(c.currentTime + start);
}
export function play(kind) {
  if (muted) return;
  try {
    if (kind === "draw") tone(660, 0, 0.08, "triangle", 0.08);
    else if (kind === "discard") { knock(); tone(180, 0, 0.09, "sine", 0.12); }
    else if (kind === "claim") { knock(0, 0.3); tone(392, 0, 0.12, "square", 0.07); tone(523, 0.1, 0.16, "square", 0.07); }
    else if (kind === "kong") { knock(0, 0.3); knock(0.08, 0.3); tone(330, 0, 0.1, "square", 0.07); tone(494, 0.1, 0.2, "square", 0.07); }
    else if (kind === "win") [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.35, "triangle", 0.14));
    else if (kind === "turn") tone(880, 0, 0.06, "sine", 0.06);
  } catch (e) { /* audio unavailable */ }
}
