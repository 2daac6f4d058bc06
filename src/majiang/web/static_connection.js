// The table's WebSocket: connects, reconnects with back-off, and sends the client's messages
// (action, auto_win, continue, back). Every state message goes to onState, errors to onError.
// A table that does not exist (any more) answers {"type": "gone"} and closes with 4404: then the
// page stops retrying and says so (onGone). A socket whose session ended (log-out, revoked) is closed
// with 4401: the page stops too and says so (onEnded). A socket refused for too many open ones (4429)
// retries at the slowest pace. Back-off: 0.5 s, 1 s, 2 s, ... at most 8 s, with jitter.
export function connect(tableId, {onState, onError, onStatus, onGone, onEnded, onChat}) {
  let ws = null, retry = 0, closed = false;
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/tables/${tableId}`);
    ws.onopen = () => { retry = 0; onStatus(true); };
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") onState(msg);
      else if (msg.type === "error") onError(msg.message);
      else if (msg.type === "chat") { if (onChat) onChat(msg); }
      else if (msg.type === "gone") { closed = true; if (onGone) onGone(); }
    };
    ws.onclose = ev => {
      if (closed) return;
      if (ev.code === 4404) { closed = true; if (onGone) onGone(); return; }
      if (ev.code === 4401) { closed = true; if (onEnded) onEnded(ev.reason); return; }
      if (ev.code === 4429) retry = 5;
      onStatus(false);
      retry = Math.min(retry + 1, 5);
      const delay = Math.min(8000, 250 * 2 ** retry) * (0.75 + Math.random() * 0.5);
      setTimeout(open, delay);
    };
  }
  open();
  const send = obj => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); };
  return {
    action: a => send({type: "action", action: {kind: a.kind, tile: a.tile ?? null, low: a.low ?? null}}),
    autoWin: on => send({type: "auto_win", on}),
    cont: () => send({type: "continue"}),
    back: () => send({type: "back"}),
    chat: line => send(Object.assign({type: "chat"}, line)),  // {text} or {phrase}
    mute: (seat, on) => send({type: "mute", seat, on}),
    freeText: on => send({type: "free_text", on}),
    close: () => { closed = true; ws && ws.close(); },
  };
}
