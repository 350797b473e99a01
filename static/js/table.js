// The live table of Spite & Malice: draws the engine's view, lets the player pick a card and a
// place for it (click, drag or keyboard), and talks to the server over one WebSocket
// (docs/protocol.md). It never decides legality: the view's `legal_moves` says which places
// light up, and the server answers every attempt. No build step, no framework.

// Cards, piles and move texts come from cards.js, which the replay page shares.
import {
  addTexts, t, tn, gettext_noop, ngettext_lazy, formatList, formatNumber, SUIT_SYMBOL, rankLabel, rankNameAt,
  cardName, isRed, el, botBadge, cardFace, cardBack, cardEmpty, splitMove, fromText, toText, movedCard,
  payoffContent, sideFan, stockContent, centerContent,
} from "./cards.js";
import { Socket } from "./socket.js";
import { TableClock } from "./clock.js";
import { gameTitle, gameLine, matchLine } from "./results.js";

// Texts: every word the table shows lives here (the cards' own words in cards.js), marked for
// makemessages and translated through Django's JavaScript catalog when shown (cards.js's t/tn).
addTexts({
  you: gettext_noop("You"),
  seatName: gettext_noop("Player %(n)s"),
  // places (read by screen readers)
  inYourHand: gettext_noop("%(card)s in your hand"),
  yourPayoff: ngettext_lazy("Your pay-off pile, %(count)s card, %(card)s on top", "Your pay-off pile, %(count)s cards, %(card)s on top"),
  yourPayoffEmpty: gettext_noop("Your pay-off pile, empty"),
  theirPayoff: ngettext_lazy(
    "%(name)s's pay-off pile, %(count)s card, %(card)s on top",
    "%(name)s's pay-off pile, %(count)s cards, %(card)s on top",
  ),
  theirPayoffEmpty: gettext_noop("%(name)s's pay-off pile, empty"),
  yourSide: gettext_noop("Your side stack %(n)s"),
  theirSide: gettext_noop("%(name)s's side stack %(n)s"),
  // Translators: stack is "Your side stack 2" or "Bruno's side stack 2".
  sideEmpty: gettext_noop("%(stack)s, empty"),
  // Translators: stack is "Your side stack 2" or "Bruno's side stack 2"; cards lists its cards, bottom to top; top is the top card's name.
  sideCards: ngettext_lazy("%(stack)s, %(count)s card: %(cards)s; %(top)s on top", "%(stack)s, %(count)s cards: %(cards)s; %(top)s on top"),
  centerEmpty: gettext_noop("Center stack %(n)s, empty, needs an Ace"),
  // Translators: at and next are ranks' names ("Queen", "7"); next may be "nothing (complete)"; card is the top card's name.
  centerAt: ngettext_lazy(
    "Center stack %(n)s, %(count)s card, stands at %(at)s, needs %(next)s; top card %(card)s",
    "Center stack %(n)s, %(count)s cards, stands at %(at)s, needs %(next)s; top card %(card)s",
  ),
  // Translators: a King on top of a center stack, card is its name: "King of hearts, a King standing for 7".
  centerKingCard: gettext_noop("%(card)s, a King standing for %(rank)s"),
  // Translators: what a complete center stack needs next.
  centerFull: gettext_noop("nothing (complete)"),
  stock: ngettext_lazy("Stock, %(count)s card", "Stock, %(count)s cards"),
  theirHand: ngettext_lazy("%(name)s's hand, %(count)s card", "%(name)s's hand, %(count)s cards"),
  handEmpty: gettext_noop("Your hand is empty"),
  // Translators: label is a place's description, for the place picked.
  pickable: gettext_noop("%(label)s (picked)"),
  // Translators: label is a place's description.
  litTarget: gettext_noop("%(label)s: you can place the picked card here"),
  // turn and status
  yourTurn: gettext_noop("Your turn"),
  yourTurnHint: gettext_noop("Pick a card, then the place it goes. A card put on one of your side stacks ends your turn."),
  theirTurn: gettext_noop("%(name)s's turn"),
  botThinking: gettext_noop("%(name)s is playing…"),
  spectating: gettext_noop("You are watching this game."),
  gameOverShort: gettext_noop("Game over"),
  gameNumber: gettext_noop("Game %(n)s"),
  // Translators: a player's match score and the score that wins the match: "12/50".
  scoreOf: gettext_noop("%(score)s/%(target)s"),
  // connection
  connConnecting: gettext_noop("Connecting…"),
  // Translators: the connection's state: connected.
  connOpen: gettext_noop("Live"),
  connClosed: gettext_noop("Reconnecting…"),
  connGone: gettext_noop("Disconnected"),
  // moves
  // Translators: "Bruno played the 5 of clubs from the hand to center stack 2."
  played: gettext_noop("%(name)s played %(card)s %(from)s %(to)s."),
  // Translators: said to screen readers when a card is picked; count is how many places it may go to.
  picked: ngettext_lazy("%(card)s picked. %(count)s place lights up; Escape cancels.", "%(card)s picked. %(count)s places light up; Escape cancels."),
  pickedNone: gettext_noop("%(card)s picked. No place lights up; Escape cancels."),
  pickCancelled: gettext_noop("Pick cancelled."),
  nowYourTurn: gettext_noop("Your turn."),
  sending: gettext_noop("Sending…"),
  queuedMove: gettext_noop("Your move goes as soon as the connection is back."),
  logEmpty: gettext_noop("No moves yet."),
  // resign
  // Translators: count is the cards left in your pay-off pile, which the opponent scores.
  resignGameQ: ngettext_lazy(
    "Resign this game? %(name)s scores the %(count)s card left in your pay-off pile.",
    "Resign this game? %(name)s scores the %(count)s cards left in your pay-off pile.",
  ),
  resignMatchQ: gettext_noop("Resign the whole match? %(name)s wins it."),
  // undo, abort, rematch, spectators
  tookBack: ngettext_lazy("%(name)s took back a move.", "%(name)s took back %(count)s moves."),
  youTookBack: ngettext_lazy("You took back a move.", "You took back %(count)s moves."),
  // Translators: a line of the move list, after the player's name: "Bruno ↶ took back 2".
  logTookBack: gettext_noop("took back %(count)s"),
  // Translators: read by screen readers after a move of the list that was taken back.
  logUndone: gettext_noop("(taken back)"),
  resignTitle: gettext_noop("Resign?"),
  resignYes: gettext_noop("Yes, resign"),
  abortTitle: gettext_noop("Abort the match?"),
  abortYes: gettext_noop("Yes, abort"),
  abortQ: gettext_noop("Abort this match? It ends at once with no result for either player."),
  // Translators: how many people watch the game.
  spectators: ngettext_lazy("%(count)s watching", "%(count)s watching"),
  rematch: gettext_noop("Rematch"),
  // Translators: the rematch button against a bot.
  playAgain: gettext_noop("Play again"),
  rematchOfferedByYou: gettext_noop("Rematch offered: waiting for %(name)s…"),
  // Translators: name is the opponent's name, or "You".
  rematchOfferedToYou: gettext_noop("%(name)s offers a rematch."),
  // Translators: name is the opponent's name, or "You".
  rematchDeclined: gettext_noop("%(name)s declined the rematch."),
  rematchDeclinedByYou: gettext_noop("You declined the rematch."),
  rematchStarting: gettext_noop("The rematch starts…"),
  rematchReady: gettext_noop("The rematch has started."),
  // errors
  // Translators: message is the server's reason, already translated.
  errorPrefix: gettext_noop("Refused: %(message)s"),
  // Translators: the table's message after the server asked to slow down; s is whole seconds.
  throttledMove: gettext_noop("Too many moves at once: your move goes again in %(s)s s."),
  // Translators: the table's message after the server asked to slow down; s is whole seconds.
  throttled: gettext_noop("Too many messages at once: trying again in %(s)s s."),
  // Translators: code is a machine error code, "stale_version".
  errorGeneric: gettext_noop("Something went wrong (%(code)s)."),
  notFound: gettext_noop("This game does not exist."),
  // Translators: said when a player picks a card while the other player is still playing.
  waitYourTurn: gettext_noop("Wait for your turn: %(name)s is playing."),
  // Translators: the page's title in the browser's tab when it is your turn (before the game's title).
  titleYourTurn: gettext_noop("Your turn"),
  // Translators: asked before a move is sent, when the player chose to confirm moves: "Play the 7 of hearts to center stack 2?"
  confirmMove: gettext_noop("Play %(card)s %(to)s?"),
  // hints (a casual game against a bot)
  hintThinking: gettext_noop("The expert is thinking…"),
  // Translators: the expert's hint, shown on the table: "Hint: play the 7 of hearts to center stack 2."
  hintMove: gettext_noop("Hint: play %(card)s %(to)s."),
});

