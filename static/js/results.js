// A game's and a match's result in words, for the live table (table.js) and the replay
// (replay.js). The server says the same sentences on its pages (games/selectors/results.py:
// the history, a league's results, the replay's header).
//
// Every function takes an `end`, what the page knows of the game and its match, in the shape
// of the table's frames (docs/protocol.md):
//   number    the game's number in the match
//   outcome   the game's {winner, points, reason}, or null while it goes on
//   match     {over, reason, winner, scores, target, next_game}: `over` whether the match is
//             over, `next_game` the game after this one (null when this game was the last)
//   me        the reader's seat, or null (a spectator, the replay)
//   names     the two seats' names
//   timeouts  the turns in a row a player ran out of time, for a match forfeited on time
// A match that ends otherwise than at its target says why and who ("Alice resigned: Bruno wins
// the match."): its score would read "Bruno won the match 0–0".

import { addTexts, t, gettext_noop, ngettext_lazy } from "./cards.js";

addTexts({
  // the game
  youWonGame: gettext_noop("You won game %(n)s"),
  theyWonGame: gettext_noop("%(name)s won game %(n)s"),
  tieGame: gettext_noop("Game %(n)s is a tie"),
  gameAborted: gettext_noop("Game %(n)s aborted"),
  reasonPayoff: ngettext_lazy("%(name)s emptied the pay-off pile: %(count)s point.", "%(name)s emptied the pay-off pile: %(count)s points."),
  reasonPayoffYou: ngettext_lazy("You emptied your pay-off pile: %(count)s point.", "You emptied your pay-off pile: %(count)s points."),
  reasonStock: gettext_noop("The stock ran out: nobody scores."),
  // Translators: winner is the winner's name (another player: neither is the reader).
  reasonResigned: ngettext_lazy("%(name)s resigned: %(count)s point to %(winner)s.", "%(name)s resigned: %(count)s points to %(winner)s."),
  reasonResignedToYou: ngettext_lazy("%(name)s resigned: %(count)s point to you.", "%(name)s resigned: %(count)s points to you."),
  // Translators: winner is the winner's name.
  reasonResignedYou: ngettext_lazy("You resigned: %(count)s point to %(winner)s.", "You resigned: %(count)s points to %(winner)s."),
  // the match
  // Translators: a and b are the match's final scores, "50–32".
  youWonMatch: gettext_noop("You won the match %(a)s–%(b)s!"),
  theyWonMatch: gettext_noop("%(name)s won the match %(a)s–%(b)s."),
  // Translators: a and b are the match's scores (yours first), target the score that wins it.
  matchGoesOn: gettext_noop("The match goes on: %(a)s–%(b)s, first to %(target)s."),
  reasonAborted: gettext_noop("The match was called off before both players had moved: no result, no points."),
  // Translators: name resigned the match; winner is the other player's name.
  matchResignedBy: gettext_noop("%(name)s resigned: %(winner)s wins the match."),
  matchResignedByYou: gettext_noop("You resigned: %(winner)s wins the match."),
  matchResignedToYou: gettext_noop("%(name)s resigned: you win the match!"),
  // Translators: the match forfeited on time; count is the turns in a row name ran out of time.
  matchTimeoutBy: ngettext_lazy(
    "%(name)s ran out of time %(count)s turn in a row: %(winner)s wins the match.",
    "%(name)s ran out of time %(count)s turns in a row: %(winner)s wins the match.",
  ),
  matchTimeoutByYou: ngettext_lazy(
    "You ran out of time %(count)s turn in a row: %(winner)s wins the match.",
    "You ran out of time %(count)s turns in a row: %(winner)s wins the match.",
  ),
  matchTimeoutToYou: ngettext_lazy(
    "%(name)s ran out of time %(count)s turn in a row: you win the match!",
    "%(name)s ran out of time %(count)s turns in a row: you win the match!",
  ),
  // Translators: the match forfeited by a player who left the table for too long.
  matchAwayBy: gettext_noop("%(name)s was away longer than the grace period: %(winner)s wins the match."),
  matchAwayByYou: gettext_noop("You were away longer than the grace period: %(winner)s wins the match."),
  matchAwayToYou: gettext_noop("%(name)s was away longer than the grace period: you win the match!"),
});

