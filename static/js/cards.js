// Cards and moves, drawn the same way on the live table (table.js) and the replay (replay.js):
// card names, move texts, and the CSS-drawn faces, backs and piles; and `el`, the element
// builder every page script uses (notify.js and lobby.js too). No build step: an ES module.

// Texts. Every English text a page script shows is written in a TEXT table as
// `gettext_noop("…")`, or `ngettext_lazy("…", "…")` when it holds a count (its singular and
// plural): the two names `manage.py makemessages -d djangojs` (xgettext) extracts, so the texts
// reach locale/<lang>/LC_MESSAGES/djangojs.po. `t(key, params)` and `tn(key, n, params)`
// translate them when they are shown, through Django's JavaScript catalog (/jsi18n/, which
// defines window.gettext and window.ngettext; without it the English stands). `%(name)s`
// placeholders follow Django's `interpolate`; numbers among the params are written the page
// language's way. Each page script adds its own texts with `addTexts`; keys are shared by every
// script on a page, so a key means one text everywhere (tests/test_jsi18n.py checks).
// A `// Translators:` comment right above a text reaches the .po file.

/** Marks one text for extraction; `t` translates it when shown. */
export const gettext_noop = (text) => text;

/** Marks a singular and plural pair for extraction; `tn` picks the form for a count. */
export const ngettext_lazy = (singular, plural) => ({ singular, plural });

export const TEXT = {
  rankA: gettext_noop("Ace"),
  rankJ: gettext_noop("Jack"),
  rankQ: gettext_noop("Queen"),
  rankK: gettext_noop("King"),
  // Translators: "Queen of spades": the suits are lowercase and plural, after "of".
  suitS: gettext_noop("spades"),
  suitH: gettext_noop("hearts"),
  suitD: gettext_noop("diamonds"),
  suitC: gettext_noop("clubs"),
  // Translators: a card's name, "Queen of spades"; rank is a rank's name or 2 to 10.
  card: gettext_noop("%(rank)s of %(suit)s"),
  aCard: gettext_noop("a card"),
  // Translators: where a move took a card from: "You played the 5 of clubs from the hand to center stack 2."
  fromHand: gettext_noop("from the hand"),
  fromPayoff: gettext_noop("from the pay-off pile"),
  fromSide: gettext_noop("from side stack %(n)s"),
  toCenter: gettext_noop("to center stack %(n)s"),
  toSide: gettext_noop("to side stack %(n)s"),
  // Translators: short places in the move list: "hand → center 2".
  shortHand: gettext_noop("hand"),
  shortPayoff: gettext_noop("pay-off"),
  shortSide: gettext_noop("side %(n)s"),
  shortCenter: gettext_noop("center %(n)s"),
  // piles
  // Translators: the caption under a pay-off pile on the table (short).
  payoffShort: gettext_noop("Pay-off"),
  // Translators: the caption under the stock on the table (short).
  stockShort: gettext_noop("Stock"),
  // Translators: the caption under a center stack: the rank it needs next, "needs 5" (short).
  needsShort: gettext_noop("needs %(rank)s"),
  // Translators: the badge on a King on a center stack: the rank it stands for, "K=7" (short).
  kingBadge: gettext_noop("K=%(rank)s"),
  // Translators: a badge beside a bot account's name.
  botBadge: gettext_noop("bot"),
  botBadgeTitle: gettext_noop("A bot account: played by a program"),
};

export function addTexts(more) {
  Object.assign(TEXT, more);
}