function newId() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------
class Table {
  constructor(root, initial) {
    this.root = root;
    this.wsPath = root.dataset.wsPath;
    this.lobbyUrl = root.dataset.lobbyUrl || "/play/";
    this.gameUrl = root.dataset.gameUrl || "/play/games/0/";
    const seat = root.dataset.seat;
    this.seat = seat === "" || seat === undefined || seat === "None" ? null : Number(seat);
    this.state = null;
    this.selected = null; // {src, key}
    this.pending = null; // {id, move, version, sent}: the move awaiting its answer
    this.log = new Map(); // ply -> {ply, seat, move, card}
    this.gameEnd = null;
    this.matchEnd = null;
    this.rematch = null; // {state, by, match, game}
    this.spectators = 0;
    this.replayUrl = root.dataset.replayUrl || "";
    this.queue = [];
    this.busy = false;
    this.socket = null;
    this.noAnimateMove = null;
    this.drag = null;
    this.suppressClickUntil = 0;
    this.syncAskedFor = -1;
    this.nextGameSyncs = 0;
    this.reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.baseTitle = document.title;
    this.favicon = document.querySelector('link[rel="icon"]');
    this.faviconPlain = this.favicon ? this.favicon.getAttribute("href") : null;
    this.faviconTurn = root.dataset.faviconTurn || null;
    this.settings = new TableSettings(root);
    this.sounds = new Sounds(() => this.settings.get("sound"));
    this.awaitingConfirm = null; // {src, tgt}: a move shown for confirmation (a touch screen's option)
    this.hint = null; // {version, move, text}: the expert's hint for this version (move null while it thinks)

    this.$ = (name) => root.querySelector(`[data-part="${name}"]`);
    this.turnClock = new TableClock(root, { name: (seat) => this.name(seat), me: () => this.me });
    this.bindControls();
    this.watchFeltSize();
    if (initial && initial.view) this.apply(initial, { animate: false });
    this.connect();
  }

  /** The felt's size in --felt-w and --felt-h, which table.css sizes the cards from. */
  watchFeltSize() {
    const felt = this.$("felt");
    if (!felt || !("ResizeObserver" in window)) return;
    new ResizeObserver(([entry]) => {
      felt.style.setProperty("--felt-w", `${entry.contentRect.width}px`);
      felt.style.setProperty("--felt-h", `${entry.contentRect.height}px`);
    }).observe(felt);
  }

  // ---- derived facts ------------------------------------------------------------------------
  get view() {
    return this.state ? this.state.view : null;
  }

  get me() {
    if (this.state && this.state.you !== undefined) return this.state.you;
    return this.seat;
  }

  get isPlayer() {
    return this.me === 0 || this.me === 1;
  }

  get bottomSeat() {
    return this.isPlayer ? this.me : 0;
  }

  get gameOver() {
    const s = this.state;
    if (!s) return false;
    return Boolean(s.view.outcome) || (s.game && s.game.status && s.game.status !== "active") || Boolean(this.gameEnd);
  }

  get matchOver() {
    const s = this.state;
    return Boolean(this.matchEnd) || Boolean(s && s.match && s.match.status && s.match.status !== "active");
  }

  get legal() {
    return new Set(this.view && !this.gameOver ? this.view.legal_moves : []);
  }

  /** The "bot" badge for a seat held by a bot account (an engine bot's name says it already). */
  seatBadge(seat) {
    const seats = this.state && this.state.match && this.state.match.seats;
    const info = seats && seats[seat];
    if (!info || !info.is_bot || info.kind === "bot") return null;
    return botBadge();
  }

  name(seat) {
    const seats = this.state && this.state.match && this.state.match.seats;
    if (seats && seats[seat] && seats[seat].name) return seats[seat].name;
    const fallback = this.root.dataset[`seat${seat}Name`];
    return fallback || t("seatName", { n: seat + 1 });
  }

  isBot(seat) {
    const seats = this.state && this.state.match && this.state.match.seats;
    return Boolean(seats && seats[seat] && seats[seat].kind === "bot");
  }

  legalTargets(src) {
    const out = new Set();
    for (const move of this.legal) {
      const [s, tgt] = splitMove(move);
      if (s === src) out.add(tgt);
    }
    return out;
  }

  // ---- socket -------------------------------------------------------------------------------
  connect() {
    this.socket = new Socket(this.wsPath, {
      onFrame: (frame) => this.receive(frame),
      onOpen: () => {
        this.resendPending();
        this.sync();
      },
      onStatus: (status) => {
        this.keepPending(status);
        this.setConnection(status);
      },
      baseDelay: 500,
      maxDelay: 15000,
      banner: "main", // the page's reconnect banner (data-socket-banner) speaks of this socket
    });
  }

  // ---- reconnection: a move is never lost nor played twice --------------------------------
  // A move whose answer has not come when the connection drops (it may or may not have been
  // applied), or that was made while the socket was down, is sent again on reconnection with
  // the same id: the server applies an id once and answers a repeat with the state.

  /** On a drop the pending move waits for the next connection; when none is coming it goes. */
  keepPending(status) {
    if (!this.pending) return;
    if (status === "gone") this.clearPending();
    else if (status === "closed" && this.pending.sent) {
      window.clearTimeout(this.pendingTimer);
      this.pending.sent = false;
      this.render();
    }
  }

  /** Send the pending move (again), with its id, and wait for its answer a while. */
  resendPending() {
    const pending = this.pending;
    if (!pending || pending.sent) return;
    pending.sent = true;
    if (!this.send({ type: "move", move: pending.move, version: pending.version, id: pending.id })) pending.sent = false;
    if (!pending.sent) return; // not sent, or the connection dropped as it went: sent on the next
    window.clearTimeout(this.pendingTimer);
    this.pendingTimer = window.setTimeout(() => {
      if (this.pending === pending) {
        this.clearPending();
        this.sync();
      }
    }, 8000);
    this.render();
  }

  send(frame) {
    return Boolean(this.socket && this.socket.send(frame));
  }

  sync() {
    this.send({ type: "sync" });
  }

  setConnection(kind) {
    const node = this.$("conn");
    if (!node) return;
    node.dataset.state = kind;
    const text = { connecting: "connConnecting", open: "connOpen", closed: "connClosed", gone: "connGone" }[kind];
    node.querySelector("[data-part=conn-text]").textContent = t(text);
  }

  receive(frame) {
    switch (frame.type) {
      case "state":
      case "game_end":
      case "match_end":
        this.enqueue(frame);
        break;
      case "error":
        this.onError(frame);
        break;
      case "rematch":
        this.onRematch(frame);
        break;
      case "spectators":
        this.spectators = frame.count;
        this.renderSpectators();
        break;
      case "presence":
        this.turnClock.onPresence(frame);
        break;
      case "hint":
        this.onHint(frame);
        break;
      default:
        break;
    }
  }

