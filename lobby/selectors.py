"""Reads for the lobby: the pending challenges and open seeks a player may see, and the
frames of the per-user socket (docs/protocol.md, "The per-user socket").

Expiry is decided here, at read time: a pending challenge or open seek past its
``expires_at`` is never listed and reads as ``expired``, whether or not
``lobby.services.lobby_expire`` has marked it. Blocks too: nothing between two players who
blocked each other (either way) is listed to either of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Case, IntegerField, Max, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce, Lower, NullIf
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from accounts.models import User
from accounts.selectors import user_block_partners_q, user_person
from core.i18n import country_name, list_comma
from games.models import Game, Match, Move
from games.presets import preset_for
from lobby.models import Challenge, ChallengeLink, Seek
from lobby.online import online_users

_HOUSE = engine.Rules()


# --- rules ------------------------------------------------------------------------------------


def rules_summary(rules: dict[str, Any]) -> str:
    """One line a player reads: "House rules, first to 50 points", or the knobs that differ,
    after the preset's name when they are one ("Quick: pay-off pile of 5, one game")."""
    knobs = engine.Rules.from_dict(rules)
    n = knobs.match_target
    if n == 1:
        target = _("one game")
    else:
        target = ngettext("first to %(n)s point", "first to %(n)s points", n) % {"n": n}
    differs = []
    if knobs.payoff_size != _HOUSE.payoff_size:
        # Translators: how many cards are dealt to each pay-off pile.
        differs.append(_("pay-off pile of %(n)s") % {"n": knobs.payoff_size})
    if knobs.hand_size != _HOUSE.hand_size:
        # Translators: how many cards make a full hand.
        differs.append(_("hand of %(n)s") % {"n": knobs.hand_size})
    if knobs.decks != _HOUSE.decks:
        n = knobs.decks
        differs.append(ngettext("%(n)s deck", "%(n)s decks", n) % {"n": n})
    if knobs.side_stacks != _HOUSE.side_stacks:
        n = knobs.side_stacks
        differs.append(ngettext("%(n)s side stack", "%(n)s side stacks", n) % {"n": n})
    if knobs.center_stacks != _HOUSE.center_stacks:
        n = knobs.center_stacks
        differs.append(ngettext("%(n)s center stack", "%(n)s center stacks", n) % {"n": n})
    if knobs.king_on_empty != _HOUSE.king_on_empty:
        differs.append(
            _("a King may start an empty stack")
            if knobs.king_on_empty
            else _("no King on an empty stack")
        )
    if knobs.refill_empty_hand != _HOUSE.refill_empty_hand:
        differs.append(
            _("an empty hand refills")
            if knobs.refill_empty_hand
            else _("no refill of an empty hand")
        )
    if not differs:
        return _("House rules, %(target)s") % {"target": target}
    text = list_comma().join([*differs, target])
    preset = preset_for(knobs)
    if preset is not None:
        return _("%(preset)s: %(rules)s") % {"preset": preset.label, "rules": text}
    return text[:1].upper() + text[1:]


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def _first_game_id(match_id: int | None) -> int | None:
    if match_id is None:
        return None
    return (
        Game.objects.filter(match_id=match_id)
        .order_by("number")
        .values_list("pk", flat=True)
        .first()
    )


def table_url(game_id: int) -> str:
    return reverse("games:table", kwargs={"game_id": game_id})


# --- challenges -------------------------------------------------------------------------------


def _challenges_involving(user: User) -> QuerySet[Challenge]:
    return (
        Challenge.objects.filter(Q(challenger_id=user.pk) | Q(challenged_id=user.pk))
        .exclude(user_block_partners_q(user=user, field="challenger"))
        .exclude(user_block_partners_q(user=user, field="challenged"))
        .select_related("challenger", "challenged", "league")
    )


def challenges_pending(*, user: User) -> list[Challenge]:
    """The challenges ``user`` sent or received that still wait for an answer, newest first
    (never an expired one, nor one between players who blocked each other)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        _challenges_involving(user).filter(
            status=Challenge.Status.PENDING, expires_at__gt=timezone.now()
        )
    )


def challenge_state(challenge: Challenge, *, viewer_id: int) -> str:
    """What the viewer reads: "received" or "sent" while it waits, else its status (a pending
    challenge past its time reads "expired")."""
    status = challenge.status
    if status == Challenge.Status.PENDING:
        if challenge.expires_at <= timezone.now():
            return Challenge.Status.EXPIRED.value
        return "received" if viewer_id == challenge.challenged_id else "sent"
    return str(status)


def challenge_summary(rules: dict[str, Any], league_name: str | None) -> str:
    """The challenge's one line: its rules, and the league of a ranked one. In the active
    language: ``lobby.consumers`` says it again in each receiving socket's language."""
    summary = rules_summary(rules)
    if league_name is not None:
        summary = _("Ranked in %(league)s: %(rules)s") % {"league": league_name, "rules": summary}
    return summary


