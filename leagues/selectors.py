"""Reads for the league pages, the queue socket and profiles.

A rating is shown as it stands *now*: its deviation grown by the whole rating periods since
the member's last rated match (``leagues.services.membership_rating_now``), so a player who
stopped playing becomes provisional ("?") again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
from core.i18n import duration_text
from games.models import Game, Match
from games.selectors import match_history_for, match_history_rows, match_result_note
from leagues.charts import rating_chart_svg
from leagues.models import League, Membership, RatingChange
from leagues.services import membership_rating_now, rating_provisional

SORTS = ("rating", "matches", "wins", "points")


def leagues_for_list() -> tuple[list[League], list[League]]:
    """(active leagues, archived leagues), each by name."""
    leagues = list(League.objects.order_by("name", "pk"))
    return (
        [lg for lg in leagues if lg.is_active],
        [lg for lg in leagues if not lg.is_active],
    )


def membership_of(*, league: League, user: Any) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(league=league, user_id=user.pk).first()


def league_rules_lines(league: League) -> list[str]:
    """The league's knobs, and its ranked-play settings, as lines a player reads."""
    rules = engine.Rules.from_dict(league.rules)

    def n(value: int) -> dict[str, int]:
        return {"n": value}

    lines = [
        ngettext("A pay-off pile of %(n)s card", "A pay-off pile of %(n)s cards", rules.payoff_size)
        % n(rules.payoff_size),
        ngettext("A hand of %(n)s card", "A hand of %(n)s cards", rules.hand_size)
        % n(rules.hand_size),
        ngettext("%(n)s side stack each", "%(n)s side stacks each", rules.side_stacks)
        % n(rules.side_stacks),
        ngettext("%(n)s center stack", "%(n)s center stacks", rules.center_stacks)
        % n(rules.center_stacks),
        ngettext("%(n)s deck", "%(n)s decks", rules.decks) % n(rules.decks),
        _("A King may start an empty center stack")
        if rules.king_on_empty
        else _("Only an Ace starts an empty center stack"),
        _("An empty hand refills during the turn")
        if rules.refill_empty_hand
        else _("An empty hand waits for the next turn"),
        ngettext("A match goes to %(n)s point", "A match goes to %(n)s points", rules.match_target)
        % n(rules.match_target),
        ngettext(
            "A turn may take at most %(n)s second",
            "A turn may take at most %(n)s seconds",
            league.turn_time_limit,
        )
        % n(league.turn_time_limit),
        ngettext(
            "A disconnected player is waited for %(n)s second",
            "A disconnected player is waited for %(n)s seconds",
            league.disconnect_grace,
        )
        % n(league.disconnect_grace),
        _("Bots may play ranked matches")
        if league.bots_ranked
        else _("Only people play ranked matches"),
        ngettext(
            "Ratings: Glicko-2; a rating period is %(n)s day",
            "Ratings: Glicko-2; a rating period is %(n)s days",
            league.rating_period_days,
        )
        % n(league.rating_period_days),
        ngettext(
            "A ranked match is rated once it reaches its target or each player has played "
            "%(n)s turn",
            "A ranked match is rated once it reaches its target or each player has played "
            "%(n)s turns",
            settings.LEAGUES_RATED_MIN_TURNS,
        )
        % n(settings.LEAGUES_RATED_MIN_TURNS),
        ngettext(
            "Two players start at most %(n)s ranked match together in %(period)s",
            "Two players start at most %(n)s ranked matches together in %(period)s",
            settings.LEAGUES_RATED_PAIR_LIMIT,
        )
        % {
            "n": settings.LEAGUES_RATED_PAIR_LIMIT,
            "period": duration_text(settings.LEAGUES_RATED_PAIR_PERIOD),
        },
    ]
    return lines


@dataclass(frozen=True)
class StandingRow:
    rank: int
    membership: Membership
    name: str
    username: str
    rating: int
    deviation: int
    provisional: bool
    established: bool
    matches: int
    wins: int
    losses: int
    ties: int
    points_for: int
    points_against: int
    moderator: bool


def _sort_key(sort: str, m: Membership) -> tuple[Any, ...]:
    tie = (-m.rating, m.user.username.lower(), m.pk)  # a stable order among equals
    if sort == "matches":
        return (-m.matches, *tie)
    if sort == "wins":
        return (-m.wins, *tie)
    if sort == "points":
        return (-m.points_for, m.points_against, *tie)
    # By rating, established ratings first: a new account's rating, however high, stands
    # below them until it has met enough different opponents.
    return (not m.established, -round(m.rating), -m.matches, m.user.username.lower(), m.pk)


