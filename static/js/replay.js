// The replay of a finished game: steps through the frames the server rendered into the page
// (games.selectors.game_replay_frames: the deal, then the board after every row of the log),
// both hands face up since the game is over. Buttons ⏮ ◀ ▶ ⏭, the keys ← → Home End, a slider
// and the move list jump around; the address keeps `#ply=N` (the board after N rows, 0 = the
// deal) so a shared link opens at that move; the last move is followed by how the game ended,
// in results.js's words, the table's. Cards are drawn by cards.js, like the table's.

import {
  addTexts, t, tn, gettext_noop, ngettext_lazy, formatList, formatNumber, cardName, isRed, rankLabel,
  SUIT_SYMBOL, el, cardFace, cardEmpty, splitMove, fromText, toText, movedCard, payoffContent,
  sideFan, stockContent, centerContent,
} from "./cards.js";
import { endWords } from "./results.js";

addTexts({
  seatName: gettext_noop("Player %(n)s"),
  // Translators: the replay's position: "Move 12 of 80".
  replayPosition: gettext_noop("Move %(n)s of %(total)s"),
  // Translators: the replay's first position, before any move; count is the number of moves in the game.
  replayPositionDeal: ngettext_lazy("The deal (%(count)s move follows)", "The deal (%(count)s moves follow)"),
  replayDealt: gettext_noop("The cards are dealt: %(name)s starts."),
  // Translators: n is the move's number: "12. Bruno played the 5 of clubs from the hand to center stack 2."
  replayPlayed: gettext_noop("%(n)s. %(name)s played %(card)s %(from)s %(to)s."),
  // Translators: n is the move's number; count how many moves were taken back.
  replayTookBack: ngettext_lazy("%(n)s. %(name)s took back a move.", "%(n)s. %(name)s took back %(count)s moves."),
  // Translators: a line of the move list, after the player's name: "Bruno ↶ took back 2".
  logTookBack: gettext_noop("took back %(count)s"),
  replayPayoffLabel: ngettext_lazy(
    "%(name)s's pay-off pile, %(count)s card, %(card)s on top",
    "%(name)s's pay-off pile, %(count)s cards, %(card)s on top",
  ),
  theirPayoffEmpty: gettext_noop("%(name)s's pay-off pile, empty"),
  // Translators: cards is the list of the stack's cards, bottom to top.
  replaySideLabel: gettext_noop("%(name)s's side stack %(n)s: %(cards)s"),
  replaySideEmpty: gettext_noop("%(name)s's side stack %(n)s, empty"),
  replayCenterLabel: ngettext_lazy(
    "Center stack %(n)s, %(count)s card, %(card)s on top",
    "Center stack %(n)s, %(count)s cards, %(card)s on top",
  ),
  replayCenterEmpty: gettext_noop("Center stack %(n)s, empty"),
  stock: ngettext_lazy("Stock, %(count)s card", "Stock, %(count)s cards"),
  // Translators: a hand of the replay: the player's name, then the cards ("5 of clubs, King of hearts") or "no cards".
  replayHand: gettext_noop("%(name)s: %(cards)s"),
  replayHandEmpty: gettext_noop("no cards"),
  replayCopied: gettext_noop("Link copied."),
  replayCopyFailed: gettext_noop("Select the link and copy it."),
  // Translators: read after a move the expert's review marked (shown as "?").
  markMistake: gettext_noop("a mistake, by the expert's review"),
  // Translators: read after a move the expert's review marked (shown as "??").
  markBlunder: gettext_noop("a blunder, by the expert's review"),
});

class Replay {
  constructor(root, frames, result = null, marks = null) {
    this.root = root;
    this.frames = frames;
    this.result = result; // games.selectors.game_result's facts: how the game and its match ended
    this.marks = marks || {}; // replay position -> "mistake" or "blunder" (games.reviews.review_page)
    this.index = 0;
    this.$ = (name) => root.querySelector(`[data-part="${name}"]`);
    this.names = [root.dataset.seat0Name || t("seatName", { n: 1 }), root.dataset.seat1Name || t("seatName", { n: 2 })];
    this.buildLog();
    this.bind();
    this.go(this.fromHash() ?? 0, { replaceHash: true });
  }