/** The page's language (base.html's `<html lang>`), for Intl. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

// Every Intl formatter is made here, with Latin digits 0-9 in every language (Bengali and
// Burmese too: docs/i18n.md's "Digits"): without `numberingSystem` a browser may pick the
// language's own digits, and not every browser the same ones.
const formats = new Map();

/** An Intl formatter (`Intl.NumberFormat`, `Intl.ListFormat`, …) for the page's language. */
export function intlFormat(Kind, options = {}) {
  const language = pageLanguage();
  const key = `${Kind.name} ${language} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    const latin = { ...options, numberingSystem: "latn" };
    try {
      format = new Kind(`${language}-u-nu-latn`, latin);
    } catch {
      format = new Kind("en", latin);
    }
    formats.set(key, format);
  }
  return format;
}

/** A number written the page language's way (grouping, signs) in Latin digits. */
export function formatNumber(value, options = {}) {
  return intlFormat(Intl.NumberFormat, options).format(value);
}

/** Items listed the page language's way, without "and": "5 of clubs, King of hearts".
 * Burmese separates them with "၊" (its comma; the glossary's), which CLDR's list does not. */
export function formatList(items) {
  if (pageLanguage() === "my") return items.join("၊ ");
  try {
    return intlFormat(Intl.ListFormat, { type: "unit", style: "long" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/** "1:05" for 65 seconds. */
export function formatDuration(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const m = Math.floor(whole / 60);
  return `${formatNumber(m)}:${formatNumber(whole % 60, { minimumIntegerDigits: 2 })}`;
}

// Read at call time, not at load: the catalog's classic script runs before the (deferred)
// module scripts, but a page that loads it later still gets its words.
function catalogGettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}

function catalogNgettext(singular, plural, n) {
  if (typeof window.ngettext === "function") return window.ngettext(singular, plural, n);
  return n === 1 ? singular : plural;
}

function fill(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => {
    if (!(name in params)) return "";
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** A text by key, translated but with its placeholders left in (for callers that split it). */
export function template(key, n = null) {
  const text = TEXT[key] ?? key;
  if (typeof text === "object") return catalogNgettext(text.singular, text.plural, Number(n ?? 0));
  return catalogGettext(text);
}

/** A text by key, translated, with `%(name)s` placeholders filled (a plural text counts `params.count`). */
export function t(key, params = {}) {
  return fill(template(key, params.count), params);
}

/** A plural text by key for the count `n` (also `%(count)s` unless params has its own). */
export function tn(key, n, params = {}) {
  return fill(template(key, n), { count: n, ...params });
}

// ---------------------------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------------------------
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_ORDER = "A23456789TJQK";

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** The short rank a center stack standing at `n` shows: 1 → "A", 10 → "10", 11 → "J". */
export function rankAt(n) {
  return rankLabel(RANK_ORDER[n - 1] ?? "?");
}

export function rankName(rank) {
  return { A: t("rankA"), J: t("rankJ"), Q: t("rankQ"), K: t("rankK") }[rank] ?? rankLabel(rank);
}

export function rankNameAt(n) {
  return rankName(RANK_ORDER[n - 1] ?? "?");
}

export function cardName(code) {
  if (!code) return t("aCard");
  return t("card", { rank: rankName(code[0]), suit: t(`suit${code[1]}`) });
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

/**
 * A new element: `el("button", {type: "button", class: "x", text: "Go", "aria-label": …}, …children)`.
 * `class`, `text` and `style` (an object of CSS properties, custom ones too: `{"--n": "3"}`)
 * are set directly, every other key as an attribute;
 * null, undefined and false leave it out, true is "true" for `data-`/`aria-` attributes and
 * empty (present) for the others (`hidden`, `disabled`). Children may be nodes, strings or
 * arrays of them; null, undefined and false are skipped. Shared by every page script.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "style") for (const [property, v] of Object.entries(value)) node.style.setProperty(property, v);
    else if (value === true) node.setAttribute(name, name.startsWith("data-") || name.startsWith("aria-") ? "true" : "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// People: a name in a sentence, and the badge of a bot account
// ---------------------------------------------------------------------------------------------

/** The "bot" badge beside a bot account's name: the markup of the pages' `{% bot_badge %}`
 * (accounts/templatetags/players.py), made in this one place for every page script. */
export function botBadge() {
  return el("span", { class: "badge-bot", title: t("botBadgeTitle") }, t("botBadge"));
}

/**
 * A translated text (`template(key)`) whose `%(name)s` is a person as every frame carries one
 * (`{username, name, is_bot}`), as parts for `el` or `append`: the words, the name (or
 * `name`, a node such as a link to the profile), then `botBadge()` when the person is a bot
 * account — where the server's pages put it. Other placeholders are filled from `params`.
 * Fresh nodes on every call (a node can stand in one place only).
 */
export function withPerson(sentence, who, { params = {}, name = null } = {}) {
  const [before, after = ""] = sentence.split("%(name)s");
  const parts = [fill(before, params), name ?? who.name];
  if (who.is_bot) parts.push(" ", botBadge());
  parts.push(fill(after, params));
  return parts.filter((part) => part !== "");
}

/** A face-up card drawn in CSS: rank and suit in the corner (visible when fanned), a big pip. */
export function cardFace(code) {
  const rank = rankLabel(code[0]);
  const suit = SUIT_SYMBOL[code[1]];
  return el(
    "span",
    { class: `pc-card${isRed(code) ? " is-red" : ""}`, "data-card": code, "aria-hidden": "true" },
    el("span", { class: "pc-corner" }, rank, el("span", { class: "pc-suit" }, suit)),
    el("span", { class: "pc-pip" }, code[0] === "K" || code[0] === "Q" || code[0] === "J" ? rank : suit),
  );
}

export function cardBack() {
  return el("span", { class: "pc-card pc-back", "aria-hidden": "true" });
}

export function cardEmpty() {
  return el("span", { class: "pc-card pc-empty", "aria-hidden": "true" });
}

// ---------------------------------------------------------------------------------------------
// Moves (text grammar from ENGINE.md: `<from>-<to>`, from p | sN | h:XX, to cN | sN)
// ---------------------------------------------------------------------------------------------
export function splitMove(text) {
  const cut = text.lastIndexOf("-");
  return [text.slice(0, cut), text.slice(cut + 1)];
}

export function fromText(src, short = false) {
  if (src.startsWith("h:")) return t(short ? "shortHand" : "fromHand");
  if (src === "p") return t(short ? "shortPayoff" : "fromPayoff");
  return t(short ? "shortSide" : "fromSide", { n: Number(src.slice(1)) });
}

export function toText(tgt, short = false) {
  const n = Number(tgt.slice(1));
  if (tgt.startsWith("c")) return t(short ? "shortCenter" : "toCenter", { n });
  return t(short ? "shortSide" : "toSide", { n });
}

/** The card a move moved: read from the move text, else from the views before and after it. */
export function movedCard(move, seat, before, after) {
  const [src, tgt] = splitMove(move);
  if (src.startsWith("h:")) return src.slice(2);
  if (before) {
    const p = before.players[seat];
    if (src === "p" && p.payoff_top) return p.payoff_top;
    if (src.startsWith("s")) {
      const side = p.sides[Number(src.slice(1)) - 1];
      if (side && side.length) return side[side.length - 1];
    }
  }
  if (after && tgt.startsWith("c")) {
    const stack = after.center[Number(tgt.slice(1)) - 1];
    if (stack && stack.cards.length) return stack.cards[stack.cards.length - 1];
  }
  return null;
}


// ---------------------------------------------------------------------------------------------
// Piles: the drawn contents of a place on the table, shared by the table and the replay.
// ---------------------------------------------------------------------------------------------
/** A pay-off pile: its top card face up (or an empty place), its count and caption. */
export function payoffContent(top, size) {
  return [
    el("span", { class: `pile pile-payoff${size > 1 ? " has-depth" : ""}`, "data-pile": "payoff" }, top ? cardFace(top) : cardEmpty()),
    el("span", { class: "pile-count", "aria-hidden": "true" }, formatNumber(size)),
    el("span", { class: "slot-caption", "aria-hidden": "true" }, t("payoffShort")),
  ];
}

/** How many cards of a side stack show in full (their corners, and the top card whole). */
export const FAN_SHOWN = 3;

/**
 * A side stack fanned downwards: its top FAN_SHOWN cards show their corners (the top card
 * whole), the ones under them only as edges sharing a few pixels, so a fan never grows past
 * a fixed height (table.css: --fan-max); a count says how many cards it holds.
 */
export function sideFan(cards, key) {
  const edges = Math.max(0, cards.length - FAN_SHOWN);
  const faces = cards.map((c, i) => {
    const face = cardFace(c);
    if (i < edges) face.classList.add("is-edge");
    return face;
  });
  const fan = el(
    "span",
    { class: "pile pile-fan", "data-pile": key, style: { "--fan-edges": String(Math.max(edges, 1)) } },
    cards.length ? faces : [cardEmpty()],
  );
  if (!edges) return fan;
  return el("span", { class: "fan-box" }, fan, el("span", { class: "pile-count fan-count", "aria-hidden": "true" }, formatNumber(cards.length)));
}

/** The stock: a back (or an empty place) and how many cards it holds; never its cards. */
export function stockContent(size) {
  return [
    el("span", { class: `pile${size > 1 ? " has-depth" : ""}` }, size ? cardBack() : cardEmpty()),
    el("span", { class: "pile-count", "aria-hidden": "true" }, formatNumber(size)),
    el("span", { class: "slot-caption", "aria-hidden": "true" }, t("stockShort")),
  ];
}

/** A center stack: its top card, a King's stand-in rank, and what it needs next. */
export function centerContent(stack, key) {
  const cards = stack.cards;
  const at = stack.stands_for;
  const topCard = cards[cards.length - 1];
  const pile = el("span", { class: `pile pile-center${cards.length > 1 ? " has-depth" : ""}`, "data-pile": key }, cards.length ? [cardFace(topCard)] : [cardEmpty()]);
  const badge = topCard && topCard[0] === "K" ? el("span", { class: "king-badge", "aria-hidden": "true" }, t("kingBadge", { rank: rankAt(at) })) : null;
  const caption = el(
    "span",
    { class: "slot-caption", "aria-hidden": "true" },
    cards.length ? t("needsShort", { rank: at >= 12 ? "–" : rankAt(at + 1) }) : t("needsShort", { rank: "A" }),
  );
  return [pile, badge, caption];
}
