// The table's WebSocket: connects, reconnects with back-off, and sends the client's messages
// (action, auto_win, continue, back). Every state message goes to onState, errors to onError.
export function connect(tableId, {onState, onError, onStatus}) {
  let ws = null, retry = 0, closed = false;
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/tables/${tableId}`);
    ws.onopen = () => { retry = 0; onStatus(true); };
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") onState(msg);
      else if (msg.type === "error") onError(msg.message);
    };
    ws.onclose = () => {
      if (closed) return;
      onStatus(false);
      retry = Math.min(retry + 1, 5);
      setTimeout(open, 500 * retry);
    };
  }
  open();
  const send = obj => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj)); };
  return {
    action: a => send({type: "action", action: {kind: a.kind, tile: a.tile ?? null, low: a.low ?? null}}),
    autoWin: on => send({type: "auto_win", on}),
    cont: () => send({type: "continue"}),
    back: () => send({type: "back"}),
    close: () => { closed = true; ws && ws.close(); },
  };
}
