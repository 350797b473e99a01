// The ranked queue page (/leagues/<slug>/queue/): one WebSocket to /ws/leagues/<slug>/queue/
// (docs/protocol.md, "The ranked queue socket"). Opening it joins the league's queue; leaving
// the page closes it, which leaves the queue. Shows how many wait and the rating range searched;
// on `paired` goes to the table. A `paired` frame arriving on the per-user socket (notify.js's
// `spite:me` events) does the same. The socket is socket.js's (reconnecting with backoff, not
// after a refusal). No build step: an ES module.

import {
  addTexts,
  formatDuration,
  formatNumber,
  gettext_noop,
  ngettext_lazy,
  t,
  template,
  withPerson,
} from "./cards.js";
import { Socket } from "./socket.js";

addTexts({
  // Translators: time is how long you have waited, minutes:seconds ("1:05").
  queueWaiting: gettext_noop("Waiting for an opponent… (%(time)s)"),
  queueReconnecting: gettext_noop("Connection lost: joining the queue again…"),
  queuePaired: gettext_noop("Opponent found: %(name)s. Going to the table…"),
  queuePairedPlain: gettext_noop("Opponent found. Going to the table…"),
  queueCount: ngettext_lazy(
    "%(count)s player waiting in this league's queue (you included).",
    "%(count)s players waiting in this league's queue (you included).",
  ),
  // Translators: points is the rating difference searched now ("±150").
  queueWindow: gettext_noop(
    "Looking for an opponent within ±%(points)s of your rating; the range widens the longer you wait.",
  ),
});

/** A whole sentence with its number in a `<span data-part=…>` (the page shows the count large). */
function withNumber(text, value, part) {
  const [before, ...rest] = text.split("%(count)s");
  if (!rest.length) return [text]; // a translation that leaves the count to its words
  const span = document.createElement("span");
  span.dataset.part = part;
  span.textContent = formatNumber(value);
  return [before, span, rest.join(formatNumber(value))];
}

// Close codes after which reconnecting cannot help (docs/protocol.md).
const FINAL_CLOSES = [4401, 4403, 4404];

class Queue {
  constructor(root) {
    this.root = root;
    this.status = root.querySelector('[data-part="status"]');
    this.countLine = root.querySelector('[data-part="count"]');
    this.windowLine = root.querySelector('[data-part="window"]');
    this.done = false; // paired or refused: nothing more to wait for
    this.joinedAt = null;
    this.timer = window.setInterval(() => this.tick(), 1000);
    document.addEventListener("spite:me", (event) => {
      if (event.detail && event.detail.type === "paired") this.paired(event.detail);
    });
    window.addEventListener("pagehide", () => this.stop());
    this.socket = new Socket(root.dataset.queueWs, {
      onFrame: (frame) => this.receive(frame),
      onStatus: (status) => this.connection(status),
      finalCodes: FINAL_CLOSES,
      baseDelay: 1000,
      maxDelay: 15000,
    });
  }

  connection(status) {
    if (status === "open") this.root.dataset.state = "open";
    if (status !== "closed" && status !== "gone") return;
    if (!this.done) this.root.dataset.state = "closed"; // a refusal or a pairing stays shown
    if (status === "closed") this.say(t("queueReconnecting")); // "gone": no retry is coming
  }

  finish() {
    this.done = true;
    window.clearInterval(this.timer);
    this.socket.stop(); // the next close is final
  }

  stop() {
    this.finish();
    // Leaving the page leaves the queue: close now rather than when the page is torn down.
    if (this.socket.ws) this.socket.ws.close(1000);
  }

  say(text) {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  receive(frame) {
    switch (frame.type) {
      case "queued":
        this.joinedAt = Date.parse(frame.joined_at);
        this.root.dataset.state = "waiting";
        this.counts(frame);
        this.tick();
        break;
      case "queue":
        this.counts(frame);
        break;
      case "paired":
        this.paired(frame);
        break;
      case "error":
        if (frame.code !== "bad_message") this.finish(); // refused: the server closes the socket
        this.root.dataset.state = "refused";
        this.say(frame.message || frame.code || ""); // the server wrote it in the page's language
        break;
      default:
        break;
    }
  }

  counts(frame) {
    this.countLine.replaceChildren(...withNumber(template("queueCount", frame.waiting), frame.waiting, "waiting"));
    this.countLine.hidden = false;
    if (typeof frame.window === "number") {
      this.windowLine.textContent = t("queueWindow", { points: frame.window });
      this.windowLine.hidden = false;
    }
  }

  tick() {
    if (this.done || this.joinedAt === null) return;
    const seconds = Math.max(0, (Date.now() - this.joinedAt) / 1000);
    this.status.textContent = t("queueWaiting", { time: formatDuration(seconds) });
  }

  paired(frame) {
    if (this.done && this.root.dataset.state === "paired") return;
    this.finish();
    this.root.dataset.state = "paired";
    // The opponent's name, with the bot badge when a bot account plays (cards.js's withPerson).
    if (frame.opponent) this.status.replaceChildren(...withPerson(template("queuePaired"), frame.opponent));
    else this.say(t("queuePairedPlain"));
    if (frame.url) window.location.assign(frame.url);
  }
}

const root = document.querySelector("[data-queue]");
if (root) new Queue(root);
