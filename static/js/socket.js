// One WebSocket that stays up: it connects to a path of this site, parses JSON frames, sends
// JSON frames, and when the connection drops it connects again after a capped, jittered
// backoff (so a restarted server is not met by every tab at once). The database is the truth
// (docs/protocol.md): a page asks for a `sync` in `onOpen`, on every (re)connection.
// Used by table.js (the game socket), notify.js (/ws/me/) and queue.js (the ranked queue).
// No build step: an ES module.
//
//   const socket = new Socket("/ws/games/41/", {
//     onFrame: (frame) => …,            // every JSON object the server sends
//     onOpen: () => socket.send({ type: "sync" }),
//     onStatus: (status) => …,          // "connecting", "open", "closed" (retrying) or "gone"
//     finalCodes: [4401],               // close codes after which there is nothing to retry
//     baseDelay: 500, maxDelay: 15000,  // ms: the first retry's wait, and the cap
//   });
//   socket.send({ type: "move", … });   // false when not connected (nothing is queued)
//   socket.stop();                      // no more retries: the next close is "gone"

export class Socket {
  constructor(path, { onFrame, onOpen = () => {}, onStatus = () => {}, finalCodes = [], baseDelay = 1000, maxDelay = 30000 } = {}) {
    this.path = path;
    this.onFrame = onFrame;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.finalCodes = new Set(finalCodes);
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.ws = null;
    this.retries = 0;
    this.stopped = false;
    this.connect();
  }

  get isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  connect() {
    if (!this.path || !("WebSocket" in window) || this.stopped) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    this.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${window.location.host}${this.path}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retries = 0;
      this.onStatus("open");
      this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || this.finalCodes.has(event.code)) {
        this.stopped = true;
        this.onStatus("gone");
        return;
      }
      this.onStatus("closed");
      this.retry();
    });
  }

  retry() {
    const delay = Math.min(this.maxDelay, this.baseDelay * 2 ** this.retries) * (0.75 + Math.random() * 0.5);
    this.retries += 1;
    window.setTimeout(() => this.connect(), delay);
  }

  send(frame) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  stop() {
    this.stopped = true;
  }
}
