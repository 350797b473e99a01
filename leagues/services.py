"""Writes about leagues: membership, ranked matches, ratings and the ranked queue.

Each service is one transaction; news goes out only once it commits. A refusal is a
``GameError`` (``core/errors.py``) with a stable code (``forbidden``, ``not_found``,
``unauthenticated``) and a message a player understands. docs/leagues.md is the contract.
"""

from __future__ import annotations

import math
import secrets
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine
from accounts.selectors import GUESTS_PLAY_BOTS, block_pairs_among, user_is_guest, user_person
from core.errors import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError, lazy_format
from core.i18n import lazy_duration
from games.models import Match, Move
from leagues import glicko2
from leagues.broadcast import queue_changed_send, queue_paired_send
from leagues.models import League, Membership, QueueEntry, RatingChange
from leagues.permissions import league_may_moderate, runs_every_league
from leagues.ranked_queue import Waiting, Window, pairs

# --- who may play -----------------------------------------------------------------------------


#: A move that ends a turn: a discard to one of the mover's side stacks (ENGINE.md).
DISCARD = r"-s[1-4]$"


def _plays(user: Any) -> bool:
    return (
        bool(getattr(user, "is_authenticated", False))
        and bool(user.is_active)
        and getattr(user, "deleted_at", None) is None
    )


def _not_active_message(
    membership: Membership | None, user: Any, league: League, *, you: bool = False
) -> str | Promise:
    """Why ``user`` may not play ranked in ``league``; said to them when ``you``."""
    if you:
        if membership is None or membership.status == Membership.Status.LEFT:
            return lazy_format(_("You are not a member of %(league)s."), league=league.name)
        if membership.status == Membership.Status.PENDING:
            return lazy_format(
                _("Your request to join %(league)s waits for a moderator's approval."),
                league=league.name,
            )
        return lazy_format(_("You may not play ranked matches in %(league)s."), league=league.name)
    name = user.public_name if user is not None else "?"
    if membership is None or membership.status == Membership.Status.LEFT:
        return lazy_format(
            _("%(player)s is not a member of %(league)s."), player=name, league=league.name
        )
    if membership.status == Membership.Status.PENDING:
        return lazy_format(
            _("%(player)s's request to join %(league)s waits for a moderator's approval."),
            player=name,
            league=league.name,
        )
    return lazy_format(
        _("%(player)s may not play ranked matches in %(league)s."), player=name, league=league.name
    )  # banned


def ranked_member_check(
    *, league: League, user: Any, ranked: bool = True, you: bool = False
) -> Membership:
    """The user's active membership of an active league, or a GameError saying why not:
    unauthenticated (anonymous), forbidden (archived league; not a member, pending, left or
    banned; an account that cannot play; when ``ranked``, a bot account where bots do not
    play ranked). ``you``: the user asks for themselves, and is told in the second person."""
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in to play ranked matches."))
    if not league.is_active:
        raise GameError(
            FORBIDDEN,
            lazy_format(_("%(league)s is archived: it plays no more matches."), league=league.name),
        )
    if not _plays(user):
        raise GameError(FORBIDDEN, _("This account cannot play."))
    if user_is_guest(user):
        raise GameError(FORBIDDEN, GUESTS_PLAY_BOTS)
    if ranked and getattr(user, "is_bot", False) and not league.bots_ranked:
        raise GameError(
            FORBIDDEN,
            lazy_format(
                _(
                    "%(player)s is a bot account, and bots do not play ranked matches in "
                    "%(league)s."
                ),
                player=user.public_name,
                league=league.name,
            ),
        )
    membership = Membership.objects.filter(league=league, user_id=user.pk).first()
    if membership is None or not membership.is_active:
        raise GameError(FORBIDDEN, _not_active_message(membership, user, league, you=you))
    return membership