def challenge_data(challenge: Challenge, *, viewer_id: int) -> dict[str, Any]:
    """One challenge as the per-user socket carries it, seen by ``viewer_id``."""
    game_id = _first_game_id(challenge.match_id)
    league = challenge.league if challenge.league_id is not None else None
    summary = challenge_summary(challenge.rules, league.name if league is not None else None)
    return {
        "id": challenge.pk,
        "state": challenge_state(challenge, viewer_id=viewer_id),
        "from": user_person(challenge.challenger),
        "to": user_person(challenge.challenged),
        "rules": challenge.rules,
        "ranked": league is not None,
        "league": {"slug": league.slug, "name": league.name} if league is not None else None,
        "summary": summary,
        "created_at": _when(challenge.created_at),
        "expires_at": _when(challenge.expires_at),
        "game": game_id,
        "url": table_url(game_id) if game_id is not None else None,
    }


def challenge_frame(challenge: Challenge, *, viewer_id: int) -> dict[str, Any]:
    """The ``challenge`` frame: one challenge changed (or arrived)."""
    return {"type": "challenge", **challenge_data(challenge, viewer_id=viewer_id)}


def challenges_frame(*, user: User) -> dict[str, Any]:
    """The ``challenges`` frame: every pending challenge of ``user``, sent and received."""
    return {
        "type": "challenges",
        "challenges": [challenge_data(c, viewer_id=user.pk) for c in challenges_pending(user=user)],
    }


@dataclass
class UserLists:
    """What a per-user socket shows, reduced to what tells that it changed: the user's games
    in progress, those of them where it is the user's turn, and the pending challenges."""

    games: dict[int, int] = field(default_factory=dict)  # game -> its match
    #: (game, the version its turn began at): the ``version`` its ``your_turn`` carries.
    turns: set[tuple[int, int]] = field(default_factory=set)
    challenges: set[int] = field(default_factory=set)


def user_lists(user_ids: list[int]) -> dict[int, UserLists]:
    """``UserLists`` of each of ``user_ids``, in three queries for them all (the per-user
    sockets' convergence check, ``core.convergence``). A turn began at the version of the
    last move another seat made (0 if none has)."""
    lists = {user_id: UserLists() for user_id in user_ids}
    wanted = set(user_ids)
    games = (
        Game.objects.filter(match__status=Match.Status.ACTIVE)
        .filter(Q(match__user0_id__in=user_ids) | Q(match__user1_id__in=user_ids))
        .order_by("match_id", "-number")
        .values_list(
            "match_id", "pk", "status", "state__to_move", "match__user0_id", "match__user1_id"
        )
    )
    seen_matches: set[int] = set()
    to_play: dict[int, tuple[int, int]] = {}  # game -> (the seat to move, its user)
    for match_id, game_id, status, to_move, *seated in games:
        if match_id in seen_matches:
            continue  # an earlier game of the match: only its latest counts
        seen_matches.add(match_id)
        if status != Game.Status.ACTIVE:
            continue
        for seat, user_id in enumerate(seated):
            if user_id in wanted:
                lists[user_id].games[game_id] = match_id
                if to_move == seat:
                    to_play[game_id] = (seat, user_id)
    began: dict[int, int] = {}  # game -> the version of the last move another seat made
    if to_play:
        last_moves = (
            Move.objects.filter(game_id__in=list(to_play))
            .values("game_id", "seat")
            .annotate(version=Max("version"))
            .values_list("game_id", "seat", "version")
        )
        for game_id, seat, version in last_moves:
            if seat != to_play[game_id][0]:
                began[game_id] = max(began.get(game_id, 0), version)
    for game_id, (_seat, user_id) in to_play.items():
        lists[user_id].turns.add((game_id, began.get(game_id, 0)))
    challenges = (
        Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())
        .filter(Q(challenger_id__in=user_ids) | Q(challenged_id__in=user_ids))
        .values_list("pk", "challenger_id", "challenged_id")
    )
    for challenge_id, *people in challenges:
        for user_id in people:
            if user_id in wanted:
                lists[user_id].challenges.add(challenge_id)
    return lists


