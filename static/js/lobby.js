// The people lobby (/play/people/): keeps the open seeks, who is online and your pending
// challenges live. It opens no socket of its own: notify.js (on every logged-in page) holds
// /ws/me/, asks for the seeks and who is online when it sees this page's lists ([data-seeks],
// [data-online]), and dispatches each frame as a `spite:me` event. Every action stays an
// ordinary POST form, as the server rendered it, so the page works the same without
// JavaScript. No build step.

import { addTexts, el, gettext_noop, ngettext_lazy, t, template, tn, withPerson } from "./cards.js";
import "./copy.js"; // the links' Copy buttons

addTexts({
  yourSeek: gettext_noop("Your seek"),
  take: gettext_noop("Take"),
  // Translators: the "Take" button's name for screen readers.
  takeSeekLabel: gettext_noop("Take %(name)s's seek"),
  cancel: gettext_noop("Cancel"),
  // Translators: the "Cancel" button's name for screen readers.
  cancelSeekLabel: gettext_noop("Cancel your seek"),
  accept: gettext_noop("Accept"),
  decline: gettext_noop("Decline"),
  // Translators: name becomes a link to the player's profile.
  challengesYou: gettext_noop("%(name)s challenges you"),
  // Translators: name becomes a link to the player's profile.
  youChallenged: gettext_noop("You challenged %(name)s"),
  // Translators: count is whole minutes ("min" for minutes).
  expiresIn: ngettext_lazy("expires in %(count)s min", "expires in %(count)s min"),
  expiresSoon: gettext_noop("expires in less than a minute"),
  // Translators: said to screen readers; rules is the seek's rules, "House rules, first to 50 points".
  newSeek: gettext_noop("New seek by %(name)s: %(rules)s."),
  // Translators: the one-click "Challenge" button's name for screen readers.
  challengeLabel: gettext_noop("Challenge %(name)s"),
  // Translators: shown under the list of who is online when it is cut short.
  onlineMore: ngettext_lazy(
    "%(count)s player online: search for anyone by name.",
    "%(count)s players online, not all listed: search for anyone by name.",
  ),
});

const TICK = 15000;

function expiryText(iso) {
  const left = Date.parse(iso) - Date.now();
  if (left < 60000) return t("expiresSoon");
  return tn("expiresIn", Math.floor(left / 60000));
}

class PeopleLobby {
  constructor(root) {
    this.root = root;
    this.csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
    this.$ = (name) => root.querySelector(`[data-part="${name}"]`);
    this.seekIds = null; // the ids last shown, to announce newcomers
    this.challenges = null; // id -> pending challenge, once the socket sent the list
    document.addEventListener("spite:me", (event) => this.receive(event.detail));
    window.setInterval(() => this.tick(), TICK);
  }

  url(name, id) {
    return this.root.dataset[name].replace("/0/", `/${id}/`);
  }

  profile(username) {
    return this.root.dataset.profileUrl.replace("USERNAME", encodeURIComponent(username));
  }

  // A sentence with the player's name as a link to their profile (and the bot badge of a bot
  // account, cards.js's withPerson), then @username if it differs.
  person(sentence, who) {
    const nodes = withPerson(sentence, who, { name: el("a", { href: this.profile(who.username), text: who.name }) });
    if (who.name !== who.username) nodes.push(" ", el("span", { class: "lobby-username", text: `@${who.username}` }));
    return nodes;
  }

