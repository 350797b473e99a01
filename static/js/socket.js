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
//     onStatus: (status, info) => …,    // "connecting", "open", "closed" (retrying) or "gone";
//                                       // info: {attempt, retryAt} (retryAt: ms, or null)
//     finalCodes: [4401],               // close codes after which there is nothing to retry
//     baseDelay: 500, maxDelay: 15000,  // ms: the first retry's wait, and the cap (while the
//     frontMaxDelay: 3000,               // page is in front, this lower cap)
//     banner: true,                     // the page's reconnect banner tells of this socket
//   });                                 // ("main": of this one alone, the page's others left
//                                       // out; false: not)
//   socket.send({ type: "move", … });   // false when not connected (nothing is queued)
//   socket.drop();                      // close the connection as a network drop would
//   socket.retryNow();                  // reconnecting: try at once, not after the wait
//   socket.stop();                      // no more retries: the next close is "gone"
//
// Coming back fast: a socket waiting to reconnect tries at once when the browser says it is
// online again or the tab comes to the front; while the tab is in front the wait is capped at
// `frontMaxDelay`; when the browser says it went offline, the connection is dropped at once
// (a dead connection can take minutes to notice otherwise).
//
// The reconnect banner: while a socket of the page is reconnecting, one line says so —
// "Connection lost. Reconnecting… (attempt 2, next try in 3 s)", with a "Retry now" button —
// and it goes when the socket is open again. When a socket is the page's "main" one (the
// table's game socket), the banner speaks of it alone: a drop of another (the per-user
// /ws/me/) is no alarm there. The banner is the page's element with `data-socket-banner` when
// there is one (the table places it), otherwise a line this module adds at the top of the page.
//
// Signed out: a socket closed with 4401 (its user was signed out: the token revoked, the
// password changed, a log out elsewhere, the account deleted; docs/protocol.md) never
// reconnects, whatever its `finalCodes`, and the banner says "You were signed out" instead.

import { addTexts, gettext_noop, t } from "./cards.js";

addTexts({
  // Translators: the reconnect banner; n is the attempt's number, s the seconds until it starts.
  socketWaiting: gettext_noop("Connection lost. Reconnecting… (attempt %(n)s, next try in %(s)s s)"),
  // Translators: the reconnect banner; n is the attempt's number.
  socketTrying: gettext_noop("Connection lost. Reconnecting… (attempt %(n)s)"),
  // Translators: the reconnect banner's button: reconnect at once instead of waiting.
  socketRetryNow: gettext_noop("Retry now"),
  // Translators: the banner once a socket was closed because its user was signed out (a log out
  // or a password change elsewhere, the API token revoked, the account deleted).
  socketSignedOut: gettext_noop("You were signed out. Reload the page to go on."),
});

/** The close code of a socket whose user was signed out (core/sockets.py): never retried. */
export const CLOSE_SIGNED_OUT = 4401;

export class Socket {
  constructor(path, { onFrame, onOpen = () => {}, onStatus = () => {}, finalCodes = [], baseDelay = 1000, maxDelay = 30000, frontMaxDelay = 3000, banner = true } = {}) {
    this.path = path;
    this.onFrame = onFrame;
    this.onOpen = onOpen;
    this.onStatus = onStatus;
    this.finalCodes = new Set(finalCodes);
    this.baseDelay = baseDelay;
    this.maxDelay = maxDelay;
    this.frontMaxDelay = Math.min(frontMaxDelay, maxDelay);
    this.retryTimer = null;
    this.ws = null;
    this.retries = 0; // failed connections since the last open one: the attempt under way
    this.retryAt = null; // when the next attempt starts (ms since the epoch), while waiting
    this.status = "connecting";
    this.stopped = false;
    this.signedOut = false; // closed with CLOSE_SIGNED_OUT
    if (banner) Banner.add(this, banner === "main");
    window.addEventListener("online", () => this.retryNow());
    window.addEventListener("offline", () => this.drop());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
    this.connect();
  }

