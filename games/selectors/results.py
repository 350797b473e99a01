"""A match's and a game's result in words, for the pages the server renders: the history, a
league's results and the replay. The live table says the same in the browser
(``static/js/results.js``, the same sentences).

A match that ends otherwise than at its target says why and who: "Alice resigned: Bruno wins
the match." Its score alone would read as a win on points, at 0 to 0 too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, ngettext

from games.models import Game, Match

#: The match's ends that the scores do not explain: each is said in words.
UNSCORED_ENDS = frozenset(
    {
        Match.EndReason.RESIGNED,
        Match.EndReason.TIMEOUT,
        Match.EndReason.ABANDONED,
        Match.EndReason.ABORTED,
    }
)


def _timeouts(match: Match, seat: int) -> int:
    """The timeouts in a row that forfeited ``seat``'s match (the count it reached)."""
    return (match.timeouts0 if seat == 0 else match.timeouts1) or int(
        settings.GAMES_CLOCK_MAX_TIMEOUTS
    )


def match_result_words(match: Match) -> str:
    """How ``match`` ended, in one sentence with the players' names: "Alice resigned: Bruno wins
    the match.", "Bruno won the match 52 to 11" (an en dash); "" while in play."""
    reason = match.end_reason
    if match.status == Match.Status.ACTIVE or not reason:
        return ""
    if reason == Match.EndReason.ABORTED or match.winner is None:
        return gettext(
            "The match was called off before both players had moved: no result, no points."
        )
    winner = match.seat_name(match.winner)
    loser = match.seat_name(1 - match.winner)
    if reason == Match.EndReason.RESIGNED:
        return gettext("%(name)s resigned: %(winner)s wins the match.") % {
            "name": loser,
            "winner": winner,
        }
    if reason == Match.EndReason.TIMEOUT:
        count = _timeouts(match, 1 - match.winner)
        return ngettext(
            "%(name)s ran out of time %(count)s turn in a row: %(winner)s wins the match.",
            "%(name)s ran out of time %(count)s turns in a row: %(winner)s wins the match.",
            count,
        ) % {"name": loser, "count": count, "winner": winner}
    if reason == Match.EndReason.ABANDONED:
        return gettext(
            "%(name)s was away longer than the grace period: %(winner)s wins the match."
        ) % {"name": loser, "winner": winner}
    a, b = match.scores[match.winner], match.scores[1 - match.winner]
    return gettext("%(name)s won the match %(a)s–%(b)s.") % {  # noqa: RUF001 (the score's dash)
        "name": winner,
        "a": a,
        "b": b,
    }


def match_result_note(match: Match) -> str:
    """The words of a match whose scores do not say how it ended (resigned, forfeited,
    aborted); "" for a match won at its target or in play. For the lists beside the scores."""
    return match_result_words(match) if match.end_reason in UNSCORED_ENDS else ""


def _next_game_id(game: Game) -> int | None:
    return (
        Game.objects.filter(match_id=game.match_id, number=game.number + 1)
        .values_list("pk", flat=True)
        .first()
    )


def _game_words(game: Game, *, ended_match: bool) -> str:
    match = game.match
    if ended_match and game.reason in UNSCORED_ENDS and match.end_reason in UNSCORED_ENDS:
        return match_result_words(match)  # the match resigned, forfeited or aborted
    if game.winner is None:
        return gettext("The stock ran out: nobody scores.")
    winner = match.seat_name(game.winner)
    if game.reason == Game.Reason.RESIGNED:
        return ngettext(
            "%(name)s resigned: %(count)s point to %(winner)s.",
            "%(name)s resigned: %(count)s points to %(winner)s.",
            game.points,
        ) % {
            "name": match.seat_name(1 - game.winner),
            "count": game.points,
            "winner": winner,
        }
    return ngettext(
        "%(name)s emptied the pay-off pile: %(count)s point.",
        "%(name)s emptied the pay-off pile: %(count)s points.",
        game.points,
    ) % {"name": winner, "count": game.points}


@dataclass(frozen=True)
class GameResult:
    """A game that is over, in words and in the facts ``static/js/results.js`` reads."""

    words: str  # how the game ended; the match's words when its end resigned, forfeited or
    # aborted the match: "Alice resigned: Bruno wins the match."
    match_words: str  # how the match ended when this game ended it at its target, else ""
    ended_match: bool  # this game was the match's last, the match over
    facts: dict[str, Any]  # number, outcome, match (over, reason, winner, scores, target,
    # next_game), timeouts: the ``end`` results.js reads


def game_result(game: Game) -> GameResult:
    """``game``'s end (a game that is over) in words, with what the browser needs to say it:
    the table's frames' shape (docs/protocol.md: ``game.outcome``, ``match_end``)."""
    match = game.match
    over = match.status != Match.Status.ACTIVE
    next_game = _next_game_id(game)
    ended = over and next_game is None
    words = _game_words(game, ended_match=ended)
    match_words = match_result_words(match) if ended else ""
    loser = None if match.winner is None else 1 - match.winner
    return GameResult(
        words=words,
        match_words="" if match_words == words else match_words,
        ended_match=ended,
        facts={
            "number": game.number,
            "outcome": {"winner": game.winner, "points": game.points, "reason": game.reason},
            "match": {
                "over": over,
                "reason": match.end_reason or None,
                "winner": match.winner,
                "scores": match.scores,
                "target": match.target,
                "next_game": next_game,
            },
            "timeouts": _timeouts(match, loser) if loser is not None else 0,
        },
    )