  /** A one-button form; `spoken` is the button's whole name for screen readers, when the
   * visible word alone ("Take") does not say what it acts on. */
  form(action, label, className, spoken = "") {
    const button = el("button", { type: "submit", class: className, text: label });
    if (spoken) button.setAttribute("aria-label", spoken);
    return el(
      "form",
      { method: "post", action, class: "inline-form" },
      el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: this.csrf }),
      button,
    );
  }

  receive(frame) {
    if (frame.type === "online") this.showOnline(frame.players || [], frame.count || 0);
    else if (frame.type === "seeks") this.showSeeks(frame.seeks || []);
    else if (frame.type === "challenges") this.showChallenges(frame.challenges || []);
    else if (frame.type === "challenge") this.challengeChanged(frame);
  }

  // ---- seeks --------------------------------------------------------------------------------
  showSeeks(seeks) {
    const list = this.$("seeks");
    const live = seeks.filter((s) => Date.parse(s.expires_at) > Date.now());
    const items = live.map((seek) => this.seekItem(seek));
    this.keepFocus(list, "seek", () => list.replaceChildren(...items));
    this.$("seeks-empty").hidden = live.length > 0;
    const ids = new Set(live.map((s) => s.id));
    if (this.seekIds) {
      const fresh = live.find((s) => !this.seekIds.has(s.id) && !s.mine);
      if (fresh) this.say(...withPerson(template("newSeek"), fresh.owner, { params: { rules: fresh.summary } }));
    }
    this.seekIds = ids;
  }

  seekItem(seek) {
    const who = el("div", { class: "lobby-who" });
    if (seek.mine) who.textContent = t("yourSeek");
    else who.append(...this.person("%(name)s", seek.owner));
    const action = seek.mine
      ? this.form(this.url("cancelSeekUrl", seek.id), t("cancel"), "button-secondary", t("cancelSeekLabel"))
      : this.form(this.url("takeUrl", seek.id), t("take"), "button", t("takeSeekLabel", { name: seek.owner.name }));
    return el(
      "li",
      { class: "lobby-item", "data-seek": String(seek.id) },
      el(
        "div",
        { class: "lobby-item-text" },
        who,
        el("div", { class: "lobby-rules", text: seek.summary }),
        el("div", { class: "lobby-when muted" }, el("time", { datetime: seek.expires_at, "data-expires": seek.expires_at, text: expiryText(seek.expires_at) })),
      ),
      el("div", { class: "lobby-item-actions" }, action),
    );
  }

  // ---- who is online -------------------------------------------------------------------------
  showOnline(players, count) {
    const list = this.$("online");
    if (!list) return;
    // A redraw keeps the rules a player chose in a row's select.
    const chosen = new Map(
      [...list.querySelectorAll("[data-person]")].map((item) => [item.dataset.person, item.querySelector("select").value]),
    );
    const items = players.map((who) => this.personItem(who, chosen.get(who.username)));
    this.keepFocus(list, "person", () => list.replaceChildren(...items));
    this.$("online-empty").hidden = players.length > 0;
    const more = this.$("online-more");
    more.hidden = count <= players.length;
    more.textContent = tn("onlineMore", count);
  }

  personItem(who, preset) {
    const line = el("div", { class: "lobby-who" }, ...this.person("%(name)s", who));
    // The country by its name in the reader's language (the socket's); the flag only beside it.
    const country = who.country_name
      ? el("div", { class: "lobby-when lobby-country muted" }, who.flag ? [el("span", { class: "flag", "aria-hidden": "true", text: who.flag }), " "] : [], who.country_name)
      : null;
    const form = this.$("quick-template").content.firstElementChild.cloneNode(true);
    form.querySelector('[data-part="quick-username"]').value = who.username;
    form.querySelector('[data-part="quick-button"]').setAttribute("aria-label", t("challengeLabel", { name: who.name }));
    if (preset) form.querySelector("select").value = preset;
    return el(
      "li",
      { class: "lobby-item", "data-person": who.username },
      el("div", { class: "lobby-item-text" }, line, country),
      el("div", { class: "lobby-item-actions" }, form),
    );
  }

  // ---- challenges ---------------------------------------------------------------------------
  showChallenges(challenges) {
    this.challenges = new Map(challenges.map((c) => [String(c.id), c]));
    this.renderChallenges();
  }

  challengeChanged(c) {
    if (!this.challenges) return; // the full list comes first on every connection
    if (c.state === "received" || c.state === "sent") this.challenges.set(String(c.id), c);
    else this.challenges.delete(String(c.id));
    this.renderChallenges();
  }

  renderChallenges() {
    const all = [...this.challenges.values()].filter((c) => Date.parse(c.expires_at) > Date.now());
    const received = all.filter((c) => c.state === "received");
    const sent = all.filter((c) => c.state === "sent");
    const receivedList = this.$("received");
    const sentList = this.$("sent");
    this.keepFocus(receivedList, "challenge", () =>
      receivedList.replaceChildren(...received.map((c) => this.challengeItem(c, true))),
    );
    this.$("received-card").hidden = received.length === 0;
    this.keepFocus(sentList, "challenge", () => sentList.replaceChildren(...sent.map((c) => this.challengeItem(c, false))));
    this.$("sent-empty").hidden = sent.length > 0 || this.$("links").children.length > 0;
  }

  challengeItem(c, received) {
    const other = received ? c.from : c.to;
    const who = el("div", { class: "lobby-who" }, ...this.person(template(received ? "challengesYou" : "youChallenged"), other));
    const actions = received
      ? [
          this.form(this.url("acceptUrl", c.id), t("accept"), "button"),
          this.form(this.url("declineUrl", c.id), t("decline"), "button-secondary"),
        ]
      : [this.form(this.url("cancelChallengeUrl", c.id), t("cancel"), "button-secondary")];
    return el(
      "li",
      { class: "lobby-item", "data-challenge": String(c.id) },
      el(
        "div",
        { class: "lobby-item-text" },
        who,
        el("div", { class: "lobby-rules", text: c.summary }),
        el("div", { class: "lobby-when muted" }, el("time", { datetime: c.expires_at, "data-expires": c.expires_at, text: expiryText(c.expires_at) })),
      ),
      el("div", { class: "lobby-item-actions" }, ...actions),
    );
  }

  // A redraw must not throw away keyboard focus: put it back on the same button of the same
  // item (by its data-seek / data-challenge id) when that item is still listed.
  keepFocus(list, key, redraw) {
    const active = document.activeElement;
    const item = active && list.contains(active) ? active.closest(`[data-${key}]`) : null;
    const buttons = item ? [...item.querySelectorAll("button")] : [];
    const index = buttons.indexOf(active);
    redraw();
    if (!item) return;
    const again = list.querySelector(`[data-${key}="${CSS.escape(item.dataset[key])}"]`);
    const target = again ? again.querySelectorAll("button")[Math.max(index, 0)] : list.closest("section").querySelector("h2");
    if (target) {
      if (target.tagName === "H2") target.setAttribute("tabindex", "-1");
      target.focus();
    }
  }

  // ---- time ---------------------------------------------------------------------------------
  tick() {
    for (const time of this.root.querySelectorAll("time[data-expires]")) {
      const item = time.closest("li");
      if (Date.parse(time.dataset.expires) <= Date.now()) {
        if (item && !item.contains(document.activeElement)) item.remove();
        continue;
      }
      // A link's day-long expiry keeps the server's words ("expires in 23 hours").
      if (!("fixed" in time.dataset)) time.textContent = expiryText(time.dataset.expires);
    }
    this.$("seeks-empty").hidden = this.$("seeks").children.length > 0;
    this.$("sent-empty").hidden = this.$("sent").children.length + this.$("links").children.length > 0;
    this.$("received-card").hidden = this.$("received").children.length === 0;
  }

  /** Says `parts` (text, or nodes: a name with its bot badge) in the live region. */
  say(...parts) {
    const node = this.$("seeks-status");
    node.textContent = "";
    window.setTimeout(() => {
      node.replaceChildren(...parts);
    }, 50);
  }
}

const root = document.querySelector("[data-people]");
if (root) window.spiteLobby = new PeopleLobby(root);