def league_standings(
    *, league: League, sort: str = "rating", now: datetime | None = None
) -> list[StandingRow]:
    """The active members, ordered by ``sort`` (``rating``, ``matches``, ``wins`` or
    ``points`` — points scored; anything else means ``rating``, where established ratings
    come first), then by rating, then by username, so equal rows always come in the same
    order."""
    if sort not in SORTS:
        sort = "rating"
    now = now or timezone.now()
    members = list(
        Membership.objects.filter(league=league, status=Membership.Status.ACTIVE).select_related(
            "user", "league"
        )
    )
    members.sort(key=lambda m: _sort_key(sort, m))
    rows = []
    for rank, m in enumerate(members, start=1):
        shown = membership_rating_now(m, now=now)
        rows.append(
            StandingRow(
                rank=rank,
                membership=m,
                name=m.user.public_name,
                username=m.user.username,
                rating=round(shown.rating),
                deviation=round(shown.deviation),
                provisional=rating_provisional(m, shown),
                established=m.established,
                matches=m.matches,
                wins=m.wins,
                losses=m.losses,
                ties=m.ties,
                points_for=m.points_for,
                points_against=m.points_against,
                moderator=m.role == Membership.Role.MODERATOR,
            )
        )
    return rows


@dataclass(frozen=True)
class MatchRow:
    match: Match
    names: tuple[str, str]
    scores: tuple[int, int]
    winner: int | None
    how: str  # how it ended when the scores do not say: "Alice resigned: Bruno wins the match."
    game: Game | None  # the current game (live) or the last one (finished)
    date: datetime


def _match_rows(matches: list[Match]) -> list[MatchRow]:
    rows = []
    for match in matches:
        games = list(match.games.all())
        rows.append(
            MatchRow(
                match=match,
                names=(match.seat_name(0), match.seat_name(1)),
                scores=(match.score0, match.score1),
                winner=match.winner,
                how=match_result_note(match),
                game=games[-1] if games else None,
                date=match.finished_at or match.created_at,
            )
        )
    return rows


def _league_matches(league: League) -> Any:
    return (
        Match.objects.filter(league=league, ranked=True)
        .select_related("user0", "user1")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
    )


def league_matches_live(*, league: League, limit: int = 20) -> list[MatchRow]:
    """The league's ranked matches in play, newest first."""
    matches = _league_matches(league).filter(status=Match.Status.ACTIVE)
    return _match_rows(list(matches.order_by("-created_at", "-pk")[:limit]))


def league_matches_recent(*, league: League, limit: int = 10) -> list[MatchRow]:
    """The league's latest finished ranked matches (aborted ones are not results)."""
    matches = _league_matches(league).filter(status=Match.Status.FINISHED)
    return _match_rows(list(matches.order_by("-finished_at", "-pk")[:limit]))


def league_requests(*, league: League) -> list[Membership]:
    """Requests to join waiting for a moderator, oldest first."""
    return list(
        Membership.objects.filter(league=league, status=Membership.Status.PENDING)
        .select_related("user")
        .order_by("joined_at", "pk")
    )


# --- profiles ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueRatingCard:
    """One league on a player's profile."""

    league: League
    membership: Membership
    rating: int
    deviation: int
    provisional: bool
    chart: SafeString
    changes: list[RatingChange]
    recent: list[MatchRow]


def user_league_ratings(*, user: Any, now: datetime | None = None) -> list[LeagueRatingCard]:
    """The player's leagues (active memberships, and any with rated matches), each with the
    rating as it stands, its history as a chart and the latest ranked matches there."""
    now = now or timezone.now()
    memberships = list(
        Membership.objects.filter(user_id=user.pk)
        .filter(Q(status=Membership.Status.ACTIVE) | Q(matches__gt=0))
        .select_related("league")
        .order_by("league__name", "pk")
    )
    cards = []
    for m in memberships:
        shown = membership_rating_now(m, now=now)
        changes = list(RatingChange.objects.filter(membership=m).order_by("at", "pk"))
        chart = _history_chart(m, changes, user=user)
        recent = (
            _league_matches(m.league)
            .filter(Q(user0_id=user.pk) | Q(user1_id=user.pk))
            .exclude(status=Match.Status.ABORTED)
            .order_by("-created_at", "-pk")[:5]
        )
        cards.append(
            LeagueRatingCard(
                league=m.league,
                membership=m,
                rating=round(shown.rating),
                deviation=round(shown.deviation),
                provisional=rating_provisional(m, shown),
                chart=chart,
                changes=changes,
                recent=_match_rows(list(recent)),
            )
        )
    return cards


def _history_chart(membership: Membership, changes: list[RatingChange], *, user: Any) -> SafeString:
    """The chart of a member's rating: where it started, then after each rated match."""
    points: list[tuple[datetime, float]] = []
    if changes:
        points.append((membership.joined_at, changes[0].rating_before))
        points.extend((c.at, c.rating_after) for c in changes)
    return rating_chart_svg(
        points,
        title=_("%(name)s's rating in %(league)s")
        % {"name": user.public_name, "league": membership.league.name},
        chart_id=f"rating-chart-{membership.league.slug}",
    )