# --- a match that starts ----------------------------------------------------------------------


def challenge_accepted_frame(challenge: Challenge, *, game_id: int) -> dict[str, Any]:
    """Both players' ``challenge_accepted``: go to the table of ``game_id``, the first game."""
    return {
        "type": "challenge_accepted",
        "challenge": challenge.pk,
        "match": challenge.match_id,
        "game": game_id,
        "url": table_url(game_id),
    }


def seek_taken_frame(seek: Seek, *, game_id: int) -> dict[str, Any]:
    """The seek's owner's and taker's ``seek_taken``: go to the table of ``game_id``."""
    return {
        "type": "seek_taken",
        "seek": seek.pk,
        "match": seek.match_id,
        "game": game_id,
        "url": table_url(game_id),
        "owner": user_person(seek.owner),
        "taker": user_person(seek.taken_by),
    }


def matches_just_started(*, user: User, now: Any = None) -> list[dict[str, Any]]:
    """The ``challenge_accepted`` and ``seek_taken`` frames of ``user``'s matches that a
    challenge or a seek began in the last ``LOBBY_TABLE_WAITING`` seconds and that are still
    on, oldest first. The per-user socket sends them again with its lists, so a page that was
    still loading when the match began, or a lost doorbell, still takes the player to the
    table (``notify.js`` goes only to a table this browser has not opened yet)."""
    since = (now or timezone.now()) - timedelta(seconds=settings.LOBBY_TABLE_WAITING)
    challenges = Challenge.objects.filter(
        Q(challenger_id=user.pk) | Q(challenged_id=user.pk),
        status=Challenge.Status.ACCEPTED,
        answered_at__gte=since,
        match__status=Match.Status.ACTIVE,
    )
    seeks = Seek.objects.filter(
        Q(owner_id=user.pk) | Q(taken_by_id=user.pk),
        status=Seek.Status.TAKEN,
        taken_at__gte=since,
        match__status=Match.Status.ACTIVE,
    ).select_related("owner", "taken_by")
    started = [(c.answered_at, c, challenge_accepted_frame) for c in challenges] + [
        (s.taken_at, s, seek_taken_frame) for s in seeks
    ]
    frames = []
    for _at, made, frame in sorted(started, key=lambda row: row[0]):
        game_id = _first_game_id(made.match_id)
        if game_id is not None:
            frames.append(frame(made, game_id=game_id))
    return frames


# --- seeks ------------------------------------------------------------------------------------


def seeks_open(*, user: User | None = None) -> list[Seek]:
    """The open seeks, oldest first (first come, first served). For a user: their own too, but
    none of a player they blocked or who blocked them."""
    seeks = Seek.objects.filter(status=Seek.Status.OPEN, expires_at__gt=timezone.now())
    if user is not None and getattr(user, "is_authenticated", False):
        seeks = seeks.exclude(user_block_partners_q(user=user, field="owner"))
    return list(seeks.select_related("owner").order_by("created_at", "id"))


def seek_data(seek: Seek, *, viewer_id: int | None) -> dict[str, Any]:
    return {
        "id": seek.pk,
        "owner": user_person(seek.owner),
        "mine": seek.owner_id == viewer_id,
        "rules": seek.rules,
        "summary": rules_summary(seek.rules),
        "created_at": _when(seek.created_at),
        "expires_at": _when(seek.expires_at),
    }


def seeks_frame(*, user: User) -> dict[str, Any]:
    """The ``seeks`` frame: the open seeks ``user`` may see, their own marked ``mine``."""
    return {
        "type": "seeks",
        "seeks": [seek_data(s, viewer_id=user.pk) for s in seeks_open(user=user)],
    }


# --- people: who is online, search, recent opponents ------------------------------------------

#: The longest search a player may type (a display name is at most 40 characters).
SEARCH_MAX_LENGTH = 40


def _sees_people(viewer: Any) -> bool:
    """Only a signed-in player who may play people sees them listed (never a guest)."""
    return bool(getattr(viewer, "is_authenticated", False)) and not getattr(
        viewer, "is_guest", False
    )