  // Frames are handled one at a time so that each opponent move gets its animation.
  enqueue(frame) {
    this.queue.push(frame);
    if (!this.busy) this.pump();
  }

  async pump() {
    this.busy = true;
    try {
      while (this.queue.length) {
        const frame = this.queue.shift();
        try {
          if (frame.type === "state") await this.apply(frame, { animate: this.queue.length < 3 });
          else if (frame.type === "game_end") this.onGameEnd(frame);
          else if (frame.type === "match_end") this.onMatchEnd(frame);
        } catch (error) {
          console.error(error); // a drawing bug must not stop later frames
        }
      }
    } finally {
      this.busy = false;
    }
  }

  // ---- state --------------------------------------------------------------------------------
  async apply(frame, { animate }) {
    const old = this.state;
    if (old && frame.game && old.game && frame.game.id !== old.game.id) {
      // Another game's frame on this page: only the page for that game draws it.
      return;
    }
    if (old && frame.version < old.version) return; // stale
    if (old && frame.version === old.version && JSON.stringify(frame) === JSON.stringify(old)) return; // nothing new
    const step = old ? frame.version - old.version : null;
    if (old && step > 1 && this.syncAskedFor !== frame.version) {
      this.syncAskedFor = frame.version;
      this.sync(); // a gap: the view below is current, but ask the truth once more
    }
    const last = frame.last_moves && frame.last_moves.length ? frame.last_moves[frame.last_moves.length - 1] : null;
    const willAnimate =
      animate && last && last.kind !== "undo" && !this.reducedMotion && !document.hidden && old && step === 1 && last && last.move !== this.noAnimateMove;
    let flight = null;
    if (willAnimate) flight = this.prepareFlight(last, old.view, frame.view);

    this.state = frame;
    if (this.hint && this.hint.version !== frame.version) this.hint = null; // the table moved on
    this.turnClock.fromState(frame);
    if (typeof frame.spectators === "number") this.spectators = frame.spectators;
    this.syncRematch(frame);
    this.recordMoves(frame, old, step);
    if (this.pending && frame.version > this.pending.version) this.clearPending();
    this.validateSelection();
    this.render();

    if (step === 1 && last) this.announceMove(last, old.view, frame.view);
    if (step === 1 && last && last.kind !== "undo" && this.isPlayer && last.seat !== this.me) this.sounds.play("move");
    if (old && step >= 1 && !this.gameOver && this.isPlayer) {
      const wasMine = old.view.to_move === this.me && !old.view.outcome;
      if (!wasMine && frame.view.to_move === this.me) {
        this.announce(t("nowYourTurn"));
        this.sounds.play("turn");
      }
    }
    this.noAnimateMove = null;
    if (flight) await this.fly(flight);
    if (this.gameOver && !this.matchOver && !(frame.match && frame.match.next_game)) this.pollNextGame();
  }

  recordMoves(frame, old, step) {
    if (old && frame.game && old.game && frame.game.number !== old.game.number) this.log.clear();
    const moves = frame.last_moves || [];
    moves.forEach((m, i) => {
      const known = this.log.get(m.ply);
      if (known) {
        this.log.set(m.ply, { ...m, card: known.card }); // a later undo may have marked it
        return;
      }
      const isNewest = i === moves.length - 1 && step === 1;
      const card = m.kind === "undo" ? null : movedCard(m.move, m.seat, isNewest && old ? old.view : null, isNewest ? frame.view : null);
      this.log.set(m.ply, { ...m, card });
    });
  }

  validateSelection() {
    if (!this.selected) return;
    if (!this.isPlayer || this.gameOver) {
      this.selected = null;
      return;
    }
    const src = this.selected.src;
    const mine = this.view.players[this.me];
    let ok = false;
    if (src.startsWith("h:")) ok = (mine.hand || []).includes(src.slice(2));
    else if (src === "p") ok = Boolean(mine.payoff_top);
    else ok = (mine.sides[Number(src.slice(1)) - 1] || []).length > 0;
    if (!ok) this.selected = null;
  }

  pollNextGame() {
    if (this.nextGameSyncs >= 10) return;
    this.nextGameSyncs += 1;
    window.setTimeout(() => this.sync(), 1500);
  }

  onGameEnd(frame) {
    this.gameEnd = frame;
    if (this.state && frame.next_game && this.state.match) this.state.match.next_game = frame.next_game;
    if (this.state && frame.scores && this.state.match) this.state.match.scores = frame.scores;
    this.selected = null;
    this.render();
    this.announce(this.resultHeadline());
  }

  onMatchEnd(frame) {
    this.matchEnd = frame;
    if (this.state && this.state.match) {
      if (frame.scores) this.state.match.scores = frame.scores;
      this.state.match.winner = frame.winner;
    }
    this.render();
    // A resignation, a forfeit or an abort says the match's end in the reason line.
    const summary = this.matchSummary() || this.resultReason();
    if (summary) this.announce(summary);
  }

  onError(frame) {
    if (frame.code === "throttled") {
      this.onThrottled(frame);
      return;
    }
    if (frame.code === "unavailable") {
      // The server cannot reach its database: it closes the socket, which reconnects after
      // its backoff and asks for the state; a move waiting for its answer goes again then.
      this.showError(frame.message || t("errorGeneric", { code: frame.code }));
      return;
    }
    if (this.pending && (!frame.id || frame.id === this.pending.id)) {
      this.clearPending();
      this.render(); // the hint said "Sending…": it says what to do again
    }
    if (frame.code === "unauthenticated") {
      // Signed out (docs/protocol.md): the server closes with 4401, and the banner alone says
      // so (socket.js), once.
      if (this.socket) this.socket.stop();
      return;
    }
    if (frame.code === "not_found") {
      if (this.socket) this.socket.stop(); // the server closes it: nothing to reconnect to
      this.showError(t("notFound"));
      return;
    }
    const message = frame.message || t("errorGeneric", { code: frame.code || "?" });
    this.showError(t("errorPrefix", { message }));
    if (frame.code !== "stale_version") this.sync();
  }

  /** Too many messages: nothing was refused for what it said. The pending move (a throttled
   * move echoes its id) goes again once the server allows, and so does the sync. */
  onThrottled(frame) {
    const seconds = Math.max(0.5, Number((frame.params || {}).retry_after) || 1);
    const pending = this.pending;
    window.clearTimeout(this.throttleTimer);
    if (pending && frame.id === pending.id) {
      window.clearTimeout(this.pendingTimer);
      pending.sent = false;
      this.showError(t("throttledMove", { s: Math.ceil(seconds) }));
      this.throttleTimer = window.setTimeout(() => {
        if (this.pending === pending) this.resendPending();
      }, seconds * 1000);
      this.render();
      return;
    }
    this.showError(t("throttled", { s: Math.ceil(seconds) }));
    this.throttleTimer = window.setTimeout(() => this.sync(), seconds * 1000);
  }

  showError(message) {
    const node = this.$("error");
    node.textContent = message;
    node.hidden = false;
    window.clearTimeout(this.errorTimer);
    this.errorTimer = window.setTimeout(() => {
      node.hidden = true;
      node.textContent = "";
    }, 8000);
  }

  clearError() {
    const node = this.$("error");
    node.hidden = true;
    node.textContent = "";
  }

  announce(text) {
    const node = this.$("announcer");
    // Re-setting the text makes screen readers speak it even when it repeats.
    node.textContent = "";
    window.setTimeout(() => {
      node.textContent = text;
    }, 30);
  }

