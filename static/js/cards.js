// Cards and moves, drawn the same way on the live table (table.js) and the replay (replay.js):
// card names, move texts, and the CSS-drawn faces, backs and piles; and `el`, the element
// builder every page script uses (notify.js and lobby.js too). No build step: an ES module.

// Texts: every word lives in a TEXT table, so the i18n work can route them through Django's
// JavaScript catalog. `%(name)s` placeholders follow Django's `interpolate`. Each page adds its
// own words with `addTexts`.
export const TEXT = {
  rankA: "Ace",
  rankJ: "Jack",
  rankQ: "Queen",
  rankK: "King",
  suitS: "spades",
  suitH: "hearts",
  suitD: "diamonds",
  suitC: "clubs",
  card: "%(rank)s of %(suit)s",
  aCard: "a card",
  fromHand: "from the hand",
  fromPayoff: "from the pay-off pile",
  fromSide: "from side stack %(n)s",
  toCenter: "to center stack %(n)s",
  toSide: "to side stack %(n)s",
  shortHand: "hand",
  shortPayoff: "pay-off",
  shortSide: "side %(n)s",
  shortCenter: "center %(n)s",
  // piles
  payoffShort: "Pay-off",
  stockShort: "Stock",
  needsShort: "needs %(rank)s",
  kingBadge: "K=%(rank)s",
};

export function addTexts(more) {
  Object.assign(TEXT, more);
}

const gettext = typeof window.gettext === "function" ? window.gettext : (s) => s;

/** A text by key, translated, with `%(name)s` placeholders filled. */
export function t(key, params = {}) {
  const template = gettext(TEXT[key] ?? key);
  return template.replace(/%\((\w+)\)s/g, (_, name) => (name in params ? String(params[name]) : ""));
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
 * `class`, `text` and `style` (an object) are set directly, every other key as an attribute;
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
    else if (name === "style") Object.assign(node.style, value);
    else if (value === true) node.setAttribute(name, name.startsWith("data-") || name.startsWith("aria-") ? "true" : "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
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
  return t(short ? "shortSide" : "fromSide", { n: src.slice(1) });
}

export function toText(tgt, short = false) {
  const n = tgt.slice(1);
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
    el("span", { class: "pile-count", "aria-hidden": "true" }, String(size)),
    el("span", { class: "slot-caption", "aria-hidden": "true" }, t("payoffShort")),
  ];
}

/** A side stack fanned so every card shows. */
export function sideFan(cards, key) {
  const fan = el(
    "span",
    { class: "pile pile-fan", "data-pile": key, style: { "--fan-count": String(Math.max(cards.length, 1)) } },
    cards.length ? cards.map((c) => cardFace(c)) : [cardEmpty()],
  );
  if (cards.length > 7) fan.classList.add("is-tight");
  return fan;
}

/** The stock: a back (or an empty place) and how many cards it holds; never its cards. */
export function stockContent(size) {
  return [
    el("span", { class: `pile${size > 1 ? " has-depth" : ""}` }, size ? cardBack() : cardEmpty()),
    el("span", { class: "pile-count", "aria-hidden": "true" }, String(size)),
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
