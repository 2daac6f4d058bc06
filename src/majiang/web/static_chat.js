// Table chat (对谈): quick phrases and short free text, a bubble at the speaker's seat for a few
// seconds, a log the player opens, mute per player, and the creator's free-text switch. Players and
// spectators each hear only their own side (the server decides who hears what; this page shows
// what it is sent). Every text goes in as text (textContent), never as markup.
import {t, personName} from "./i18n.js";
import {AVATARS} from "./avatars.js";

export const PHRASES = ["hi", "hurry", "nice", "sorry", "thanks", "wait", "lucky", "again", "good_game", "oops", "close", "bye"];
const MAX = 60, BUBBLE_MS = 4000;
const POS = ["bottom", "right", "top", "left"];

let conn = null, state = null, unread = 0;
const lines = [];

function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function initChat(connection) {
  conn = connection;
  const box = el("div", {id: "chat", class: "chat"});
  box.innerHTML = `
    <button type="button" id="chat-toggle" class="chat-toggle" aria-expanded="false" aria-controls="chat-panel"></button>
    <div id="chat-panel" class="chat-panel" hidden role="dialog" aria-label="">
      <div class="chat-head"><b id="chat-title"></b><span id="chat-audience" class="hint"></span>
        <button type="button" id="chat-close" class="chat-close" aria-label="×">×</button></div>
      <ol id="chat-log" class="chat-log" aria-live="polite"></ol>
      <div id="chat-phrases" class="chat-phrases"></div>
      <form id="chat-form" class="chat-form" autocomplete="off"><input id="chat-text" maxlength="${MAX}" enterkeyhint="send">
        <button id="chat-send" class="primary" type="submit"></button></form>
      <div id="chat-people" class="chat-people"></div>
      <label id="chat-free" class="switch" hidden><input type="checkbox" id="chat-free-on"> <span></span></label>
    </div>`;
  document.body.append(box);
  document.getElementById("chat-toggle").textContent = t("chat.open");
  document.getElementById("chat-title").textContent = t("chat.title");
  document.getElementById("chat-panel").setAttribute("aria-label", t("chat.title"));
  document.getElementById("chat-send").textContent = t("chat.send");
  document.getElementById("chat-text").placeholder = t("chat.placeholder", {n: MAX});
  document.querySelector("#chat-free span").textContent = t("chat.free_text");
  const ph = document.getElementById("chat-phrases");
  for (const id of PHRASES) ph.append(el("button", {type: "button", class: "phrase", "data-phrase": id}, t("phrase." + id)));
  box.addEventListener("click", ev => {
    const b = ev.target.closest("button");
    if (!b) return;
    if (b.id === "chat-toggle") return open(document.getElementById("chat-panel").hidden);
    if (b.id === "chat-close") return open(false);
    if (b.dataset.phrase) { conn.chat({phrase: b.dataset.phrase}); return; }
    if (b.dataset.mute !== undefined) conn.mute(Number(b.dataset.mute), b.getAttribute("aria-pressed") !== "true");
  });
  document.getElementById("chat-form").addEventListener("submit", ev => {
    ev.preventDefault();
    const i = document.getElementById("chat-text");
    const text = i.value.trim();
    if (text) { conn.chat({text}); i.value = ""; }
  });
  document.getElementById("chat-free-on").addEventListener("change", ev => conn.freeText(ev.target.checked));
  // a long name is cut on a phone: a tap on a seat's name shows it whole (a second tap cuts it again)
  document.addEventListener("click", ev => {
    const n = ev.target.closest(".plate .pname");
    if (n) n.classList.toggle("full");
  });
  drawToggle();
}

function open(on) {
  const p = document.getElementById("chat-panel");
  p.hidden = !on;
  document.getElementById("chat-toggle").setAttribute("aria-expanded", on ? "true" : "false");
  document.body.classList.toggle("chat-open", on);
  if (on) { unread = 0; drawToggle(); const log = document.getElementById("chat-log"); log.scrollTop = log.scrollHeight; }
}

function drawToggle() {
  const b = document.getElementById("chat-toggle");
  if (b) b.textContent = t("chat.open") + (unread ? ` (${unread})` : "");
}

// the state: who may be muted, whether free text is on, whether the viewer is the creator
export function chatState(st) {
  state = st;
  const c = st.chat || {free_text: true, muted: [], audience: "spectators"};
  const player = c.audience === "players";
  document.getElementById("chat-audience").textContent = player ? t("chat.to_players") : t("chat.to_spectators");
  const form = document.getElementById("chat-form");
  form.hidden = !c.free_text;
  const free = document.getElementById("chat-free");
  free.hidden = !st.creator;
  document.getElementById("chat-free-on").checked = !!c.free_text;
  const people = document.getElementById("chat-people");
  people.replaceChildren();
  const me = player ? (st.seat ?? st.place) : null;
  if (player) {
    (st.names || []).forEach((n, i) => {
      const human = n && !(st.bots && st.bots[i]) && !(st.places && st.places[i] && (st.places[i].bot || st.places[i].empty));
      if (!human || i === me) return;
      const muted = (c.muted || []).includes(i);
      people.append(el("button", {type: "button", class: "mute-person", "data-mute": String(i), "aria-pressed": muted ? "true" : "false"},
        (muted ? t("chat.unmute") : t("chat.mute")) + " " + personName(n)));
    });
  }
}

export function onChat(msg) {
  lines.push(msg);
  const log = document.getElementById("chat-log");
  if (!log) return;
  const li = el("li", {class: "chat-line " + (msg.audience || "")});
  li.append(el("span", {class: "who"}, personName(msg.name) + ": "), el("span", {class: "text"}, msg.text));
  log.append(li);
  while (log.children.length > 100) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
  if (msg.history) return;
  if (document.getElementById("chat-panel").hidden) { unread++; drawToggle(); }
  bubble(msg);
}

// a bubble beside the speaker's seat plate (players), or over the chat button (spectators)
function bubble(msg) {
  const st = state;
  let host = null;
  if (msg.seat !== null && msg.seat !== undefined && st) {
    if (st.status === "open") host = document.querySelectorAll("#seating .places li")[msg.seat] || null;
    else {
      const me = st.seat === null || st.seat === undefined ? 0 : st.seat;
      host = document.getElementById("opp-" + ((msg.seat - me + 4) % 4));
    }
  }
  const b = el("div", {class: "bubble" + (host ? " at-" + (st.status === "open" ? "list" : POS[(msg.seat - (st.seat ?? 0) + 4) % 4]) : " floating"), role: "status"});
  b.append(el("span", {class: "text"}, msg.text));
  (host || document.getElementById("chat")).append(b);
  setTimeout(() => b.remove(), BUBBLE_MS);
}

export function avatarHTML(id) { return AVATARS[id] || ""; }