@dataclass(frozen=True)
class MemberRating:
    """A member's own rating on their league's page."""

    rating: int
    deviation: int
    provisional: bool
    chart: SafeString  # empty before their first rated match


def member_rating(
    *, membership: Membership | None, now: datetime | None = None
) -> MemberRating | None:
    """The rating of the member looking at their league's page, as it stands, and its history
    as a chart; None for a visitor who is not an active member."""
    if membership is None or membership.status != Membership.Status.ACTIVE:
        return None
    shown = membership_rating_now(membership, now=now or timezone.now())
    changes = list(RatingChange.objects.filter(membership=membership).order_by("at", "pk"))
    return MemberRating(
        rating=round(shown.rating),
        deviation=round(shown.deviation),
        provisional=rating_provisional(membership, shown),
        chart=_history_chart(membership, changes, user=membership.user),
    )


@dataclass(frozen=True)
class Record:
    wins: int
    losses: int
    ties: int

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.ties


def user_record(*, user: Any, ranked: bool | None = None) -> Record:
    """The player's finished matches, won, lost and tied (a match without a winner; aborted
    matches are no result), all of them or only ranked (``ranked=True``) or casual ones."""
    finished = Match.objects.filter(Q(user0_id=user.pk) | Q(user1_id=user.pk)).filter(
        status=Match.Status.FINISHED
    )
    if ranked is not None:
        finished = finished.filter(ranked=ranked)
    won = finished.filter(Q(user0_id=user.pk, winner=0) | Q(user1_id=user.pk, winner=1)).count()
    tied = finished.filter(winner__isnull=True).count()
    return Record(wins=won, losses=finished.count() - won - tied, ties=tied)


# --- the REST API -----------------------------------------------------------------------------


def leagues_visible(*, status: str | None = None, member: Any = None) -> Any:
    """Every league, as the leagues page shows them: active ones first, then archived, each
    by name; each annotated with ``members`` (how many active members). ``status`` keeps one
    status; ``member`` keeps the leagues where that user is an active member."""
    from django.db.models import Case, Count, IntegerField, Value, When

    leagues = League.objects.annotate(
        members=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE)),
        archived_last=Case(
            When(status=League.Status.ACTIVE, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        ),
    )
    if status:
        leagues = leagues.filter(status=status)
    if member is not None:
        leagues = leagues.filter(
            pk__in=Membership.objects.filter(
                user_id=member.pk, status=Membership.Status.ACTIVE
            ).values("league_id")
        )
    return leagues.order_by("archived_last", "name", "pk")


def league_visible_get(*, slug: str) -> League:
    """The league ``slug``, annotated as ``leagues_visible``'s, or GameError not_found."""
    from core.errors import NOT_FOUND, GameError

    league = leagues_visible().filter(slug=slug).first()
    if league is None:
        raise GameError(NOT_FOUND, gettext_lazy("There is no such league."))
    return league


@dataclass(frozen=True)
class MemberRow:
    """A membership with its rating as it stands now (rounded, as the pages show it)."""

    membership: Membership
    rating: int
    deviation: int
    provisional: bool


def member_row(membership: Membership, *, now: datetime | None = None) -> MemberRow:
    shown = membership_rating_now(membership, now=now)
    return MemberRow(
        membership=membership,
        rating=round(shown.rating),
        deviation=round(shown.deviation),
        provisional=rating_provisional(membership, shown),
    )


def league_members(
    *, league: League, status: str = Membership.Status.ACTIVE, now: datetime | None = None
) -> list[MemberRow]:
    """The league's members of one status, in the order they joined (oldest first), each
    with the rating as it stands now. Who may see which status is the caller's to decide
    (pending requests are for the league's moderators: ``league_may_moderate``)."""
    now = now or timezone.now()
    members = (
        Membership.objects.filter(league=league, status=status)
        .select_related("user", "league")
        .order_by("joined_at", "pk")
    )
    return [member_row(m, now=now) for m in members]


#: The latest matches a profile shows.
PROFILE_RECENT_MATCHES = 5


def profile_section(profile_user: Any) -> dict[str, Any]:
    """The names ``leagues/_profile.html`` reads on a player's profile (``accounts.hooks``):
    their record, league ratings and latest matches."""
    latest = list(match_history_for(profile_user)[:PROFILE_RECENT_MATCHES])
    return {
        "record": user_record(user=profile_user),
        "league_ratings": user_league_ratings(user=profile_user),
        "recent_matches": match_history_rows(latest, profile_user),
    }