  get isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Reconnecting: the connection was lost (or never made) and another attempt is coming. */
  get reconnecting() {
    return !this.stopped && this.retries > 0 && this.status !== "open";
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status, { attempt: this.retries, retryAt: this.retryAt });
    Banner.render();
  }

  connect() {
    if (!this.path || !("WebSocket" in window) || this.stopped) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    this.retryAt = null;
    this.setStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${window.location.host}${this.path}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.retries = 0;
      this.setStatus("open");
      this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (event) => this.closed(ws, event.code));
  }

  closed(ws, code) {
    if (this.ws !== ws) return;
    this.ws = null;
    if (code === CLOSE_SIGNED_OUT) this.signedOut = true;
    if (this.stopped || this.signedOut || this.finalCodes.has(code)) {
      this.stopped = true;
      this.setStatus("gone");
      return;
    }
    this.retry();
  }

  retry() {
    const cap = document.visibilityState === "visible" ? this.frontMaxDelay : this.maxDelay;
    const delay = Math.min(cap, this.baseDelay * 2 ** this.retries) * (0.75 + Math.random() * 0.5);
    this.retries += 1;
    this.retryAt = Date.now() + delay;
    this.setStatus("closed");
    window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  /** Waiting to reconnect: try now (the browser is online again, the tab came to the front,
   * or the player pressed "Retry now"). */
  retryNow() {
    if (this.stopped || this.ws || this.status !== "closed") return;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  send(frame) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Lose the connection as a network drop would: the socket reconnects after its backoff. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    ws.close(4000, "dropped"); // the server sees a close; this page does not wait for its echo
    this.closed(ws, 1006);
  }

  stop() {
    this.stopped = true;
    Banner.render();
  }
}

// The page's one reconnect banner, for every Socket that asked for it — or, once a "main"
// socket asked, for that one alone.
const Banner = {
  sockets: [],
  main: null,
  node: null,
  timer: null,

  add(socket, main) {
    if (main) this.main = socket;
    this.sockets.push(socket);
  },

  element() {
    if (this.node && this.node.isConnected) return this.node;
    this.node = document.querySelector("[data-socket-banner]");
    if (!this.node && document.body) {
      this.node = document.createElement("p");
      this.node.className = "socket-banner socket-banner-page";
      this.node.dataset.socketBanner = "";
      this.node.setAttribute("role", "status");
      this.node.hidden = true;
      document.body.prepend(this.node);
    }
    if (this.node && !this.node.querySelector("[data-socket-text]")) {
      const text = document.createElement("span");
      text.dataset.socketText = "";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "socket-retry";
      button.textContent = t("socketRetryNow");
      button.addEventListener("click", () => {
        const socket = this.reconnecting();
        if (socket) socket.retryNow();
      });
      this.node.replaceChildren(text, button);
    }
    return this.node;
  },

  /** The socket the banner speaks of: the main one, or any, that is reconnecting. */
  reconnecting() {
    return (this.main ? [this.main] : this.sockets).find((s) => s.reconnecting) || null;
  },

  render() {
    if (this.sockets.some((s) => s.signedOut)) {
      this.renderSignedOut();
      return;
    }
    const socket = this.reconnecting();
    const node = socket || this.node ? this.element() : null;
    if (!node) return;
    const line = node.querySelector("[data-socket-text]");
    if (!socket) {
      node.hidden = true;
      line.textContent = "";
      delete node.dataset.attempt;
      window.clearInterval(this.timer);
      this.timer = null;
      return;
    }
    const waiting = socket.status === "closed" && socket.retryAt !== null;
    const seconds = waiting ? Math.max(0, Math.ceil((socket.retryAt - Date.now()) / 1000)) : 0;
    const text = waiting ? t("socketWaiting", { n: socket.retries, s: seconds }) : t("socketTrying", { n: socket.retries });
    if (line.textContent !== text) line.textContent = text;
    node.dataset.attempt = String(socket.retries);
    node.hidden = false;
    if (!this.timer) this.timer = window.setInterval(() => this.render(), 500); // the countdown
  },

  /** A socket of the page was closed because its user was signed out: say so, for good. */
  renderSignedOut() {
    window.clearInterval(this.timer);
    this.timer = null;
    const node = this.element();
    if (!node) return;
    node.querySelector("[data-socket-text]").textContent = t("socketSignedOut");
    node.querySelector(".socket-retry").hidden = true;
    node.dataset.signedOut = "";
    delete node.dataset.attempt;
    node.hidden = false;
  },
};
