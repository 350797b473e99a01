"""Creating matches, dealing their games, and rematches."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import engine
from accounts.models import User
from accounts.selectors import GUESTS_PLAY_BOTS, user_is_guest, users_blocked_either_way
from core.errors import (
    BAD_MESSAGE,
    FORBIDDEN,
    NOT_FOUND,
    UNAUTHENTICATED,
    GameError,
    refuse_past_limit,
)
from games import bots, hooks, services
from games.clocks import turn as clock
from games.models import BotLevel, Game, Match
from games.sending import players as notify
from games.sending.changes import notice_on_commit, user_frames_on_commit
from games.services._common import acting_seat

REMATCH_ACTIONS = ("offer", "accept", "decline")
#: The lobby's words for any refusal to play someone (a block is never revealed to the blocked).
CANNOT_PLAY = _("You cannot challenge this player.")


def match_create(
    *, user: Any, bot: str, rules: engine.Rules, ranked: bool = False, league: Any = None
) -> Match:
    """A new match of ``user`` (seat 0, player one) against a bot (seat 1), with its first game.

    ``rules`` are the knobs of every game (``match_target`` included). The bot level must be
    one the engine knows (ValueError otherwise); an anonymous user gets ``unauthenticated``.
    A ranked match needs a ``league`` that lets bots play ranked (see ``_match_open``).
    A player with ``GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT`` matches against bots in progress
    (guests too) is refused too_many (``_match_open``, so a rematch too).
    """
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in to start a match."))
    if ranked and user_is_guest(user):
        raise GameError(FORBIDDEN, GUESTS_PLAY_BOTS)
    if bot not in BotLevel.values:
        raise ValueError(f"unknown bot level {bot!r}")
    engine.bot(bot, seed=0)  # ValueError if the engine has no such bot (yet)
    return _match_open(rules=rules, ranked=ranked, user0=user, bot1=bot, league=league)


def _check_people(*users: Any) -> None:
    for user in users:
        if not getattr(user, "is_authenticated", False) or not user.is_active:
            raise GameError(UNAUTHENTICATED, _("Both players need an active account."))
        if user_is_guest(user):
            raise GameError(FORBIDDEN, GUESTS_PLAY_BOTS)


def match_create_between(
    *,
    user0: Any,
    user1: Any,
    rules: engine.Rules,
    ranked: bool = False,
    league: Any = None,
    match_target: int | None = None,
    scheduled: bool = False,
) -> Match:
    """A new match between two people, with its first game. ``user0`` is player one (the one
    who challenged or posted the seek: RULES.md lets player one start on equal pay-off cards).
    ``match_target``, when given, overrides the rules' target (a tournament's own target);
    ``scheduled`` says the players did not choose each other (a tournament's pairing)."""
    _check_people(user0, user1)
    if user0.pk == user1.pk:
        raise GameError(FORBIDDEN, _("You cannot play against yourself."))
    return _match_open(
        rules=rules,
        ranked=ranked,
        match_target=match_target,
        scheduled=scheduled,
        user0=user0,
        user1=user1,
        league=league,
    )


def _match_open(
    *,
    rules: engine.Rules,
    ranked: bool,
    match_target: int | None = None,
    scheduled: bool = False,
    **seats: Any,
) -> Match:
    """Create the match with ``seats`` (user0/user1/bot0/bot1, and maybe its league) and deal
    its first game.

    Every ranked match, new or a rematch, passes ``games.hooks.ranked_terms`` here: only
    active members of an active league (bots only where it allows them), under its knobs
    (``match_target`` alone may override the league's target: a tournament's own), and within
    its limits on who may start one (``scheduled``: a tournament's pairing, not chosen)."""
    if ranked:
        # The leagues app decides who plays ranked.
        rules = hooks.ranked_terms(scheduled=scheduled, **seats)
    if match_target is not None:
        rules = replace(rules, match_target=match_target)
    with transaction.atomic():
        _refuse_bot_matches_past_limit(seats)
        match = Match.objects.create(
            rules=rules.to_dict(), target=rules.match_target, ranked=ranked, **seats
        )
        game_create(match=match, number=1, first_player=None)
    return match


def _refuse_bot_matches_past_limit(seats: dict[str, Any]) -> None:
    """Refuse too_many when the person facing a bot in ``seats`` already has
    ``GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT`` matches against bots in progress. Their row is
    locked first, so two starts at once cannot both pass."""
    for seat, other in ((0, 1), (1, 0)):
        user = seats.get(f"user{seat}")
        if user is None or not seats.get(f"bot{other}"):
            continue
        User.objects.select_for_update().filter(pk=user.pk).first()
        limit = settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT
        playing = Match.objects.filter(
            Q(user0_id=user.pk) & ~Q(bot1="") | Q(user1_id=user.pk) & ~Q(bot0=""),
            status=Match.Status.ACTIVE,
        )
        refuse_past_limit(
            playing,
            limit,
            ngettext_lazy(
                "You have %(limit)d match against a bot in progress: finish or resign it first.",
                "You have %(limit)d matches against bots in progress: finish or resign one first.",
                "limit",
            ),
        )


def game_create(*, match: Match, number: int, first_player: int | None) -> Game:
    """Deal game ``number`` of ``match``; ``first_player`` None lets RULES.md choose (game 1).

    Must run inside the caller's transaction. On commit, each person seated gets
    ``game_started`` on the per-user socket (and ``your_turn`` if they start); the bot runner
    wakes if a bot starts.
    """
    seed = services._new_seed()  # looked up now: the package's patch point
    rules = engine.Rules.from_dict(match.rules)
    dealt = engine.Game.new(seed=seed, rules=rules, first_player=first_player)
    game = Game.objects.create(
        match=match,
        number=number,
        seed=seed,
        bot_seed=services._new_seed(),
        first_player=dealt.to_move,
        state=dealt.to_dict(),
        version=0,
        turn_deadline=clock.turn_deadline_for(match, dealt.to_move),
    )
    game.match = match
    user_frames_on_commit(notify.game_started_frames(game))
    if match.is_bot(dealt.to_move):
        bots.bot_move_enqueue(game.pk, game.version)
    return game


# --- rematch ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RematchResult:
    """Where a rematch stands: ``state`` "offered", "declined" or "accepted", by which seat;
    once accepted, the new match and its first game."""

    state: str
    by: int
    match_id: int | None = None
    game_id: int | None = None
    notified: int | None = None  # the game whose sockets this change was sent to, if any

    def to_frame(self) -> dict[str, Any]:
        """The ``rematch`` frame of docs/protocol.md."""
        frame: dict[str, Any] = {"type": "rematch", "state": self.state, "by": self.by}
        if self.state == "accepted":
            frame.update(match=self.match_id, game=self.game_id)
        return frame


def _first_game_id(match_id: int) -> int | None:
    return Game.objects.filter(match_id=match_id, number=1).values_list("pk", flat=True).first()


def _last_game_id(match: Match) -> int | None:
    return match.games.order_by("-number").values_list("pk", flat=True).first()


def match_rematch(*, match_id: int, user: Any, action: str) -> RematchResult:
    """A player of a finished match offers, accepts or declines a rematch.

    Against a bot an offer makes the new match at once (same rules and bot level, the person in
    seat 0). Between people the offer waits for the opponent, who sees it live; accepting makes
    the new match with the same rules and the seats swapped; either may decline (the offer is
    then gone, and may be made again). One rematch per match: once made, every offer or accept
    answers with the same new match. Each change is sent to the sockets of the match's last
    game as a ``rematch`` frame. GameError: bad_message, not_found, unauthenticated, forbidden
    (also for an offer or accept between people where either blocked the other: the lobby's
    neutral words, which never reveal who blocked whom).
    """
    if action not in REMATCH_ACTIONS:
        raise GameError(BAD_MESSAGE, _('A rematch is "offer", "accept" or "decline".'))
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("user0", "user1", "league")
            .filter(pk=match_id)
            .first()
        )
        if match is None:
            raise GameError(NOT_FOUND, _("There is no such match."))
        seat = acting_seat(match, user=user)
        if match.status != Match.Status.FINISHED:
            raise GameError(FORBIDDEN, _("A rematch can be offered once the match is over."))
        other = 1 - seat
        if match.rematch_id is not None:  # made already: the same answer again
            by = match.rematch_offered_by if match.rematch_offered_by is not None else seat
            return RematchResult("accepted", by, match.rematch_id, _first_game_id(match.rematch_id))
        if action != "decline" and not match.against_bot and _blocked(match):
            raise GameError(FORBIDDEN, CANNOT_PLAY)
        offered_by = match.rematch_offered_by
        if action == "decline":
            if offered_by is None:
                raise GameError(FORBIDDEN, _("There is no rematch offer to decline."))
            match.rematch_offered_by = None
            match.save(update_fields=["rematch_offered_by", "updated_at"])
            result = RematchResult("declined", seat)
        elif action == "accept" and offered_by != other:
            raise GameError(FORBIDDEN, _("Your opponent has not offered a rematch."))
        elif action == "offer" and not match.is_bot(other) and offered_by != other:
            match.rematch_offered_by = seat
            match.save(update_fields=["rematch_offered_by", "updated_at"])
            result = RematchResult("offered", seat)
        else:  # accepting, an offer against a bot, or offers crossing: play again
            by = offered_by if offered_by is not None else seat
            new = _rematch_open(match)
            match.rematch = new
            match.rematch_offered_by = by
            match.save(update_fields=["rematch", "rematch_offered_by", "updated_at"])
            result = RematchResult("accepted", by, new.pk, _first_game_id(new.pk))
        last = _last_game_id(match)
        if last is not None:
            notice_on_commit(last, result.to_frame())
            result = replace(result, notified=last)
    return result


def _blocked(match: Match) -> bool:
    """Whether either player of a match between people blocked the other (accounts.Block)."""
    return users_blocked_either_way(user_a=match.user0, user_b=match.user1)


def _rematch_open(match: Match) -> Match:
    """The new match of a rematch: same rules, ranking and league; against a bot the person
    keeps seat 0, between people the seats swap (so player one alternates)."""
    rules = engine.Rules.from_dict(match.rules)
    common = {"rules": rules, "ranked": match.ranked, "league": match.league}
    for seat in (0, 1):
        level = match.bot_level(1 - seat)
        if level:
            person = match.user_at(seat)
            _check_people(person)
            return _match_open(user0=person, bot1=level, **common)
    _check_people(match.user0, match.user1)
    return _match_open(user0=match.user1, user1=match.user0, **common)