def ranked_terms(
    *,
    league: League | None = None,
    user0: Any = None,
    user1: Any = None,
    bot0: str = "",
    bot1: str = "",
    scheduled: bool = False,
) -> engine.Rules:
    """The rules of a ranked match with these seats, or a GameError (forbidden) when it may
    not be played: no league, an archived one, a seat not an active member, or a bot in a
    league whose bots do not play ranked; and, unless ``scheduled`` (a tournament's pairing),
    a player past the abort limit or two people at their limit of ranked matches together
    (docs/leagues.md, "What is rated"). ``games.services`` asks this before it opens any
    ranked match (new, or a rematch; ``games.hooks.ranked_terms``), so no path makes one outside
    a league's rules."""
    if league is None:
        raise GameError(FORBIDDEN, _("Ranked matches are played in a league."))
    if (bot0 or bot1) and not league.bots_ranked:
        raise GameError(
            FORBIDDEN,
            lazy_format(_("Bots do not play ranked matches in %(league)s."), league=league.name),
        )
    people = [user for user in (user0, user1) if user is not None]
    for user in people:
        ranked_member_check(league=league, user=user)
    if not scheduled:
        for user in people:
            ranked_abort_check(user=user)
        if len(people) == 2:
            ranked_pair_check(league=league, first=people[0], second=people[1])
    return league.engine_rules


def ranked_player_check(*, league: League, user: Any) -> Membership:
    """``ranked_member_check``, and the abort limit: whether ``user`` may look for a ranked
    match now (the queue, asked by the user)."""
    membership = ranked_member_check(league=league, user=user, you=True)
    ranked_abort_check(user=user)
    return membership


def ranked_abort_check(*, user: Any, now: datetime | None = None) -> None:
    """GameError forbidden while ``user`` has aborted ``LEAGUES_ABORT_LIMIT`` ranked matches
    within ``LEAGUES_ABORT_PERIOD``: the message says when ranked play opens again."""
    now = now or timezone.now()
    period = timedelta(seconds=settings.LEAGUES_ABORT_PERIOD)
    aborts = list(
        Match.objects.filter(ranked=True, aborted_by_id=user.pk, finished_at__gt=now - period)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)[: settings.LEAGUES_ABORT_LIMIT]
    )
    if len(aborts) < settings.LEAGUES_ABORT_LIMIT:
        return
    wait = (aborts[-1] + period - now).total_seconds()
    raise GameError(
        FORBIDDEN,
        lazy_format(
            # Translators: %(count)s is a number; %(period)s and %(wait)s durations such as
            # "1 day" and "5 hours".
            _(
                "%(player)s aborted %(count)s ranked matches in %(period)s: ranked play opens "
                "again in %(wait)s. Casual matches are open."
            ),
            player=user.public_name,
            count=len(aborts),
            period=lazy_duration(period.total_seconds()),
            wait=lazy_duration(max(wait, 60.0)),
        ),
        params={"retry_after": math.ceil(wait)},
    )


