// The table's turn clock and the players' presence (docs/protocol.md: the state frame's `clock`
// and `presence`, the `presence` frame). The server decides every deadline; this only counts
// down to it on the browser's clock, corrected by the server's `now` sent with each frame, and
// starts again from every state frame.

import { addTexts, formatDuration, formatList, gettext_noop, ngettext_lazy, t, tn } from "./cards.js";

addTexts({
  // Translators: the running turn clock; time is minutes:seconds, "1:05".
  clockYou: gettext_noop("Your time: %(time)s"),
  clockThem: gettext_noop("%(name)s's time: %(time)s"),
  // Translators: list is one "name count" pair per player ("You 1, Bruno 2"); count is how many timeouts in a row lose the match.
  timeoutsLine: ngettext_lazy(
    "Timed out in a row: %(list)s. %(count)s in a row forfeits the match.",
    "Timed out in a row: %(list)s. %(count)s in a row forfeit the match.",
  ),
  // Translators: one player's timeouts in a row in the list of "Timed out in a row: …": "Bruno 2".
  timeoutsOf: gettext_noop("%(name)s %(n)s"),
  // Translators: n is the seconds left for the opponent to come back ("s" for seconds).
  opponentAway: gettext_noop("Opponent disconnected — %(n)s s to return"),
  opponentAwayOpen: gettext_noop("Opponent disconnected"),
  seatAway: gettext_noop("%(name)s disconnected — %(n)s s to return"),
  seatAwayOpen: gettext_noop("%(name)s disconnected"),
});

/** Seconds from the warning colour on. */
const WARN_BELOW = 10;

export class TableClock {
  /**
   * root: the table's element; name(seat) and me() come from the table (me() is the viewer's
   * seat, or null for a spectator).
   */
  constructor(root, { name, me }) {
    this.root = root;
    this.name = name;
    this.me = me;
    this.clock = null; // the state frame's `clock`
    this.toMove = null;
    this.presence = null; // [{connected, grace_ends_at}, …] or null
    this.offset = 0; // server time minus browser time, in ms
    this.timer = null;
  }

  part(name) {
    return this.root.querySelector(`[data-part="${name}"]`);
  }

  /** Take the server's time from a frame's `now`. */
  resync(now) {
    const server = Date.parse(now || "");
    if (!Number.isNaN(server)) this.offset = server - Date.now();
  }

  /** Whole seconds left until an ISO time, on the server's clock (never below 0). */
  left(iso) {
    const until = Date.parse(iso) - (Date.now() + this.offset);
    return Math.max(0, Math.ceil(until / 1000));
  }

  /** A state frame: the clock and presence start again from it. */
  fromState(frame) {
    this.clock = frame.clock || null;
    this.presence = Array.isArray(frame.presence) ? frame.presence.map((p) => ({ ...p })) : null;
    const active = frame.game ? frame.game.status === "active" : true;
    this.toMove = active && frame.view && !frame.view.outcome ? frame.view.to_move : null;
    if (this.clock) this.resync(this.clock.now);
    this.tick();
  }

  /** A `presence` frame: one seat came back or went away. */
  onPresence(frame) {
    if (!this.presence) this.presence = [{ connected: true, grace_ends_at: null }, { connected: true, grace_ends_at: null }];
    this.presence[frame.seat] = { connected: frame.connected, grace_ends_at: frame.grace_ends_at };
    this.resync(frame.now);
    this.tick();
  }

  tick() {
    const counting = this.renderClock() | this.renderPresence();
    this.renderTimeouts();
    if (counting && !this.timer) this.timer = window.setInterval(() => this.tick(), 1000);
    if (!counting && this.timer) {
      window.clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** The running clock of the seat to move; true while it counts. */
  renderClock() {
    const node = this.part("clock");
    if (!node) return false;
    const deadline = this.clock && this.clock.turn_deadline;
    if (!deadline || this.toMove === null) {
      node.hidden = true;
      return false;
    }
    const seconds = this.left(deadline);
    const time = formatDuration(seconds);
    node.textContent = this.toMove === this.me() ? t("clockYou", { time }) : t("clockThem", { name: this.name(this.toMove), time });
    node.dataset.seat = String(this.toMove);
    node.dataset.warn = seconds < WARN_BELOW ? "true" : "false";
    node.dataset.seconds = String(seconds);
    node.hidden = false;
    return seconds > 0;
  }

  renderTimeouts() {
    const node = this.part("timeouts");
    if (!node) return;
    const counts = this.clock && this.clock.timeouts;
    if (!counts || !counts.some((n) => n > 0)) {
      node.hidden = true;
      return;
    }
    const me = this.me();
    const list = [0, 1].map((seat) => t("timeoutsOf", { name: seat === me ? t("you") : this.name(seat), n: counts[seat] }));
    node.textContent = tn("timeoutsLine", this.clock.max_timeouts || 3, { list: formatList(list) });
    node.hidden = false;
  }

  /** "Opponent disconnected — N s to return" (a spectator reads the name); true while a grace
   *  counts down. */
  renderPresence() {
    const node = this.part("presence");
    if (!node) return false;
    const me = this.me();
    const lines = [];
    let counting = false;
    for (const seat of [0, 1]) {
      const p = this.presence && this.presence[seat];
      if (!p || p.connected || seat === me) continue;
      const opponent = me === 0 || me === 1;
      if (p.grace_ends_at) {
        const n = this.left(p.grace_ends_at);
        counting = counting || n > 0;
        lines.push(opponent ? t("opponentAway", { n }) : t("seatAway", { name: this.name(seat), n }));
      } else {
        lines.push(opponent ? t("opponentAwayOpen") : t("seatAwayOpen", { name: this.name(seat) }));
      }
    }
    node.textContent = lines.join(" · ");
    node.hidden = lines.length === 0;
    return counting;
  }
}
