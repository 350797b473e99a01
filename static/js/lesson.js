// The lesson's table (docs/learn.md): the live table's own component, table.js's Table, with
// another way to the server. Each move is posted to the step's address with the moves already
// kept; the answer holds the frames the game socket would send (a state, or an error with the
// engine's reason) and the lesson's word on the move: on the way, done, or not the point (the
// move is not kept, and the word says why). The board shows what to click by the hint's glow.

import { addTexts, t, gettext_noop, cardName, splitMove, toText } from "./cards.js";
import { Table } from "./table.js";

addTexts({
  // Translators: what the lesson's board shows to do: "Play 3 of hearts to center stack 1."
  lessonShows: gettext_noop("Play %(card)s %(to)s."),
  lessonOffline: gettext_noop("The lesson could not reach the site. Check your connection and try again."),
});

function csrfToken() {
  const found = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
}

/** What table.js calls its socket: `send` posts instead, and the answer comes back as frames. */
class LessonLink {
  constructor(table, url) {
    this.table = table;
    this.url = url;
    this.moves = [];
    this.isOpen = true;
    this.stopped = false;
  }

  send(frame) {
    if (frame.type === "sync") this.post({ moves: this.moves });
    else if (frame.type === "move") this.post({ moves: this.moves, move: frame.move, id: frame.id });
    else return false;
    return true;
  }

  stop() {}

  async post(body) {
    let answer;
    try {
      const response = await fetch(this.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(body),
      });
      answer = await response.json();
    } catch {
      this.table.clearPending();
      this.table.render();
      this.table.showError(t("lessonOffline"));
      return;
    }
    for (const frame of answer.frames || []) {
      if (frame.type === "state") this.moves = (frame.last_moves || []).map((m) => m.move);
      this.table.receive(frame);
    }
    if (answer.verdict) this.table.lessonSays(answer.verdict);
  }
}

class LessonTable extends Table {
  connect() {
    this.lessonDone = false; // a step done before may be played again
    this.socket = new LessonLink(this, this.root.dataset.moveUrl);
    this.setConnection("open");
  }

  async apply(frame, options) {
    const shows = frame.lesson && frame.lesson.shows;
    this.hint = shows && !this.lessonDone ? { version: frame.version, move: shows, text: null } : null;
    return super.apply(frame, options);
  }

  canAct() {
    return !this.lessonDone && super.canAct();
  }

  hintWords() {
    if (!this.hint || !this.hint.move) return "";
    const [src, tgt] = splitMove(this.hint.move);
    return t("lessonShows", { card: cardName(this.cardOfSource(src)), to: toText(tgt) });
  }

  /** The lesson's word on a move: {kind: "on" | "done" | "nudge", words}. */
  lessonSays(verdict) {
    const word = this.root.querySelector("[data-part=lesson-word]");
    if (verdict.kind === "nudge") {
      this.clearPending();
      this.selected = null;
    }
    word.dataset.kind = verdict.kind;
    word.textContent = verdict.words || "";
    const box = this.root.querySelector("[data-part=lesson]");
    box.dataset.word = verdict.words ? verdict.kind : "";
    if (verdict.kind === "done") {
      this.lessonDone = true;
      this.hint = null;
      box.dataset.state = "done";
      this.root.querySelector("[data-part=lesson-next]").hidden = false;
    }
    this.render();
  }
}

function start() {
  const root = document.querySelector("[data-table][data-lesson]");
  if (!root) return;
  const initial = JSON.parse(document.getElementById("initial-state").textContent);
  window.spiteTable = new LessonTable(root, initial);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
