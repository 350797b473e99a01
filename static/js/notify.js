// Live notices for a logged-in player, on every page: one WebSocket to /ws/me/ (docs/protocol.md,
// "The per-user socket"). A challenge received shows as a card with Accept and Decline; when a
// match of yours starts (your challenge accepted, your seek taken, or you accepted), the page goes
// to its table, unless this browser has opened that table already. Your turn in a game of
// another match than the table in front shows a notice with a link to its table (`game_started`
// and the `games` list are left to page scripts and programs); so does a tournament round of
// yours being paired, with "Play your match". Every frame is also dispatched as
// a `spite:me` event on `document`, so a page script (lobby.js) can keep its own lists live
// without a second socket. No build step.

import { addTexts, el, gettext_noop, ngettext_lazy, t, template, tn, withPerson } from "./cards.js";
import { Socket } from "./socket.js";

// ---------------------------------------------------------------------------------------------
// Texts: every word shown (cards.js's TEXT, shared with the page's own script; `notify` keys).
// ---------------------------------------------------------------------------------------------
addTexts({
  challengesYou: gettext_noop("%(name)s challenges you"),
  // Translators: said to screen readers; rules is the challenge's rules, "House rules, first to 50 points".
  notifyChallengeAnnounce: gettext_noop("%(name)s challenges you to a match: %(rules)s. Accept or decline in the notifications."),
  accept: gettext_noop("Accept"),
  decline: gettext_noop("Decline"),
  // Translators: the label of a notice's × button.
  notifyDismiss: gettext_noop("Dismiss"),
  acceptLabel: gettext_noop("Accept %(name)s's challenge"),
  declineLabel: gettext_noop("Decline %(name)s's challenge"),
  // Translators: count is whole minutes ("min" for minutes).
  expiresIn: ngettext_lazy("expires in %(count)s min", "expires in %(count)s min"),
  expiresSoon: gettext_noop("expires in less than a minute"),
  notifyDeclined: gettext_noop("%(name)s declined your challenge."),
  notifyExpiredSent: gettext_noop("Your challenge to %(name)s expired."),
  notifyCancelledReceived: gettext_noop("%(name)s withdrew the challenge."),
  notifyStarting: gettext_noop("Your match with %(name)s starts: going to the table…"),
  notifyStartingPlain: gettext_noop("Your match starts: going to the table…"),
  notifyYourTurn: gettext_noop("It is your turn in another game."),
  notifyGoToTable: gettext_noop("Go to the table"),
  // Translators: a notice; round is the round's number, tournament the tournament's name, name the opponent.
  notifyPaired: gettext_noop("Round %(round)s of %(tournament)s is paired: you play %(name)s."),
  notifyPairedBye: gettext_noop("Round %(round)s of %(tournament)s is paired: you have a bye."),
  notifyPlayYourMatch: gettext_noop("Play your match"),
  notifySeeTournament: gettext_noop("See the tournament"),
});

const INFO_LIFETIME = 15000; // ms an information notice stays before it goes by itself
const TICK = 15000; // ms between refreshes of the "expires in" texts

function expiryText(iso) {
  const left = Date.parse(iso) - Date.now();
  if (left < 60000) return t("expiresSoon");
  return tn("expiresIn", Math.floor(left / 60000));
}

// The tables this browser has opened lately (their addresses), so a match's start that the
// server says again (docs/protocol.md: on connect, for LOBBY_TABLE_WAITING seconds) takes a
// player only to a table they have not sat at yet.
const OPENED_KEY = "spite:tables-opened";
const OPENED_KEEP = 20;