def people_for(*, viewer: User) -> QuerySet[User]:
    """The players ``viewer`` may see and challenge: active, not deleted, not guests, not
    themselves, and neither blocked by nor blocking them; ordered by the name shown."""
    if not _sees_people(viewer):
        return User.objects.none()
    return (
        User.objects.filter(is_active=True, is_guest=False, deleted_at__isnull=True)
        .exclude(pk=viewer.pk)
        .exclude(user_block_partners_q(user=viewer, field="pk"))
        .annotate(shown=Lower(Coalesce(NullIf("display_name", Value("")), "username")))
        .order_by("shown", "pk")
    )


def person_data(user: User) -> dict[str, Any]:
    """A player in the people lists and the ``online`` frame: ``user_person`` with the
    country the profile shows (``country``: its code or "", ``country_name``, ``flag``)."""
    code = str(user.country.code or "") if user.country else ""
    return {
        **user_person(user),
        "country": code,
        "country_name": country_name(code) if code else "",
        "flag": user.country.unicode_flag if code else "",
    }


def people_online(*, viewer: User, now: Any = None) -> tuple[list[User], int]:
    """Who ``viewer`` sees online now: players with a per-user socket open on a live server
    process (lobby/online.py) who show that they are online, by name; at most
    ``LOBBY_ONLINE_LIMIT`` of them, and how many there are in all."""
    online = people_for(viewer=viewer).filter(
        show_online=True,
        pk__in=online_users(now=now),
    )
    total = online.count()
    return list(online[: settings.LOBBY_ONLINE_LIMIT]), total


def online_frame(*, user: User) -> dict[str, Any]:
    """The ``online`` frame: who ``user`` sees online now, and how many in all."""
    players, total = people_online(viewer=user)
    return {"type": "online", "players": [person_data(p) for p in players], "count": total}


def people_search(*, viewer: User, query: str) -> QuerySet[User]:
    """The players ``viewer`` may see whose username or display name contains ``query`` (any
    case), those starting with it first, then by name. Nothing for an empty query."""
    query = (query or "").strip()[:SEARCH_MAX_LENGTH]
    if not query or not _sees_people(viewer):
        return User.objects.none()
    starts = Q(username__istartswith=query) | Q(display_name__istartswith=query)
    return (
        people_for(viewer=viewer)
        .filter(Q(username__icontains=query) | Q(display_name__icontains=query))
        .annotate(later=Case(When(starts, then=0), default=1, output_field=IntegerField()))
        .order_by("later", "shown", "pk")
    )


def recent_opponents(*, viewer: User, scan: int = 200) -> list[tuple[User, Any]]:
    """The people ``viewer`` played lately (matches between two people, any status), newest
    first, each once with when their latest match began: at most ``LOBBY_RECENT_OPPONENTS``,
    from the ``scan`` latest matches; never a guest, a deleted account or a blocked pair."""
    if not _sees_people(viewer):
        return []
    matches = (
        Match.objects.filter(Q(user0_id=viewer.pk) | Q(user1_id=viewer.pk))
        .filter(user0__isnull=False, user1__isnull=False)
        .order_by("-created_at", "-pk")
        .values_list("user0_id", "user1_id", "created_at")[:scan]
    )
    latest: dict[int, Any] = {}
    for user0, user1, created_at in matches:
        other = user1 if user0 == viewer.pk else user0
        latest.setdefault(other, created_at)
    wanted = settings.LOBBY_RECENT_OPPONENTS
    users = {u.pk: u for u in people_for(viewer=viewer).filter(pk__in=list(latest))}
    return [(users[pk], when) for pk, when in latest.items() if pk in users][:wanted]


# --- challenge links --------------------------------------------------------------------------


def links_open(*, maker: User) -> list[ChallengeLink]:
    """The challenge links ``maker`` made that are still open, newest first."""
    if not getattr(maker, "is_authenticated", False):
        return []
    return list(
        ChallengeLink.objects.filter(
            maker_id=maker.pk, status=ChallengeLink.Status.OPEN, expires_at__gt=timezone.now()
        )
    )


def link_url(link: ChallengeLink) -> str:
    return reverse("lobby:link", kwargs={"token": link.token})


def link_state(link: ChallengeLink) -> str:
    """``open``, ``used``, ``cancelled`` or ``expired`` (an open link past its time)."""
    if link.status == ChallengeLink.Status.OPEN and link.expires_at <= timezone.now():
        return ChallengeLink.Status.EXPIRED.value
    return str(link.status)


def link_table_url(link: ChallengeLink) -> str | None:
    """The table of the match a used link started (its first game), if any."""
    game_id = _first_game_id(link.challenge.match_id) if link.challenge is not None else None
    return table_url(game_id) if game_id is not None else None