// The texts of a match that ended otherwise than at its target: [said of others, to the
// loser, to the winner].
const MATCH_ENDS = {
  resigned: ["matchResignedBy", "matchResignedByYou", "matchResignedToYou"],
  timeout: ["matchTimeoutBy", "matchTimeoutByYou", "matchTimeoutToYou"],
  abandoned: ["matchAwayBy", "matchAwayByYou", "matchAwayToYou"],
};

const FORFEITS = new Set(["timeout", "abandoned", "aborted"]);

const isSeat = (seat) => seat === 0 || seat === 1;

/** Whether this game's end was its match's end by a resignation, a forfeit or an abort: the
 * game is then said in the match's words. */
function matchEndedHere(end) {
  const o = end.outcome;
  if (!o) return false;
  if (FORFEITS.has(o.reason)) return true;
  const m = end.match || {};
  return o.reason === "resigned" && Boolean(m.over) && m.reason === "resigned" && !m.next_game;
}

/** The match's end in one sentence: "Alice resigned: Bruno wins the match.", "You won the
 * match 52–11!"; a forfeit's reason and winner come from the game when the match's are not
 * known yet. */
export function matchWords(end) {
  const m = end.match || {};
  const o = end.outcome || {};
  const reason = m.reason || o.reason;
  const winner = isSeat(m.winner) ? m.winner : o.winner;
  if (reason === "aborted" || !isSeat(winner)) return t("reasonAborted");
  const loser = 1 - winner;
  const texts = MATCH_ENDS[reason];
  if (texts) {
    const key = loser === end.me ? texts[1] : winner === end.me ? texts[2] : texts[0];
    return t(key, { name: end.names[loser], winner: end.names[winner], count: end.timeouts || 3 });
  }
  const scores = m.scores || [0, 0];
  if (winner === end.me) return t("youWonMatch", { a: scores[winner], b: scores[loser] });
  return t("theyWonMatch", { name: end.names[winner], a: scores[winner], b: scores[loser] });
}

/** The game's headline: "You won game 2", "Bruno won game 2", "Game 2 is a tie". */
export function gameTitle(end) {
  const o = end.outcome;
  const n = end.number ?? "";
  if (o && o.reason === "aborted") return t("gameAborted", { n });
  if (!o || !isSeat(o.winner)) return t("tieGame", { n });
  return o.winner === end.me ? t("youWonGame", { n }) : t("theyWonGame", { name: end.names[o.winner], n });
}

/** How the game ended: "Bruno emptied the pay-off pile: 7 points.", "Alice resigned: 5 points
 * to Bruno."; the match's words when the game's end resigned, forfeited or aborted the match. */
export function gameLine(end) {
  const o = end.outcome;
  if (!o) return "";
  if (matchEndedHere(end)) return matchWords(end);
  if (o.reason === "stock_depleted" || !isSeat(o.winner)) return t("reasonStock");
  const points = o.points ?? 0;
  const winner = end.names[o.winner];
  if (o.reason === "resigned") {
    const loser = 1 - o.winner;
    if (loser === end.me) return t("reasonResignedYou", { count: points, winner });
    if (o.winner === end.me) return t("reasonResignedToYou", { count: points, name: end.names[loser] });
    return t("reasonResigned", { count: points, name: end.names[loser], winner });
  }
  return o.winner === end.me ? t("reasonPayoffYou", { count: points }) : t("reasonPayoff", { count: points, name: winner });
}

/** The match under the game's result: its end once over ("" when `gameLine` said it), else
 * the score, the reader's first: "The match goes on: 12–7, first to 20." */
export function matchLine(end) {
  const m = end.match;
  if (!m) return "";
  if (m.over) return matchEndedHere(end) ? "" : matchWords(end);
  const scores = m.scores || [0, 0];
  const me = isSeat(end.me) ? end.me : 0;
  return t("matchGoesOn", { a: scores[me], b: scores[1 - me], target: m.target });
}

/** What follows a game's last move: how it ended and, when it was the match's last game, how
 * the match ended ("Bruno emptied the pay-off pile: 7 points. Bruno won the match 52–11."). */
export function endWords(end) {
  const m = end.match || {};
  const words = [gameLine(end)];
  if (m.over && !m.next_game) words.push(matchLine(end));
  return words.filter(Boolean).join(" ");
}