function tablesOpened() {
  try {
    const list = JSON.parse(window.localStorage.getItem(OPENED_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return []; // storage off or unreadable: every start counts as new
  }
}

function rememberTableOpened(url) {
  const list = [url, ...tablesOpened().filter((known) => known !== url)].slice(0, OPENED_KEEP);
  try {
    window.localStorage.setItem(OPENED_KEY, JSON.stringify(list));
  } catch {
    // storage off: nothing to remember
  }
}

function csrfToken() {
  const found = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
}

class Notifier {
  constructor(root) {
    this.root = root;
    this.wsPath = root.dataset.notifyWs;
    this.me = root.dataset.username;
    this.list = root.querySelector('[data-part="notices"]');
    this.announcer = root.querySelector('[data-part="announce"]');
    this.socket = null;
    this.answering = null; // the id of the challenge whose answer is on its way
    this.leaving = false; // on the way to a table: a second word of it (the lists) changes nothing
    this.frames = 0;
    if (document.querySelector("[data-table]")) rememberTableOpened(window.location.pathname);
    window.setInterval(() => this.tick(), TICK);
    this.connect();
  }

  // ---- socket -------------------------------------------------------------------------------
  connect() {
    this.socket = new Socket(this.wsPath, {
      onFrame: (frame) => {
        this.frames += 1;
        this.receive(frame);
        document.dispatchEvent(new CustomEvent("spite:me", { detail: frame }));
      },
      onOpen: () => {
        if (document.querySelector("[data-seeks]")) this.send({ type: "watch_seeks" });
        if (document.querySelector("[data-online]")) this.send({ type: "watch_online" });
      },
      onStatus: (status) => {
        if (status !== "connecting") this.root.dataset.state = status === "open" ? "open" : "closed";
      },
      finalCodes: [4401], // logged out: nothing to reconnect to
      baseDelay: 1000,
      maxDelay: 30000,
    });
  }

  send(frame) {
    return Boolean(this.socket && this.socket.send(frame));
  }

  // ---- frames -------------------------------------------------------------------------------
  receive(frame) {
    switch (frame.type) {
      case "challenges":
        this.showPending(frame.challenges || []);
        break;
      case "challenge":
        this.challengeChanged(frame);
        break;
      case "challenge_accepted":
      case "seek_taken":
        this.matchStarts(frame);
        break;
      case "your_turn":
        this.yourTurn(frame);
        break;
      case "tournament_paired":
        this.roundPaired(frame);
        break;
      case "error":
        this.showError(frame);
        break;
      default:
        break;
    }
  }

  showPending(challenges) {
    const received = challenges.filter((c) => c.state === "received");
    const ids = new Set(received.map((c) => String(c.id)));
    for (const card of this.list.querySelectorAll("[data-challenge]")) {
      if (!ids.has(card.dataset.challenge)) this.remove(card);
    }
    for (const challenge of received) this.showChallenge(challenge, { announce: false });
  }

  challengeChanged(c) {
    if (c.state === "received") {
      this.showChallenge(c, { announce: true });
      return;
    }
    const card = this.card(c.id);
    if (card) this.remove(card);
    const mine = c.from && c.from.username === this.me;
    const about = (key, who) => this.info(() => withPerson(template(key), who));
    if (mine && c.state === "declined") about("notifyDeclined", c.to);
    else if (mine && c.state === "expired") about("notifyExpiredSent", c.to);
    else if (!mine && c.state === "cancelled" && card) about("notifyCancelledReceived", c.from);
  }

  matchStarts(frame) {
    if (this.leaving) return; // a second navigation would abort the first
    if (frame.url && tablesOpened().includes(frame.url)) return; // sat there already
    const other = frame.type === "seek_taken"
      ? (frame.owner && frame.owner.username === this.me ? frame.taker : frame.owner)
      : null;
    const card = frame.challenge ? this.card(frame.challenge) : null;
    const who = other || (card ? { name: card.dataset.name, is_bot: card.dataset.bot === "true" } : null);
    if (card) this.remove(card);
    if (who && who.name) this.say(...withPerson(template("notifyStarting"), who));
    else this.say(t("notifyStartingPlain"));
    if (!frame.url || window.location.pathname === frame.url) return;
    this.leaving = true;
    this.socket.stop(); // leaving the page: no reconnecting on the way out
    window.location.assign(frame.url);
  }

  yourTurn(frame) {
    if (!frame.url || window.location.pathname === frame.url) return; // the table shows it
    const table = document.querySelector("[data-table]");
    if (table && table.dataset.match === String(frame.match)) return; // its next game: the table links it
    const game = String(frame.game);
    if (this.list.querySelector(`[data-turn="${CSS.escape(game)}"]`)) return; // told already
    const close = el("button", { type: "button", class: "notice-close", "aria-label": t("notifyDismiss"), text: "×" });
    const card = el(
      "li",
      { class: "notice notice-info", "data-turn": game },
      el("p", { text: t("notifyYourTurn") }),
      el("p", {}, el("a", { href: frame.url, text: t("notifyGoToTable") })),
      close,
    );
    close.addEventListener("click", () => this.remove(card));
    this.list.prepend(card);
    this.say(t("notifyYourTurn"));
  }

  // A tournament round of yours is paired: a notice that stays until dismissed, with the way
  // to your match (or to the tournament, for a bye).
  roundPaired(frame) {
    if (window.location.pathname === frame.url) return; // at that table already
    const key = `${frame.league}/${frame.tournament}/${frame.round}`;
    if (this.list.querySelector(`[data-paired="${CSS.escape(key)}"]`)) return; // told already
    const params = { round: frame.round, tournament: frame.name };
    const words = () => (frame.opponent ? withPerson(template("notifyPaired"), frame.opponent, { params }) : [t("notifyPairedBye", params)]);
    const close = el("button", { type: "button", class: "notice-close", "aria-label": t("notifyDismiss"), text: "×" });
    const card = el(
      "li",
      { class: "notice notice-info", "data-paired": key },
      el("p", {}, words()),
      el("p", {}, el("a", { href: frame.url, text: t(frame.game ? "notifyPlayYourMatch" : "notifySeeTournament") })),
      close,
    );
    close.addEventListener("click", () => this.remove(card));
    this.list.prepend(card);
    this.say(...words());
  }

  showError(frame) {
    const card = this.answering !== null ? this.card(this.answering) : null;
    this.answering = null;
    if (!card) return; // errors for a page script (lobby.js) are its own to show
    const note = card.querySelector(".notice-error");
    note.textContent = frame.message || frame.code;
    note.hidden = false;
    for (const button of card.querySelectorAll("button")) button.disabled = false;
  }

  // ---- cards --------------------------------------------------------------------------------
  card(id) {
    return this.list.querySelector(`[data-challenge="${CSS.escape(String(id))}"]`);
  }

  showChallenge(c, { announce }) {
    if (Date.parse(c.expires_at) <= Date.now() || this.card(c.id)) return;
    const titleId = `notice-${c.id}-title`;
    const button = (answer, className) => {
      const label = t(`${answer}Label`, { name: c.from.name });
      const node = el("button", { type: "button", class: className, "data-answer": answer, "aria-label": label, text: t(answer) });
      node.addEventListener("click", () => this.answer(c.id, answer === "accept"));
      return node;
    };
    const accept = button("accept", "button");
    const decline = button("decline", "button-secondary");
    // The list item stays a list item (axe: a list holds only items); the group it holds
    // names the notice for the buttons inside it.
    const card = el(
      "li",
      {
        class: "notice notice-challenge",
        "data-challenge": String(c.id),
        "data-name": c.from.name,
        "data-bot": Boolean(c.from.is_bot),
        "data-expires": c.expires_at,
      },
      el(
        "div",
        { role: "group", "aria-labelledby": titleId },
        el(
          "p",
          { class: "notice-title", id: titleId },
          withPerson(template("challengesYou"), c.from),
        ),
        el("p", { class: "notice-rules", text: c.summary }),
        el("p", { class: "notice-when", "data-part": "expiry", text: expiryText(c.expires_at) }),
        el("div", { class: "notice-actions" }, accept, decline),
        el("p", { class: "notice-error", role: "alert", hidden: true }),
      ),
    );
    this.list.prepend(card);
    if (announce) this.say(...withPerson(template("notifyChallengeAnnounce"), c.from, { params: { rules: c.summary } }));
  }

  answer(id, accept) {
    const card = this.card(id);
    if (!card) return;
    for (const button of card.querySelectorAll("button")) button.disabled = true;
    this.answering = id;
    if (this.send({ type: "challenge_answer", id, accept })) return;
    // No socket right now: answer with an ordinary form post (what the lobby page does).
    const template = accept ? this.root.dataset.acceptUrl : this.root.dataset.declineUrl;
    const form = el("form", { method: "post", action: template.replace("/0/", `/${id}/`) });
    form.append(el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }));
    document.body.append(form);
    form.submit();
  }

  /** A notice that goes by itself; `words` is its text, or a function giving its parts (a
   * name with its bot badge: fresh nodes for the notice and for the announcement). */
  info(words) {
    const parts = () => (typeof words === "function" ? words() : [words]);
    const close = el("button", { type: "button", class: "notice-close", "aria-label": t("notifyDismiss"), text: "×" });
    const card = el("li", { class: "notice notice-info" }, el("p", {}, parts()), close);
    close.addEventListener("click", () => this.remove(card));
    this.list.prepend(card);
    this.say(...parts());
    window.setTimeout(() => {
      if (!card.contains(document.activeElement)) this.remove(card);
    }, INFO_LIFETIME);
  }

  remove(card) {
    if (!card.isConnected) return;
    const hadFocus = card.contains(document.activeElement);
    const next = card.nextElementSibling || card.previousElementSibling;
    card.remove();
    if (hadFocus && next) {
      const target = next.querySelector("button");
      if (target) target.focus();
    }
  }

  /** Says `parts` (text, or nodes: a name with its bot badge) in the live region. */
  say(...parts) {
    // Clear first, so the same words said twice are announced twice.
    this.announcer.textContent = "";
    window.setTimeout(() => {
      this.announcer.replaceChildren(...parts);
    }, 50);
  }

  tick() {
    for (const card of this.list.querySelectorAll("[data-challenge]")) {
      if (Date.parse(card.dataset.expires) <= Date.now()) {
        this.remove(card);
        continue;
      }
      const when = card.querySelector('[data-part="expiry"]');
      if (when) when.textContent = expiryText(card.dataset.expires);
    }
  }
}

const root = document.querySelector("[data-notify]");
if (root) window.spiteNotify = new Notifier(root);