  announceMove(m, before, after) {
    if (m.kind === "undo") {
      const count = m.undoes || 1;
      const mine = m.seat === this.me;
      this.announce(tn(mine ? "youTookBack" : "tookBack", count, { name: this.name(m.seat) }));
      return;
    }
    const [src, tgt] = splitMove(m.move);
    const card = cardName(movedCard(m.move, m.seat, before, after));
    const params = { name: this.name(m.seat), card, from: fromText(src), to: toText(tgt) };
    if (m.seat === this.me) return; // your own move: the table shows it, no need to say it again
    this.announce(t("played", params));
  }

  // ---- playing ------------------------------------------------------------------------------
  canAct() {
    return this.isPlayer && !this.gameOver && Boolean(this.state);
  }

  attempt(src, tgt, { confirmed = false } = {}) {
    if (!this.canAct() || this.pending) return;
    if (!confirmed && this.settings.get("confirm") && this.legal.has(`${src}-${tgt}`)) {
      this.askToConfirm(src, tgt);
      return;
    }
    this.selected = null;
    if (!this.socket || this.socket.stopped) {
      this.showError(t("connGone"));
      this.render();
      return;
    }
    this.clearError();
    // While the socket is down the move waits (resendPending sends it on reconnection).
    this.pending = { id: newId(), move: `${src}-${tgt}`, version: this.state.version, sent: false };
    if (this.socket.isOpen) this.resendPending();
    else this.render();
  }

  /** The player asked to confirm moves: show the move and wait for "Play it" or "Cancel". */
  askToConfirm(src, tgt) {
    this.awaitingConfirm = { src, tgt };
    const box = this.$("move-confirm");
    const card = cardName(this.cardOfSource(src));
    box.querySelector("[data-part=move-confirm-text]").textContent = t("confirmMove", { card, to: toText(tgt) });
    box.hidden = false;
    box.querySelector("[data-move-confirm=yes]").focus({ preventScroll: true });
  }

  answerConfirm(yes) {
    const move = this.awaitingConfirm;
    this.awaitingConfirm = null;
    this.$("move-confirm").hidden = true;
    if (!move) return;
    if (yes) this.attempt(move.src, move.tgt, { confirmed: true });
    else this.cancel();
  }

  clearPending() {
    window.clearTimeout(this.pendingTimer);
    this.pending = null;
    this.root.classList.remove("is-pending");
  }

  /** Take back this turn's moves (a casual game against a bot; the server decides). */
  undo() {
    if (!this.canAct() || this.pending || !this.state.can_undo) return;
    this.selected = null;
    if (!this.send({ type: "undo", version: this.state.version })) {
      this.showError(t("connClosed"));
      return;
    }
    this.clearError();
    this.$("status").focus({ preventScroll: true }); // the button goes away with the moves
  }

  // ---- hints ------------------------------------------------------------------------------
  /** Ask the expert for the move it would play from your view (the server decides whether
   * this game allows it); the answer comes as a `hint` frame. */
  askHint() {
    if (!this.canAct() || this.pending || !this.state.can_hint || !this.isMyTurn()) return;
    if (this.hint && this.hint.version === this.state.version) return; // asked already
    if (!this.send({ type: "hint", version: this.state.version })) {
      this.showError(t("connClosed"));
      return;
    }
    this.clearError();
    this.hint = { version: this.state.version, move: null, text: null };
    this.render();
    this.announce(t("hintThinking"));
  }

  onHint(frame) {
    const s = this.state;
    if (!s || !s.game || frame.game !== s.game.id || frame.version !== s.version || !frame.move) return;
    this.hint = { version: frame.version, move: frame.move, text: frame.text || null };
    this.render();
    this.announce(this.hintWords());
  }

  hintWords() {
    const h = this.hint;
    if (!h || !h.move) return t("hintThinking");
    const [src, tgt] = splitMove(h.move);
    const words = t("hintMove", { card: cardName(this.cardOfSource(src)), to: toText(tgt) });
    return h.text ? `${words} ${h.text}` : words;
  }

  /** Where the hint glows: "source" on the card to play, "target" on where it goes. */
  hintRole(key, source, target) {
    const h = this.hint;
    if (!h || !h.move || !this.isMyTurn()) return null;
    const [src, tgt] = splitMove(h.move);
    if (source && source === src && (key === src || key === `${src}#1`)) return "source";
    if (target && target === tgt) return "target";
    return null;
  }

  // ---- rematch and spectators ---------------------------------------------------------------
  /** The rematch as the state frame tells it (after a reload, or a missed frame). */
  syncRematch(frame) {
    const info = frame.match && frame.match.rematch;
    if (!info) return;
    if (info.game) this.rematch = { state: "accepted", by: info.offered_by, match: info.match, game: info.game, known: true };
    else if (info.offered_by === 0 || info.offered_by === 1) this.rematch = { state: "offered", by: info.offered_by };
    else if (this.rematch && this.rematch.state === "offered") this.rematch = null;
  }

  onRematch(frame) {
    this.rematch = frame;
    this.render();
    const by = frame.by === this.me ? t("you") : this.name(frame.by);
    if (frame.state === "accepted" && frame.game) {
      this.announce(t("rematchStarting"));
      if (this.isPlayer) window.location.assign(this.gameUrl.replace(/\/0\/$/, `/${frame.game}/`));
    } else if (frame.state === "offered" && frame.by !== this.me) {
      this.announce(t("rematchOfferedToYou", { name: by }));
    } else if (frame.state === "declined" && frame.by !== this.me) {
      this.announce(t("rematchDeclined", { name: by }));
    }
  }

  renderSpectators() {
    const node = this.$("spectators");
    if (!node) return;
    const count = this.spectators || 0;
    node.hidden = count === 0;
    node.textContent = tn("spectators", count);
  }

  renderRematch() {
    const box = this.$("rematch");
    if (!box) return;
    const match = this.state.match || {};
    const show = this.matchOver && match.status === "finished";
    box.hidden = !show;
    this.$("rematch-text").hidden = true;
    if (!show) return;
    const r = this.rematch;
    const opponent = this.isPlayer ? this.name(1 - this.me) : "";
    const vsBot = this.isPlayer && this.isBot(1 - this.me);
    const text = this.$("rematch-text");
    const link = box.querySelector("[data-part=rematch-link]");
    const button = (action) => box.querySelector(`[data-rematch=${action}]`);
    let message = "";
    let offer = false;
    let answer = false;
    link.hidden = true;
    if (r && r.state === "accepted" && r.game) {
      message = t("rematchReady");
      link.href = this.gameUrl.replace(/\/0\/$/, `/${r.game}/`);
      link.hidden = false;
    } else if (this.isPlayer && r && r.state === "offered" && r.by === this.me) {
      message = t("rematchOfferedByYou", { name: opponent });
    } else if (this.isPlayer && r && r.state === "offered") {
      message = t("rematchOfferedToYou", { name: opponent });
      answer = true;
    } else if (this.isPlayer) {
      if (r && r.state === "declined") message = r.by === this.me ? t("rematchDeclinedByYou") : t("rematchDeclined", { name: opponent });
      offer = true;
    }
    text.textContent = message;
    text.hidden = !message;
    button("offer").hidden = !offer;
    button("offer").textContent = vsBot ? t("playAgain") : t("rematch");
    button("accept").hidden = !answer;
    button("decline").hidden = !answer;
  }

  select(src, key) {
    this.selected = { src, key };
    this.render();
    const card = this.cardOfSource(src);
    const count = this.legalTargets(src).size;
    this.announce(count ? tn("picked", count, { card: cardName(card) }) : t("pickedNone", { card: cardName(card) }));
  }

  cancel(say = true) {
    if (!this.selected) return;
    this.selected = null;
    this.render();
    if (say) this.announce(t("pickCancelled"));
  }

  cardOfSource(src) {
    const mine = this.view.players[this.me];
    if (src.startsWith("h:")) return src.slice(2);
    if (src === "p") return mine.payoff_top;
    const side = mine.sides[Number(src.slice(1)) - 1] || [];
    return side[side.length - 1];
  }