def ranked_pairs_at_limit(
    *, league: League, user_ids: Collection[int], now: datetime | None = None
) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` who started ``LEAGUES_RATED_PAIR_LIMIT`` ranked matches
    together in ``league`` within ``LEAGUES_RATED_PAIR_PERIOD`` (aborted ones do not count)."""
    since = (now or timezone.now()) - timedelta(seconds=settings.LEAGUES_RATED_PAIR_PERIOD)
    played = Counter(
        frozenset(pair)
        for pair in Match.objects.filter(
            league=league,
            ranked=True,
            created_at__gt=since,
            user0_id__in=user_ids,
            user1_id__in=user_ids,
        )
        .exclude(status=Match.Status.ABORTED)
        .values_list("user0_id", "user1_id")
    )
    return {pair for pair, count in played.items() if count >= settings.LEAGUES_RATED_PAIR_LIMIT}


def ranked_pair_check(*, league: League, first: Any, second: Any) -> None:
    """GameError forbidden when the two are at their limit of ranked matches together."""
    if not ranked_pairs_at_limit(league=league, user_ids=[first.pk, second.pk]):
        return
    raise GameError(
        FORBIDDEN,
        lazy_format(
            # Translators: %(count)s is a number; %(period)s a duration such as "1 day".
            _(
                "%(first)s and %(second)s have played %(count)s ranked matches together in "
                "%(period)s, the most that count: play a casual match, or meet other players."
            ),
            first=first.public_name,
            second=second.public_name,
            count=settings.LEAGUES_RATED_PAIR_LIMIT,
            period=lazy_duration(float(settings.LEAGUES_RATED_PAIR_PERIOD)),
        ),
    )


def ranked_match_create(*, league: League, user0: Any, user1: Any = None, bot: str = "") -> Match:
    """A ranked match of ``league`` under its knobs: ``user0`` (player one) against ``user1``,
    or against the engine's ``bot`` where the league lets bots play ranked (the bot is not
    rated; the person is rated against ``LEAGUES_BOT_RATINGS``). Both people must be active
    members of the active league (GameError forbidden otherwise, saying why)."""
    from games.services import match_create, match_create_between

    rules = ranked_terms(league=league, user0=user0, user1=user1, bot1=bot)
    if user1 is not None:
        return match_create_between(
            user0=user0, user1=user1, rules=rules, ranked=True, league=league
        )
    return match_create(user=user0, bot=bot, rules=rules, ranked=True, league=league)


# --- membership -------------------------------------------------------------------------------


def league_get(*, slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise GameError(NOT_FOUND, _("There is no such league."))
    return league


def league_join(*, league: League, user: Any) -> Membership:
    """Join ``league``: at once in an open league, as a request a moderator approves in one
    by approval. A member who left comes back with the rating they had. Joining again changes
    nothing. Refusals: unauthenticated; forbidden (archived league; banned; cannot play)."""
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in to join a league."))
    if not _plays(user):
        raise GameError(FORBIDDEN, _("This account cannot play."))
    if user_is_guest(user):
        raise GameError(FORBIDDEN, GUESTS_PLAY_BOTS)
    if not league.is_active:
        raise GameError(
            FORBIDDEN,
            lazy_format(_("%(league)s is archived: it takes no new members."), league=league.name),
        )
    status = (
        Membership.Status.ACTIVE
        if league.admission == League.Admission.OPEN
        else Membership.Status.PENDING
    )
    with transaction.atomic():
        membership, created = Membership.objects.select_for_update().get_or_create(
            league=league, user=user, defaults={"status": status}
        )
        if created:
            return membership
        if membership.status == Membership.Status.BANNED:
            raise GameError(
                FORBIDDEN, lazy_format(_("You may not join %(league)s."), league=league.name)
            )
        if membership.status == Membership.Status.LEFT:
            membership.status = status
            membership.save(update_fields=["status"])
    return membership


def league_leave(*, league: League, user: Any) -> Membership | None:
    """Leave ``league`` (or withdraw a request to join): the rating and record stay, for a
    return. Leaves its queue too. Leaving twice changes nothing; a banned member stays
    banned. Returns the membership, or None for one who never joined."""
    if not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in first."))
    with transaction.atomic():
        membership = (
            Membership.objects.select_for_update().filter(league=league, user_id=user.pk).first()
        )
        if membership is None:
            return None
        if membership.status in (Membership.Status.ACTIVE, Membership.Status.PENDING):
            membership.status = Membership.Status.LEFT
            membership.save(update_fields=["status"])
        if QueueEntry.objects.filter(league=league, user_id=user.pk).delete()[0]:
            _count_on_commit(league.pk)
    return membership


def _membership_locked(*, membership_id: int, moderator: Any, missing: Any) -> Membership:
    """The membership, locked, once ``moderator`` may run its league; refusals: not_found
    (``missing``), forbidden (not a moderator of that league)."""
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("league", "user")
        .filter(pk=membership_id)
        .first()
    )
    if membership is None:
        raise GameError(NOT_FOUND, missing)
    if not league_may_moderate(league=membership.league, user=moderator):
        raise GameError(
            FORBIDDEN,
            lazy_format(
                _("Only moderators of %(league)s may do that."), league=membership.league.name
            ),
        )
    return membership


def _request_lock(*, membership_id: int, moderator: Any) -> Membership:
    membership = _membership_locked(
        membership_id=membership_id, moderator=moderator, missing=_("There is no such request.")
    )
    if membership.status != Membership.Status.PENDING:
        raise GameError(FORBIDDEN, _("This request was already answered or withdrawn."))
    return membership


def membership_approve(*, membership_id: int, moderator: Any) -> Membership:
    """A moderator of the request's league (or staff) lets the player in. Refusals:
    not_found; forbidden (not a moderator of that league; no longer pending)."""
    with transaction.atomic():
        membership = _request_lock(membership_id=membership_id, moderator=moderator)
        membership.status = Membership.Status.ACTIVE
        membership.save(update_fields=["status"])
    return membership


def membership_decline(*, membership_id: int, moderator: Any) -> Membership:
    """A moderator of the request's league (or staff) turns the request down (the player may
    ask again). Refusals as ``membership_approve``."""
    with transaction.atomic():
        membership = _request_lock(membership_id=membership_id, moderator=moderator)
        membership.status = Membership.Status.LEFT
        membership.save(update_fields=["status"])
    return membership


def _member_lock(*, membership_id: int, moderator: Any) -> Membership:
    """The membership, locked, once ``moderator`` may run its league; refusals: not_found;
    forbidden (not a moderator of that league; a moderator's own or another moderator's
    membership, which only an operator of every league may change)."""
    membership = _membership_locked(
        membership_id=membership_id, moderator=moderator, missing=_("There is no such member.")
    )
    if membership.role == Membership.Role.MODERATOR and not runs_every_league(moderator):
        raise GameError(
            FORBIDDEN,
            lazy_format(
                _("%(player)s is a moderator: only the site's administrators may ban them."),
                player=membership.user.public_name,
            ),
        )
    return membership


def membership_ban(*, membership_id: int, moderator: Any) -> Membership:
    """A moderator of the member's league bans them: they leave its queue and its
    tournaments (``membership_withdraws``) and may not join again until the ban is lifted.
    Banning twice changes nothing. Refusals as ``_member_lock``."""
    with transaction.atomic():
        membership = _member_lock(membership_id=membership_id, moderator=moderator)
        if membership.status != Membership.Status.BANNED:
            membership.status = Membership.Status.BANNED
            membership.save(update_fields=["status"])
            if QueueEntry.objects.filter(
                league_id=membership.league_id, user_id=membership.user_id
            ).delete()[0]:
                _count_on_commit(membership.league_id)
    return membership


def membership_ban_lift(*, membership_id: int, moderator: Any) -> Membership:
    """Lift a ban: the player is no longer a member but may join again (as anyone may).
    Refusals as ``_member_lock``, and forbidden for a member who is not banned."""
    with transaction.atomic():
        membership = _member_lock(membership_id=membership_id, moderator=moderator)
        if membership.status != Membership.Status.BANNED:
            raise GameError(
                FORBIDDEN,
                lazy_format(_("%(player)s is not banned."), player=membership.user.public_name),
            )
        membership.status = Membership.Status.LEFT
        membership.save(update_fields=["status"])
    return membership


# --- ratings ----------------------------------------------------------------------------------


def idle_periods(*, rated_at: datetime | None, period_days: int, now: datetime) -> int:
    """Whole rating periods since ``rated_at`` (0 before a first rated match)."""
    if rated_at is None or now <= rated_at:
        return 0
    return math.floor((now - rated_at) / timedelta(days=period_days))


def membership_rating_now(membership: Membership, *, now: datetime | None = None) -> glicko2.Rating:
    """The rating as it stands now: the stored one, its deviation grown by the whole rating
    periods since the member's last rated match (what the pages show, what the next match
    rates from)."""
    periods = idle_periods(
        rated_at=membership.rated_at,
        period_days=membership.league.rating_period_days,
        now=now or timezone.now(),
    )
    return glicko2.inflate(membership.glicko, periods)


def rating_provisional(membership: Membership, shown: glicko2.Rating) -> bool:
    """Whether the rating as ``shown`` (``membership_rating_now``) is provisional ("?"):
    still uncertain (its deviation), or not yet ``established`` against enough opponents."""
    return shown.provisional or not membership.established


def bot_rating(level: str) -> glicko2.Rating:
    """The fixed rating a person plays against when a ranked match seats a bot."""
    return glicko2.Rating(
        float(settings.LEAGUES_BOT_RATINGS[level]), float(settings.LEAGUES_BOT_DEVIATION)
    )


def _score(match: Match, seat: int) -> float:
    if match.winner is None:
        return glicko2.DRAW
    return glicko2.WIN if match.winner == seat else glicko2.LOSS


def match_rate(match: Match) -> None:
    """``games.hooks.match_finished``'s listener: a ranked match is rated with its result."""
    if match.ranked:
        rating_apply_match(match=match)


def match_is_rated(match: Match) -> bool:
    """Whether a finished ranked match counts for the ratings (docs/leagues.md, "What is
    rated"): its target was reached, or each side played ``LEAGUES_RATED_MIN_TURNS`` turns
    (a turn ends with a discard) over its games. A match resigned, timed out or abandoned
    earlier is finished but unrated."""
    if match.end_reason == Match.EndReason.TARGET_REACHED:
        return True
    turns = Counter(
        Move.objects.filter(game__match=match, kind=Move.Kind.MOVE, text__regex=DISCARD)
        .values_list("seat", flat=True)
        .order_by()
    )
    return all(turns[seat] >= settings.LEAGUES_RATED_MIN_TURNS for seat in (0, 1))


def _new_opponent(member: Membership, match: Match, seat: int) -> bool:
    """Whether the player in ``seat`` of ``match`` is one ``member`` never met in a rated
    match of the league before (a bot level counts as one opponent)."""
    level = match.bot_level(1 - seat)
    if level:
        met = Q(match__bot0=level) | Q(match__bot1=level)
    else:
        other = match.user_id_at(1 - seat)
        met = Q(match__user0_id=other) | Q(match__user1_id=other)
    return not RatingChange.objects.filter(met, membership=member).exists()


def rating_apply_match(*, match: Match) -> list[RatingChange]:
    """Rate a finished ranked match (target reached or resigned; never an aborted one) as a
    rating period of one game for each person in it, and add it to their record. Runs inside
    the transaction that finishes the match (``games.services``). Each player is rated from
    their rating *now* (the deviation grown by idle periods) against the opponent's, both as
    they stood before the match. A match is rated once: a second call finds its RatingChange
    rows and changes nothing (and the rows are unique per member and match).
    Returns the RatingChange rows made."""
    if not match.ranked or match.league_id is None or match.status != Match.Status.FINISHED:
        return []
    if not match_is_rated(match):
        return []
    league = League.objects.get(pk=match.league_id)
    now = match.finished_at or timezone.now()
    user_ids = [uid for uid in (match.user0_id, match.user1_id) if uid is not None]
    with transaction.atomic():
        members = {
            m.user_id: m
            for m in Membership.objects.select_for_update()
            .filter(league=league, user_id__in=user_ids)
            .order_by("pk")
        }
        if RatingChange.objects.filter(match=match).exists():
            return []
        before: dict[int, glicko2.Rating] = {}
        periods: dict[int, int] = {}
        for seat in (0, 1):
            level = match.bot_level(seat)
            if level:
                before[seat] = bot_rating(level)
                continue
            member = members.get(match.user_id_at(seat) or 0)
            if member is None:  # pragma: no cover - ranked seats are members (ranked_terms)
                before[seat] = glicko2.Rating()
                continue
            member.league = league
            periods[seat] = idle_periods(
                rated_at=member.rated_at, period_days=league.rating_period_days, now=now
            )
            before[seat] = glicko2.inflate(member.glicko, periods[seat])
        changes = []
        for seat in (0, 1):
            member = members.get(match.user_id_at(seat) or 0)
            if member is None:
                continue
            mine, theirs, score = before[seat], before[1 - seat], _score(match, seat)
            after = glicko2.rate(mine, [(theirs, score)])
            if match.bot_level(1 - seat):
                # A bot's rating is fixed: beating it again and again lifts a rating no
                # higher than the bot's plus LEAGUES_BOT_MARGIN.
                ceiling = max(mine.rating, theirs.rating + float(settings.LEAGUES_BOT_MARGIN))
                after = replace(after, rating=min(after.rating, ceiling))
            member.opponents += _new_opponent(member, match, seat)
            changes.append(
                RatingChange(
                    membership=member,
                    match=match,
                    score=score,
                    idle_periods=periods[seat],
                    rating_before=member.rating,
                    deviation_before=member.deviation,
                    volatility_before=member.volatility,
                    opponent_rating=theirs.rating,
                    opponent_deviation=theirs.deviation,
                    rating_after=after.rating,
                    deviation_after=after.deviation,
                    volatility_after=after.volatility,
                    at=now,
                )
            )
            member.rating = after.rating
            member.deviation = after.deviation
            member.volatility = after.volatility
            member.rated_at = now
            member.matches += 1
            member.wins += score == glicko2.WIN
            member.losses += score == glicko2.LOSS
            member.points_for += match.scores[seat]
            member.points_against += match.scores[1 - seat]
            member.save(
                update_fields=[
                    "rating",
                    "deviation",
                    "volatility",
                    "rated_at",
                    "matches",
                    "wins",
                    "losses",
                    "points_for",
                    "points_against",
                    "opponents",
                ]
            )
        return RatingChange.objects.bulk_create(changes)


def league_ratings_recompute(*, league: League) -> int:
    """Recompute every member's rating and record in ``league`` from its rated matches: each
    member who has RatingChange rows starts again from the rating their first row began with
    (as stored then), their rows are deleted, and every finished ranked match of the league is
    rated again, in the order they finished (``rating_apply_match``, each at its own
    ``finished_at``, so idle periods come out the same). Used after an admin corrects a
    result. Returns how many matches were rated."""
    with transaction.atomic():
        members = {m.pk: m for m in Membership.objects.select_for_update().filter(league=league)}
        firsts: dict[int, RatingChange] = {}
        for change in RatingChange.objects.filter(membership__league=league).order_by(
            "at", "match_id", "id"
        ):
            firsts.setdefault(change.membership_id, change)
        for membership_id, first in firsts.items():
            member = members[membership_id]
            member.rating = first.rating_before
            member.deviation = first.deviation_before
            member.volatility = first.volatility_before
            member.rated_at = None
            member.matches = member.wins = member.losses = member.opponents = 0
            member.points_for = member.points_against = 0
            member.save()
        RatingChange.objects.filter(membership__league=league).delete()
        matches = list(
            Match.objects.filter(league=league, ranked=True, status=Match.Status.FINISHED).order_by(
                "finished_at", "pk"
            )
        )
        for match in matches:
            rating_apply_match(match=match)
    return len(matches)


# --- the ranked queue -------------------------------------------------------------------------


def queue_window() -> Window:
    return Window(
        base=float(settings.LEAGUES_QUEUE_WINDOW_BASE),
        step=float(settings.LEAGUES_QUEUE_WINDOW_STEP),
        every=float(settings.LEAGUES_QUEUE_WINDOW_EVERY),
        cap=float(settings.LEAGUES_QUEUE_WINDOW_MAX),
    )


def _fresh_since(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.LEAGUES_QUEUE_TTL)


def queue_waiting(*, league_id: int, now: datetime | None = None) -> int:
    """How many wait in the league's queue (entries seen within ``LEAGUES_QUEUE_TTL``)."""
    since = _fresh_since(now or timezone.now())
    return QueueEntry.objects.filter(league_id=league_id, seen_at__gte=since).count()


def _send_count(league_id: int) -> None:
    queue_changed_send(league_id, queue_waiting(league_id=league_id))


def _count_on_commit(league_id: int) -> None:
    transaction.on_commit(partial(_send_count, league_id))


def queue_join(*, league: League, user: Any, channel: str = "") -> QueueEntry:
    """``user`` waits in ``league``'s ranked queue (their socket ``channel`` holds the place).
    A second tab on the same queue shares the place and keeps its waiting time. Refusals as
    ``ranked_member_check``, and forbidden while the user waits in another league's queue."""
    membership = ranked_player_check(league=league, user=user)
    now = timezone.now()
    with transaction.atomic():
        elsewhere = (
            QueueEntry.objects.filter(user_id=user.pk, seen_at__gte=_fresh_since(now))
            .exclude(league=league)
            .select_related("league")
            .first()
        )
        if elsewhere is not None:
            raise GameError(
                FORBIDDEN,
                lazy_format(
                    _("You are waiting in the queue of %(league)s: leave it first."),
                    league=elsewhere.league.name,
                ),
            )
        entry, created = QueueEntry.objects.select_for_update().get_or_create(
            league=league,
            user=user,
            defaults={
                "rating_at_join": membership.rating,
                "joined_at": now,
                "seen_at": now,
                "channel": channel,
            },
        )
        if not created:
            if entry.seen_at < _fresh_since(now):  # a stale place: start waiting afresh
                entry.joined_at = now
                entry.rating_at_join = membership.rating
            entry.seen_at = now
            entry.channel = channel
            entry.save(update_fields=["joined_at", "rating_at_join", "seen_at", "channel"])
        _count_on_commit(league.pk)
    return entry


def queue_leave(*, league_id: int, user: Any, channel: str | None = None) -> bool:
    """``user`` stops waiting (their page closed). With ``channel``, only if that socket still
    holds the place (another tab may have taken it over). True when an entry went."""
    with transaction.atomic():
        entries = QueueEntry.objects.filter(league_id=league_id, user_id=user.pk)
        if channel is not None:
            entries = entries.filter(channel=channel)
        gone = entries.delete()[0] > 0
        if gone:
            _count_on_commit(league_id)
    return gone


@dataclass(frozen=True, slots=True)
class QueueStatus:
    """What a queue socket learns at each tick: a ``paired`` frame if its user now plays a
    ranked match that started after they joined, else how many wait."""

    waiting: int
    paired: dict[str, Any] | None = None


def _paired_frame(match: Match, user_id: int) -> dict[str, Any]:
    game = match.current_game
    seat = 0 if match.user0_id == user_id else 1
    opponent = match.user_at(1 - seat)
    return {
        "type": "paired",
        "league": match.league.slug if match.league is not None else None,
        "match": match.pk,
        "game": game.pk if game is not None else None,
        "url": reverse("games:table", kwargs={"game_id": game.pk}) if game is not None else None,
        "seat": seat,
        "opponent": user_person(opponent) if opponent is not None else None,
    }


def queue_refresh(*, league: League, user: Any, channel: str, since: datetime) -> QueueStatus:
    """A waiting socket's tick: if a ranked match of ``user`` started since ``since`` (the
    pairing's message may have been lost), its ``paired`` frame; else keep the place fresh
    (taking it again if it went stale and was dropped) and read the count."""
    match = (
        Match.objects.filter(
            Q(user0_id=user.pk) | Q(user1_id=user.pk),
            ranked=True,
            status=Match.Status.ACTIVE,
            created_at__gte=since,
        )
        .select_related("league", "user0", "user1")
        .order_by("-created_at")
        .first()
    )
    if match is not None:  # playing now (paired, or a ranked challenge accepted): not waiting
        queue_leave(league_id=league.pk, user=user)
        return QueueStatus(
            waiting=queue_waiting(league_id=league.pk), paired=_paired_frame(match, user.pk)
        )
    now = timezone.now()
    held = QueueEntry.objects.filter(league=league, user_id=user.pk).update(seen_at=now)
    if not held:
        queue_join(league=league, user=user, channel=channel)
    return QueueStatus(waiting=queue_waiting(league_id=league.pk, now=now))


def _lock_waiting(league_id: int) -> list[QueueEntry]:
    entries = QueueEntry.objects.filter(league_id=league_id).select_related("user")
    if connection.features.has_select_for_update_skip_locked:
        # Another process pairing this league holds some rows: skip them, it pairs those.
        entries = entries.select_for_update(skip_locked=True, of=("self",))
    else:
        entries = entries.select_for_update()  # SQLite: the IMMEDIATE transaction serialises
    return list(entries.order_by("joined_at", "id"))


def queue_pair(*, league: League, now: datetime | None = None) -> list[Match]:
    """Pair whoever can be paired in ``league``'s queue now (``leagues.ranked_queue.pairs``), start
    each pair's ranked match (the seats drawn at random), take both out of the queue and, on
    commit, send each their ``paired`` frame. Entries not seen for ``LEAGUES_QUEUE_TTL`` are
    dropped. A player who may no longer play ranked (banned while waiting) is dropped too. Two
    players of whom one blocked the other, or who are at their limit of ranked matches
    together, are never paired."""
    now = now or timezone.now()
    started: list[Match] = []
    with transaction.atomic():
        entries = _lock_waiting(league.pk)
        stale = [e.pk for e in entries if e.seen_at < _fresh_since(now)]
        changed = bool(stale)
        if stale:
            QueueEntry.objects.filter(pk__in=stale).delete()
        by_user = {e.user_id: e for e in entries if e.pk not in stale}
        waiting = [Waiting(e.user_id, e.rating_at_join, e.joined_at) for e in by_user.values()]
        frames: dict[int, dict[str, Any]] = {}
        apart = block_pairs_among(user_ids=list(by_user)) | ranked_pairs_at_limit(
            league=league, user_ids=list(by_user), now=now
        )
        for first, second in pairs(waiting, now, queue_window(), apart):
            a, b = by_user[first.user_id], by_user[second.user_id]
            if secrets.randbelow(2):
                a, b = b, a
            try:
                with transaction.atomic():
                    match = ranked_match_create(league=league, user0=a.user, user1=b.user)
            except GameError:
                # One of the two may no longer play ranked: drop whoever that is.
                for entry in (a, b):
                    try:
                        ranked_player_check(league=league, user=entry.user)
                    except GameError:
                        QueueEntry.objects.filter(pk=entry.pk).delete()
                        changed = True
                continue
            QueueEntry.objects.filter(pk__in=[a.pk, b.pk]).delete()
            changed = True
            match.league = league
            for entry in (a, b):
                frames[entry.user_id] = _paired_frame(match, entry.user_id)
            started.append(match)
        if frames:
            transaction.on_commit(partial(queue_paired_send, league.pk, frames))
        if changed:
            _count_on_commit(league.pk)
    return started