  get last() {
    return this.frames.length - 1;
  }

  fromHash() {
    const match = /(?:^#|&)ply=(\d+)/.exec(window.location.hash);
    return match ? Math.min(Number(match[1]), this.last) : null;
  }

  bind() {
    for (const button of this.root.querySelectorAll("[data-step]")) {
      button.addEventListener("click", () => this.step(button.dataset.step));
    }
    this.$("slider").addEventListener("input", (event) => this.go(Number(event.target.value)));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA") && target.type !== "range") return;
      const action = { ArrowLeft: "back", ArrowRight: "forward", Home: "start", End: "end" }[event.key];
      if (!action) return;
      event.preventDefault();
      this.step(action);
    });
    window.addEventListener("hashchange", () => {
      const index = this.fromHash();
      if (index !== null && index !== this.index) this.go(index, { replaceHash: true });
    });
    this.$("copy").addEventListener("click", () => this.copy());
    this.$("share-url").addEventListener("focus", (event) => event.target.select());
  }

  step(action) {
    const next = { start: 0, back: this.index - 1, forward: this.index + 1, end: this.last }[action];
    this.go(next);
  }

  go(index, { replaceHash = false } = {}) {
    this.index = Math.max(0, Math.min(this.last, index));
    const url = new URL(window.location.href);
    url.hash = `ply=${this.index}`;
    if (replaceHash || window.location.hash !== url.hash) window.history.replaceState(null, "", url);
    this.$("share-url").value = url.href;
    this.render();
  }

  async copy() {
    const input = this.$("share-url");
    const note = this.$("copied");
    try {
      await navigator.clipboard.writeText(input.value);
      note.textContent = t("replayCopied");
    } catch {
      input.focus();
      input.select(); // no clipboard here (an insecure page, a refused permission): select it
      note.textContent = t("replayCopyFailed");
    }
  }

  // ---- words --------------------------------------------------------------------------------
  describe(index) {
    const text = this.describeRow(index);
    // After the last row: how the game ended (a resignation or a forfeit comes after it).
    if (index !== this.last || !this.result) return text;
    return `${text} ${endWords({ ...this.result, me: null, names: this.names })}`;
  }

  describeRow(index) {
    const frame = this.frames[index];
    if (frame.kind === "deal") return t("replayDealt", { name: this.names[frame.board.to_move] });
    const name = this.names[frame.seat];
    const n = index;
    if (frame.kind === "undo") return tn("replayTookBack", frame.undoes, { n, name });
    const [src, tgt] = splitMove(frame.move);
    const card = movedCard(frame.move, frame.seat, this.frames[index - 1].board, frame.board);
    return t("replayPlayed", { n, name, card: cardName(card), from: fromText(src), to: toText(tgt) });
  }

  buildLog() {
    const list = this.$("log");
    const items = this.frames.slice(1).map((frame, i) => {
      const index = i + 1;
      const who = el("span", { class: "log-who" }, this.names[frame.seat]);
      let line;
      if (frame.kind === "undo") {
        line = el("span", { class: "log-line" }, who, el("span", { class: "log-path" }, `↶ ${t("logTookBack", { count: frame.undoes })}`));
      } else {
        const [src, tgt] = splitMove(frame.move);
        const card = movedCard(frame.move, frame.seat, this.frames[index - 1].board, frame.board);
        const mini = card
          ? el("span", { class: `mini-card${isRed(card) ? " is-red" : ""}`, "aria-hidden": "true" }, rankLabel(card[0]), SUIT_SYMBOL[card[1]])
          : el("span", { class: "mini-card is-unknown", "aria-hidden": "true" }, "?");
        line = el(
          "span",
          { class: "log-line" },
          who,
          mini,
          el("span", { class: "sr-only" }, cardName(card)),
          el("span", { class: "log-path" }, `${fromText(src, true)} → ${toText(tgt, true)}`),
        );
        const mark = this.marks[String(index)];
        if (mark) {
          line.append(
            el("span", { class: `log-mark is-${mark}`, "aria-hidden": "true" }, mark === "blunder" ? "??" : "?"),
            el("span", { class: "sr-only" }, t(mark === "blunder" ? "markBlunder" : "markMistake")),
          );
        }
      }
      const item = el(
        "li",
        { class: `log-entry${frame.kind === "undo" ? " log-undo" : ""}`, "data-index": index },
        el("span", { class: "log-ply" }, `${formatNumber(index)}.`),
        el("button", { type: "button", class: "link-button", "aria-label": this.describe(index) }, line),
      );
      item.querySelector("button").addEventListener("click", () => this.go(index));
      return item;
    });
    list.replaceChildren(...items);
  }

  // ---- drawing ------------------------------------------------------------------------------
  render() {
    const frame = this.frames[this.index];
    const board = frame.board;
    this.renderSeat("top", 1, board);
    this.renderSeat("bottom", 0, board);
    this.renderCenter(board);
    this.$("slider").value = String(this.index);
    this.$("position").textContent =
      this.index === 0 ? tn("replayPositionDeal", this.last) : t("replayPosition", { n: this.index, total: this.last });
    this.$("move").textContent = this.describe(this.index);
    this.root.querySelector("[data-step=start]").disabled = this.index === 0;
    this.root.querySelector("[data-step=back]").disabled = this.index === 0;
    this.root.querySelector("[data-step=forward]").disabled = this.index === this.last;
    this.root.querySelector("[data-step=end]").disabled = this.index === this.last;
    for (const item of this.$("log").children) {
      const current = Number(item.dataset.index) === this.index;
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      if (current) item.scrollIntoView({ block: "nearest" });
    }
  }

  renderSeat(area, seat, board) {
    const box = this.root.querySelector(`[data-area=${area}]`);
    const player = board.players[seat];
    const name = this.names[seat];
    const toMove = !board.outcome && board.to_move === seat;
    box.classList.toggle("is-to-move", toMove);
    const hand = box.querySelector("[data-part=hand]");
    const cards = player.hand || [];
    hand.replaceChildren(...(cards.length ? cards.map((code) => cardFace(code)) : [cardEmpty()]));
    hand.setAttribute("data-cards", cards.join(" "));
    hand.setAttribute("aria-label", t("replayHand", { name, cards: cards.length ? formatList(cards.map(cardName)) : t("replayHandEmpty") }));

    const top = player.payoff_top;
    const payoffLabel = top ? tn("replayPayoffLabel", player.payoff_size, { name, card: cardName(top) }) : t("theirPayoffEmpty", { name });
    box.querySelector("[data-part=payoff]").replaceChildren(this.slot("slot-payoff", payoffLabel, payoffContent(top, player.payoff_size)));
    box.querySelector("[data-part=sides]").replaceChildren(
      ...player.sides.map((side, i) => {
        const key = `s${i + 1}`;
        const label = side.length
          ? t("replaySideLabel", { name, n: i + 1, cards: formatList(side.map(cardName)) })
          : t("replaySideEmpty", { name, n: i + 1 });
        return this.slot("slot-side", label, [sideFan(side, key)]);
      }),
    );
  }

  renderCenter(board) {
    this.$("stock").replaceChildren(this.slot("slot-stock", tn("stock", board.stock_size), stockContent(board.stock_size)));
    this.$("centers").replaceChildren(
      ...board.center.map((stack, i) => {
        const n = i + 1;
        const top = stack.cards[stack.cards.length - 1];
        const label = top ? tn("replayCenterLabel", stack.cards.length, { n, card: cardName(top) }) : t("replayCenterEmpty", { n });
        return this.slot("slot-center", label, centerContent(stack, `c${n}`));
      }),
    );
  }

  slot(extra, label, content) {
    return el("div", { class: `slot ${extra}`, role: "img", "aria-label": label }, content);
  }
}

function start() {
  const root = document.querySelector("[data-replay]");
  const script = document.getElementById("replay-frames");
  if (!root || !script) return;
  let frames = [];
  try {
    frames = JSON.parse(script.textContent);
  } catch {
    frames = [];
  }
  if (!frames.length) return;
  let result = null;
  try {
    result = JSON.parse(document.getElementById("replay-result").textContent);
  } catch {
    result = null;
  }
  let marks = null;
  try {
    marks = JSON.parse(document.getElementById("replay-marks").textContent) || null;
  } catch {
    marks = null;
  }
  window.spiteReplay = new Replay(root, frames, result, marks);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

export { Replay };