  /** A click (or Enter/Space) on one of the player's places. */
  activate(node) {
    if (!this.canAct()) return;
    if (!this.isMyTurn()) {
      this.announce(t("waitYourTurn", { name: this.name(this.view.to_move) }));
      return;
    }
    const src = node.dataset.source || null;
    const tgt = node.dataset.target || null;
    const key = node.dataset.key;
    if (this.selected) {
      if (this.selected.key === key) {
        this.cancel();
        return;
      }
      const move = tgt ? `${this.selected.src}-${tgt}` : null;
      if (move && this.legal.has(move)) {
        this.attempt(this.selected.src, tgt);
        return;
      }
      if (src) {
        this.select(src, key); // another of your cards: pick it instead
        return;
      }
      if (tgt) {
        this.attempt(this.selected.src, tgt); // not lit: the server says why
        return;
      }
      return;
    }
    if (src) this.select(src, key);
  }

  // ---- controls -----------------------------------------------------------------------------
  bindControls() {
    const felt = this.$("felt");
    felt.addEventListener("click", (event) => {
      const node = event.target.closest("[data-key]");
      if (!node || !felt.contains(node)) return;
      if (performance.now() < this.suppressClickUntil) return;
      this.activate(node);
    });
    felt.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    window.addEventListener("pointermove", (event) => this.onPointerMove(event));
    window.addEventListener("pointerup", (event) => this.onPointerUp(event));
    window.addEventListener("pointercancel", () => this.endDrag());
    document.addEventListener("keydown", (event) => this.onKey(event));
    this.bindPanel();
    for (const button of this.root.querySelectorAll("[data-move-confirm]")) {
      button.addEventListener("click", () => this.answerConfirm(button.dataset.moveConfirm === "yes"));
    }
    const shortcuts = this.$("shortcuts");
    const openShortcuts = this.root.querySelector("[data-shortcuts-open]");
    if (openShortcuts && shortcuts) openShortcuts.addEventListener("click", () => shortcuts.showModal());

    const dialog = this.$("resign-dialog");
    const confirmThen = (question, frame) => {
      const aborting = frame.type === "abort";
      dialog.querySelector("[data-part=confirm-title]").textContent = t(aborting ? "abortTitle" : "resignTitle");
      dialog.querySelector("[data-part=confirm-yes]").textContent = t(aborting ? "abortYes" : "resignYes");
      dialog.querySelector("[data-part=resign-question]").textContent = question;
      dialog.dataset.frame = JSON.stringify(frame);
      if (typeof dialog.showModal === "function") dialog.showModal();
      else if (window.confirm(question)) this.send(frame);
    };
    for (const button of this.root.querySelectorAll("[data-resign]")) {
      button.addEventListener("click", () => {
        const scope = button.dataset.resign;
        const opponent = this.name(1 - this.me);
        const count = this.view ? this.view.players[this.me].payoff_size : 0;
        const question = scope === "match" ? t("resignMatchQ", { name: opponent }) : tn("resignGameQ", count, { name: opponent });
        confirmThen(question, { type: "resign", scope });
      });
    }
    const abort = this.root.querySelector("[data-action=abort]");
    if (abort) abort.addEventListener("click", () => confirmThen(t("abortQ"), { type: "abort" }));
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "confirm" && dialog.dataset.frame) this.send(JSON.parse(dialog.dataset.frame));
      dialog.returnValue = "";
    });
    const undo = this.root.querySelector("[data-action=undo]");
    if (undo) undo.addEventListener("click", () => this.undo());
    const hint = this.root.querySelector("[data-action=hint]");
    if (hint) hint.addEventListener("click", () => this.askHint());
    for (const button of this.root.querySelectorAll("[data-rematch]")) {
      button.addEventListener("click", () => {
        this.clearError();
        this.send({ type: "rematch", action: button.dataset.rematch });
      });
    }
  }

  /** The keyboard: Escape cancels; a key picks or places a card (the help dialog lists them). */
  onKey(event) {
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "Escape") {
      if (this.awaitingConfirm) this.answerConfirm(false);
      else if (this.panelOpen()) this.setPanel(false);
      else if (this.selected) this.cancel();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const typing = event.target.closest && event.target.closest("input, select, textarea, [contenteditable]");
    if (typing) return;
    if (event.key === "?") {
      const dialog = this.$("shortcuts");
      if (dialog) dialog.showModal();
      event.preventDefault();
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "u") {
      this.undo();
      return;
    }
    const node = this.shortcutNode(key);
    if (!node) return;
    event.preventDefault();
    node.focus({ preventScroll: true });
    this.activate(node);
  }

  /** The place a shortcut key names: 1–9 a hand card, P the pay-off pile, Q W E R… a side
   * stack, A S D… a center stack. */
  shortcutNode(key) {
    if (/^[1-9]$/.test(key)) return this.root.querySelectorAll("[data-part=hand] [data-key]")[Number(key) - 1] || null;
    if (key === "p") return this.root.querySelector('[data-area=bottom] [data-key="p"]');
    const side = SIDE_KEYS.indexOf(key);
    if (side >= 0) return this.root.querySelector(`[data-area=bottom] [data-key="s${side + 1}"]`);
    const center = CENTER_KEYS.indexOf(key);
    if (center >= 0) return this.root.querySelector(`[data-part=centers] [data-key="c${center + 1}"]`);
    return null;
  }

  // ---- the side panel: a drawer on a phone ---------------------------------------------------
  bindPanel() {
    const toggle = this.root.querySelector("[data-panel-toggle]");
    const close = this.root.querySelector("[data-panel-close]");
    if (toggle) toggle.addEventListener("click", () => this.setPanel(!this.panelOpen()));
    if (close) close.addEventListener("click", () => this.setPanel(false));
  }

  panelOpen() {
    return this.$("panel").dataset.open === "true";
  }

  setPanel(open) {
    const panel = this.$("panel");
    const toggle = this.root.querySelector("[data-panel-toggle]");
    panel.dataset.open = String(open);
    if (toggle) toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      const first = panel.querySelector("[data-panel-close]");
      if (first) window.setTimeout(() => first.focus({ preventScroll: true }), 50); // after it slides in
    } else if (toggle && panel.contains(document.activeElement)) {
      toggle.focus({ preventScroll: true });
    }
  }

  onPointerDown(event) {
    if (event.button !== 0 || !this.canAct() || !this.isMyTurn()) return;
    const node = event.target.closest("[data-source]");
    if (!node) return;
    this.drag = { node, src: node.dataset.source, key: node.dataset.key, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null, over: null };
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      // Start dragging: the picked card lifts and follows the pointer; its places light up.
      const card = this.cardOfSource(drag.src);
      if (!card) {
        this.drag = null;
        return;
      }
      this.selected = { src: drag.src, key: drag.key };
      this.render();
      const face = this.root.querySelector(`[data-key="${CSS.escape(drag.key)}"] .pc-card:last-child`);
      const rect = face ? face.getBoundingClientRect() : { width: 56, height: 78 };
      drag.ghost = cardFace(card);
      drag.ghost.classList.add("pc-ghost");
      drag.ghost.style.setProperty("--cw", `${rect.width}px`);
      drag.offsetX = rect.width / 2;
      drag.offsetY = rect.height / 2;
      document.body.append(drag.ghost);
      this.root.classList.add("is-dragging");
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.offsetX}px, ${event.clientY - drag.offsetY}px)`;
    const over = this.targetAt(event.clientX, event.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("is-over");
      if (over) over.classList.add("is-over");
      drag.over = over;
    }
  }

  targetAt(x, y) {
    const hit = document.elementsFromPoint(x, y).find((n) => n.closest && n.closest("[data-target]") && !n.classList.contains("pc-ghost"));
    const node = hit ? hit.closest("[data-target]") : null;
    return node && this.$("felt").contains(node) ? node : null;
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      this.drag = null; // no movement: the click handler takes it
      return;
    }
    const target = this.targetAt(event.clientX, event.clientY);
    this.endDrag();
    this.suppressClickUntil = performance.now() + 400;
    if (target && target.dataset.key !== drag.key) {
      const move = `${drag.src}-${target.dataset.target}`;
      this.noAnimateMove = move;
      this.attempt(drag.src, target.dataset.target);
    } else {
      this.render();
    }
  }

  endDrag() {
    const drag = this.drag;
    if (!drag) return;
    if (drag.ghost) drag.ghost.remove();
    if (drag.over) drag.over.classList.remove("is-over");
    this.root.classList.remove("is-dragging");
    this.drag = null;
  }

  // ---- animation ----------------------------------------------------------------------------
  /** Where the card of move `m` starts, read from the page as it is before the move. */
  prepareFlight(m, before, after) {
    const card = movedCard(m.move, m.seat, before, after);
    if (!card) return null;
    const [src, tgt] = splitMove(m.move);
    const area = m.seat === this.bottomSeat ? "bottom" : "top";
    let from = null;
    if (src.startsWith("h:")) {
      if (area === "bottom" && this.isPlayer) {
        from = this.root.querySelector(`[data-part=hand] [data-source="${CSS.escape(src)}"] .pc-card`);
      } else {
        from = this.root.querySelector(`[data-area=${area}] [data-part=hand-backs] .pc-card:last-child`);
      }
    } else if (src === "p") {
      from = this.root.querySelector(`[data-area=${area}] [data-pile=payoff] .pc-card:last-child`);
    } else {
      from = this.root.querySelector(`[data-area=${area}] [data-pile="${src}"] .pc-card:last-child`);
    }
    if (!from) return null;
    return { card, fromRect: from.getBoundingClientRect(), area, tgt };
  }

  async fly(flight) {
    const { card, fromRect, area, tgt } = flight;
    const selector = tgt.startsWith("c") ? `[data-pile="${tgt}"]` : `[data-area=${area}] [data-pile="${tgt}"]`;
    const pile = this.root.querySelector(selector);
    if (!pile) return;
    const landing = pile.querySelector(".pc-card:last-child");
    if (!landing) return;
    const toRect = landing.getBoundingClientRect();
    const ghost = cardFace(card);
    ghost.classList.add("pc-ghost", "pc-flying");
    ghost.style.setProperty("--cw", `${toRect.width}px`);
    document.body.append(ghost);
    const hideLanding = landing.dataset.card === card;
    if (hideLanding) landing.style.visibility = "hidden";
    const start = `translate(${fromRect.left}px, ${fromRect.top}px)`;
    const end = `translate(${toRect.left}px, ${toRect.top}px)`;
    try {
      const animation = ghost.animate([{ transform: start }, { transform: end }], { duration: 300, easing: "cubic-bezier(.2,.7,.3,1)" });
      // A hidden tab may hold animations back: never let one stall the frames behind it.
      await Promise.race([animation.finished, new Promise((resolve) => window.setTimeout(resolve, 700))]);
    } catch {
      // an interrupted animation is fine
    } finally {
      ghost.remove();
      if (hideLanding) landing.style.visibility = "";
    }
  }

  // ---- drawing ------------------------------------------------------------------------------
  render() {
    if (!this.state) return;
    const active = document.activeElement;
    const focusKey = active && this.root.contains(active) && active.dataset ? active.dataset.key : null;
    const focusIndex = focusKey ? [...this.root.querySelectorAll("[data-part=hand] [data-key]")].indexOf(active) : -1;

    const view = this.view;
    // How many cards the widest row holds: tall, one row of piles; wide, a seat beside the
    // center or the hand (table.css).
    const seatCols = view.players[0].sides.length + 1.4;
    const hand = Math.max((view.players[this.bottomSeat].hand || []).length, 5);
    const felt = this.$("felt");
    felt.style.setProperty("--cols", String(Math.max(seatCols, view.center.length + 1.3, hand)));
    felt.style.setProperty("--cols-wide", String(seatCols + Math.max(view.center.length + 1.3, hand)));
    this.root.classList.toggle("is-player", this.isPlayer);
    this.root.classList.toggle("is-pending", Boolean(this.pending));
    this.root.classList.toggle("is-your-turn", this.isMyTurn());
    this.renderHeader();
    this.renderSeat("top", 1 - this.bottomSeat);
    this.renderCenter();
    this.renderSeat("bottom", this.bottomSeat);
    this.renderHand();
    this.renderLog();
    const resultShown = this.renderResult();
    this.renderControls();
    this.renderTitle();

    if (focusKey) {
      let target = this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (!target && focusIndex >= 0) {
        const cards = [...this.root.querySelectorAll("[data-part=hand] [data-key]")];
        target = cards[Math.min(focusIndex, cards.length - 1)] || null;
      }
      if (!target) target = this.root.querySelector("[data-part=hand] [data-key]") || this.$("status");
      if (target) target.focus({ preventScroll: true });
    }
    if (resultShown) this.$("result-title").focus();
  }

  isMyTurn() {
    return this.isPlayer && !this.gameOver && this.view.to_move === this.me;
  }

  /** "Your turn" in the tab's title and a dot on its icon while it is your turn, so a tab in
   * the background says so (lichess's way). */
  renderTitle() {
    const mine = this.isMyTurn();
    const title = mine ? `${t("titleYourTurn")} · ${this.baseTitle}` : this.baseTitle;
    if (document.title !== title) document.title = title;
    if (this.favicon && this.faviconTurn) {
      const href = mine ? this.faviconTurn : this.faviconPlain;
      if (this.favicon.getAttribute("href") !== href) this.favicon.setAttribute("href", href);
    }
  }

  renderHeader() {
    const s = this.state;
    const match = s.match || {};
    const scores = match.scores || [0, 0];
    const target = match.target || (s.view.rules && s.view.rules.match_target) || 50;
    for (const seat of [0, 1]) {
      const box = this.$(`score-${seat}`);
      if (!box) continue;
      const isYou = seat === this.me;
      const nameParts = [el("span", { class: "score-name-text" }, this.name(seat))];
      const badge = this.seatBadge(seat);
      if (badge) nameParts.push(" ", badge);
      if (isYou) nameParts.push(el("span", { class: "you-tag" }, t("you")));
      box.querySelector("[data-part=score-name]").replaceChildren(...nameParts);
      // Past the target (the match is won) the score stands alone: "6", never "6/1".
      const reached = scores[seat] >= target;
      box.querySelector("[data-part=score-value]").textContent = reached ? formatNumber(scores[seat]) : t("scoreOf", { score: scores[seat], target });
      box.classList.toggle("has-reached", reached);
      const bar = box.querySelector("[data-part=score-bar]");
      bar.style.width = `${Math.min(100, (100 * scores[seat]) / target)}%`;
      box.classList.toggle("is-to-move", !this.gameOver && s.view.to_move === seat);
    }
    const number = this.$("game-number");
    if (number && s.game) number.textContent = t("gameNumber", { n: s.game.number });

    const status = this.$("status");
    const hint = this.$("hint");
    let text;
    let hintText = "";
    if (this.gameOver) text = t("gameOverShort");
    else if (this.isMyTurn()) {
      text = t("yourTurn");
      if (this.pending) hintText = t(this.pending.sent ? "sending" : "queuedMove");
      else hintText = this.hint ? this.hintWords() : t("yourTurnHint");
    } else if (this.isBot(s.view.to_move)) text = t("botThinking", { name: this.name(s.view.to_move) });
    else text = t("theirTurn", { name: this.name(s.view.to_move) });
    if (!this.isPlayer && !this.gameOver) hintText = t("spectating");
    hint.classList.toggle("has-hint", Boolean(this.hint && this.hint.move && this.isMyTurn() && !this.pending));
    status.textContent = text;
    status.dataset.turn = this.gameOver ? "over" : this.isMyTurn() ? "you" : "them";
    hint.textContent = hintText;
  }

  /** One player's pay-off pile and side stacks; for the top area also the hidden hand. */
  renderSeat(area, seat) {
    const box = this.root.querySelector(`[data-area=${area}]`);
    const player = this.view.players[seat];
    const interactive = area === "bottom" && this.isPlayer && !this.gameOver;
    const name = this.name(seat);
    const isYou = seat === this.me;
    const targets = this.selected ? this.legalTargets(this.selected.src) : new Set();

    const badge = isYou ? null : this.seatBadge(seat);
    box.querySelector("[data-part=seat-name]").replaceChildren(isYou ? t("you") : name, ...(badge ? [" ", badge] : []));

    // the hidden hand (opponent, or both players for a spectator)
    const backs = box.querySelector("[data-part=hand-backs]");
    if (backs) {
      backs.replaceChildren(...Array.from({ length: player.hand_size }, () => cardBack()));
      if (player.hand_size === 0) backs.append(cardEmpty());
      backs.setAttribute("aria-label", tn("theirHand", player.hand_size, { name }));
      backs.hidden = isYou;
    }

    // pay-off pile
    const payoffSlot = box.querySelector("[data-part=payoff]");
    const top = player.payoff_top;
    const payoffLabel = top
      ? isYou
        ? tn("yourPayoff", player.payoff_size, { card: cardName(top) })
        : tn("theirPayoff", player.payoff_size, { name, card: cardName(top) })
      : isYou
        ? t("yourPayoffEmpty")
        : t("theirPayoffEmpty", { name });
    const payoff = this.place({
      interactive: interactive && Boolean(top),
      key: "p",
      source: "p",
      label: payoffLabel,
      content: payoffContent(top, player.payoff_size),
      extra: "slot-payoff",
      canPlay: interactive && this.hasMoveFrom("p"),
    });
    payoffSlot.replaceChildren(payoff);

    // side stacks, fanned so every card shows
    const sides = box.querySelector("[data-part=sides]");
    const nodes = player.sides.map((cards, i) => {
      const n = i + 1;
      const key = `s${n}`;
      const stackName = isYou ? t("yourSide", { n }) : t("theirSide", { name, n });
      let label = cards.length
        ? t("sideCards", {
            stack: stackName,
            count: cards.length,
            cards: formatList(cards.map(cardName)),
            top: cardName(cards[cards.length - 1]),
          })
        : t("sideEmpty", { stack: stackName });
      const lit = interactive && targets.has(key);
      if (lit) label = t("litTarget", { label });
      const fan = sideFan(cards, key);
      return this.place({
        interactive,
        key,
        source: cards.length ? key : null,
        target: key,
        label,
        content: [fan],
        extra: "slot-side",
        lit,
        canPlay: interactive && cards.length > 0 && this.hasMoveFrom(key),
      });
    });
    sides.replaceChildren(...nodes);
  }

  hasMoveFrom(src) {
    for (const move of this.legal) if (move.startsWith(`${src}-`)) return true;
    return false;
  }

  /** A place on the table: a button when the player may use it, otherwise a labelled picture. */
  place({ interactive, key, source = null, target = null, label, content, extra = "", lit = false, canPlay = false }) {
    const selected = Boolean(this.selected && this.selected.key === key);
    const classes = ["slot", extra];
    const hinted = interactive ? this.hintRole(key, source, target) : null;
    if (hinted) classes.push(`is-hint-${hinted}`);
    if (lit) classes.push("is-lit");
    if (selected) classes.push("is-selected");
    if (canPlay) classes.push("can-play");
    if (interactive && (source || target)) {
      const ariaLabel = selected ? t("pickable", { label }) : label;
      return el(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          "data-key": key,
          "data-source": source,
          "data-target": target,
          "aria-pressed": source ? String(selected) : null,
          "aria-disabled": this.isMyTurn() ? null : "true", // the other player's turn: wait
        },
        // Named by words, not by the card's drawn corner (which is aria-hidden): "Jack of
        // diamonds in your hand", never "J♦".
        el("span", { class: "sr-only" }, ariaLabel),
        content,
      );
    }
    return el("div", { class: classes.join(" "), role: "img", "aria-label": label, "data-pile-box": key }, content);
  }

  renderCenter() {
    const view = this.view;
    const stock = this.$("stock");
    stock.replaceChildren(
      this.place({
        interactive: false,
        key: "stock",
        label: tn("stock", view.stock_size),
        content: stockContent(view.stock_size),
        extra: "slot-stock",
      }),
    );
    const interactive = this.isPlayer && !this.gameOver;
    const targets = this.selected ? this.legalTargets(this.selected.src) : new Set();
    const centers = this.$("centers");
    centers.replaceChildren(
      ...view.center.map((stack, i) => {
        const n = i + 1;
        const key = `c${n}`;
        const cards = stack.cards;
        const at = stack.stands_for;
        const topCard = cards[cards.length - 1];
        const next = at >= 12 ? t("centerFull") : rankNameAt(at + 1);
        let label;
        if (!cards.length) label = t("centerEmpty", { n });
        else {
          const card = topCard[0] === "K" ? t("centerKingCard", { card: cardName(topCard), rank: rankNameAt(at) }) : cardName(topCard);
          label = tn("centerAt", cards.length, { n, at: rankNameAt(at), next, card });
        }
        const lit = interactive && targets.has(key);
        if (lit) label = t("litTarget", { label });
        return this.place({ interactive, key, target: key, label, content: centerContent(stack, key), extra: "slot-center", lit });
      }),
    );
  }

  renderHand() {
    const handBox = this.$("hand");
    const bottom = this.view.players[this.bottomSeat];
    if (!this.isPlayer) {
      handBox.hidden = true;
      return;
    }
    handBox.hidden = false;
    const hand = bottom.hand || [];
    const seen = {};
    const interactive = !this.gameOver;
    const cards = hand.map((code) => {
      seen[code] = (seen[code] || 0) + 1;
      const src = `h:${code}`;
      return this.place({
        interactive,
        key: `${src}#${seen[code]}`,
        source: src,
        label: t("inYourHand", { card: cardName(code) }),
        content: [cardFace(code)],
        extra: "slot-hand",
        canPlay: interactive && this.hasMoveFrom(src) && this.hasCenterMove(src),
      });
    });
    const list = this.$("hand-cards");
    list.replaceChildren(...cards);
    if (!cards.length) list.append(el("p", { class: "hand-empty" }, t("handEmpty")));
  }

  hasCenterMove(src) {
    for (const move of this.legal) if (move.startsWith(`${src}-c`)) return true;
    return false;
  }

  renderLog() {
    const list = this.$("log");
    const entries = [...this.log.values()].sort((a, b) => b.ply - a.ply).slice(0, 40);
    if (!entries.length) {
      list.replaceChildren(el("li", { class: "log-empty" }, t("logEmpty")));
      return;
    }
    list.replaceChildren(
      ...entries.map((m) => {
        const who = m.seat === this.me ? t("you") : this.name(m.seat);
        if (m.kind === "undo") {
          return el(
            "li",
            { class: `log-entry log-undo${m.seat === this.me ? " is-you" : ""}`, "data-ply": m.ply },
            el("span", { class: "log-ply" }, `${formatNumber(m.ply + 1)}.`),
            el("span", { class: "log-line" }, el("span", { class: "log-who" }, who), el("span", { class: "log-path" }, `↶ ${t("logTookBack", { count: m.undoes })}`)),
          );
        }
        const [src, tgt] = splitMove(m.move);
        const card = m.card
          ? el("span", { class: `mini-card${isRed(m.card) ? " is-red" : ""}`, title: cardName(m.card) }, rankLabel(m.card[0]), SUIT_SYMBOL[m.card[1]])
          : el("span", { class: "mini-card is-unknown" }, "?");
        const srOnly = el("span", { class: "sr-only" }, m.card ? cardName(m.card) : t("aCard"));
        card.setAttribute("aria-hidden", "true");
        return el(
          "li",
          { class: `log-entry${m.seat === this.me ? " is-you" : ""}${m.undone ? " is-undone" : ""}`, "data-ply": m.ply },
          el("span", { class: "log-ply" }, `${formatNumber(m.ply + 1)}.`),
          el(
            "span",
            { class: "log-line" },
            el("span", { class: "log-who" }, who),
            card,
            srOnly,
            el("span", { class: "log-path" }, `${fromText(src, true)} → ${toText(tgt, true)}`),
            m.undone ? el("span", { class: "sr-only" }, t("logUndone")) : null,
          ),
        );
      }),
    );
  }

  outcome() {
    const s = this.state;
    if (this.gameEnd) return { winner: this.gameEnd.winner, points: this.gameEnd.points, reason: this.gameEnd.reason };
    const o = s.game && s.game.outcome && typeof s.game.outcome === "object" ? s.game.outcome : s.view.outcome;
    return o || null;
  }

  matchReason() {
    if (this.matchEnd) return this.matchEnd.reason;
    return (this.state.match && this.state.match.reason) || null;
  }

  /** The game's end and its match's as results.js reads them (static/js/results.js). */
  resultEnd() {
    const s = this.state;
    const match = s.match || {};
    const clock = s.clock || {};
    const winner = this.matchEnd ? this.matchEnd.winner : match.winner;
    const loser = winner === 0 || winner === 1 ? 1 - winner : null;
    return {
      number: s.game ? s.game.number : "",
      outcome: this.outcome(),
      match: {
        over: this.matchOver,
        reason: this.matchReason(),
        winner,
        scores: match.scores || [0, 0],
        target: match.target,
        next_game: match.next_game || null,
      },
      me: this.isPlayer ? this.me : null,
      names: [this.name(0), this.name(1)],
      timeouts: (loser !== null && clock.timeouts && clock.timeouts[loser]) || clock.max_timeouts || 3,
    };
  }

  resultHeadline() {
    return gameTitle(this.resultEnd());
  }

  resultReason() {
    return gameLine(this.resultEnd());
  }

  matchSummary() {
    return this.state.match ? matchLine(this.resultEnd()) : "";
  }

  renderResult() {
    const box = this.$("result");
    if (!this.gameOver) {
      box.hidden = true;
      this.$("turn").hidden = false;
      return false;
    }
    const wasHidden = box.hidden;
    box.hidden = false;
    this.$("turn").hidden = true;
    const o = this.outcome();
    box.dataset.result = o && o.reason === "aborted" ? "aborted" : !o || o.winner === null || o.winner === undefined ? "tie" : o.winner === this.me ? "won" : "lost";
    const replay = box.querySelector("[data-part=replay-link]");
    if (replay && this.state.game) {
      replay.href = this.replayUrl.replace(/\/0\/replay\/$/, `/${this.state.game.id}/replay/`);
      replay.hidden = !this.replayUrl || !this.view.ply; // a game with no move has nothing to replay
    }
    box.querySelector("[data-part=result-title]").textContent = this.resultHeadline();
    box.querySelector("[data-part=result-reason]").textContent = this.resultReason();
    box.querySelector("[data-part=result-match]").textContent = this.matchSummary();
    const next = this.state.match && this.state.match.next_game;
    const nextLink = box.querySelector("[data-part=next-game]");
    const waiting = box.querySelector("[data-part=waiting-next]");
    if (next && !this.matchOver) {
      nextLink.href = this.gameUrl.replace(/\/0\/$/, `/${next}/`);
      nextLink.hidden = false;
      waiting.hidden = true;
    } else {
      nextLink.hidden = true;
      waiting.hidden = this.matchOver;
    }
    return wasHidden;
  }

  renderControls() {
    const s = this.state;
    const undo = this.root.querySelector("[data-action=undo]");
    if (undo) {
      undo.hidden = !(this.isPlayer && !this.gameOver && s.can_undo);
      undo.disabled = Boolean(this.pending);
    }
    const hint = this.root.querySelector("[data-action=hint]");
    if (hint) {
      hint.hidden = !(this.isPlayer && !this.gameOver && s.can_hint);
      hint.disabled = Boolean(this.pending) || Boolean(this.hint && this.hint.version === s.version);
    }
    const abort = this.root.querySelector("[data-action=abort]");
    if (abort) abort.hidden = !(this.isPlayer && !this.gameOver && s.can_abort);
    this.renderRematch();
    this.renderSpectators();
    const canResign = this.isPlayer && !this.gameOver;
    for (const button of this.root.querySelectorAll("[data-resign]")) {
      const scope = button.dataset.resign;
      button.hidden = !this.isPlayer || (scope === "game" ? !canResign : this.matchOver);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Keyboard shortcuts: the side stacks and the center stacks, from the left (the help dialog in
// table.html lists them)
// ---------------------------------------------------------------------------------------------
const SIDE_KEYS = "qwertyuio";
const CENTER_KEYS = "asdfghjkl";

// ---------------------------------------------------------------------------------------------
// The table's settings, remembered in this browser: sound (off unless asked for) and, on a
// touch screen, confirming each move before it goes
// ---------------------------------------------------------------------------------------------
class TableSettings {
  constructor(root) {
    this.inputs = [...root.querySelectorAll("[data-setting]")];
    const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    for (const node of root.querySelectorAll("[data-touch-only]")) node.hidden = !touch;
    for (const input of this.inputs) {
      input.checked = this.get(input.dataset.setting);
      input.addEventListener("change", () => this.set(input.dataset.setting, input.checked));
    }
  }

  get(name) {
    try {
      return window.localStorage.getItem(`spite:table:${name}`) === "on";
    } catch {
      return false;
    }
  }

  set(name, on) {
    try {
      window.localStorage.setItem(`spite:table:${name}`, on ? "on" : "off");
    } catch {
      // storage off: the setting lasts as long as the page
    }
    for (const input of this.inputs) if (input.dataset.setting === name) input.checked = on;
  }
}

// Two short tones made by the browser (Web Audio): nothing to download.
class Sounds {
  constructor(enabled) {
    this.enabled = enabled;
    this.context = null;
  }

  play(kind) {
    if (!this.enabled() || !(window.AudioContext || window.webkitAudioContext)) return;
    try {
      this.context = this.context || new (window.AudioContext || window.webkitAudioContext)();
      const tones = kind === "turn" ? [[660, 0], [880, 0.12]] : [[440, 0]];
      for (const [frequency, delay] of tones) this.tone(frequency, delay);
    } catch {
      // no sound: the table shows and announces the same
    }
  }

  tone(frequency, delay) {
    const ctx = this.context;
    const start = ctx.currentTime + delay;
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.15, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.15);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.16);
  }
}

// ---------------------------------------------------------------------------------------------
function start() {
  const root = document.querySelector("[data-table]");
  if (!root || root.dataset.lesson !== undefined) return; // the lesson's table is lesson.js's
  const script = document.getElementById("initial-state");
  let initial = null;
  if (script) {
    try {
      initial = JSON.parse(script.textContent);
    } catch {
      initial = null;
    }
  }
  window.spiteTable = new Table(root, initial);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

export { t, cardName, splitMove, movedCard, Table };
