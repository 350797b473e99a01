"""A league's seasons (docs/leagues.md, "Seasons"): opening and closing one, and its table.

A season counts what the league rates (``RatingChange``): every rated match between two members
that ended while the season was open — from the ranked queue, a ranked challenge or a ranked
tournament's pairing — and not a casual match, a match against an engine bot, an unrated one or
another league's. While the season is open its table is read from those rows, so an admin's
correction of a result shows in it; closing the season keeps the table as it stands then
(``SeasonRow``), and nothing changes it afterwards. A refusal is a ``GameError`` (forbidden)
whose message says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import FORBIDDEN, GameError, lazy_format
from leagues import glicko2
from leagues.charts import day_text
from leagues.models import League, Membership, RatingChange, Season, SeasonRow
from leagues.permissions import league_may_moderate

# --- the table ---------------------------------------------------------------------------------


@dataclass
class SeasonLine:
    """One member's line in a season's table."""

    membership: Membership
    matches: int = 0
    wins: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    rank: int = 0

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def name(self) -> str:
        return str(self.membership.user.public_name)

    @property
    def username(self) -> str:
        return str(self.membership.user.username)


#: What ranks a table, by ``Season.order``; then fewer matches played. Equal keys share a place.
ORDERS: dict[str, Callable[[SeasonLine], tuple[int, ...]]] = {
    Season.Order.WINS: lambda line: (-line.wins, -line.points_for, line.matches),
    Season.Order.DIFFERENCE: lambda line: (-line.wins, -line.difference, line.matches),
    Season.Order.POINTS: lambda line: (-line.points_for, -line.wins, line.matches),
}


def season_ranked(lines: list[SeasonLine], order: str) -> list[SeasonLine]:
    """``lines`` ordered by ``order`` (``Season.Order``; then fewer matches played), players
    still equal sharing a place and listed by name; each line's ``rank`` set."""
    key = ORDERS.get(order, ORDERS[Season.Order.WINS])
    lines = sorted(lines, key=lambda line: (key(line), line.name.lower(), line.membership.pk))
    for position, line in enumerate(lines, start=1):
        before = lines[position - 2] if position > 1 else None
        line.rank = before.rank if before is not None and key(before) == key(line) else position
    return lines


def season_tally(season: Season, *, until: Any = None) -> list[SeasonLine]:
    """The season's table from the league's rated matches between members that ended from its
    start (until ``until``, else until now), ranked. A member appears once they played one."""
    changes = RatingChange.objects.filter(
        membership__league_id=season.league_id,
        at__gte=season.starts_at,
        match__bot0="",
        match__bot1="",
    ).select_related("membership__user", "match")
    if until is not None:
        changes = changes.filter(at__lte=until)
    lines: dict[int, SeasonLine] = {}
    for change in changes:
        line = lines.setdefault(change.membership_id, SeasonLine(membership=change.membership))
        match = change.match
        seat = 0 if match.user0_id == change.membership.user_id else 1
        line.matches += 1
        line.wins += change.score == glicko2.WIN
        line.losses += change.score == glicko2.LOSS
        line.points_for += match.scores[seat]
        line.points_against += match.scores[1 - seat]
    return season_ranked(list(lines.values()), season.order)


def season_table(season: Season) -> list[SeasonLine]:
    """The season's table: while it is open, as its matches stand now; once closed, the final
    table kept when it closed."""
    if season.is_open:
        return season_tally(season)
    return [
        SeasonLine(
            membership=row.membership,
            matches=row.matches,
            wins=row.wins,
            losses=row.losses,
            points_for=row.points_for,
            points_against=row.points_against,
            rank=row.rank,
        )
        for row in season.rows.select_related("membership__user").order_by("position")
    ]


@dataclass
class SeasonShown:
    """A season as the league's page shows it: its dates in the reader's language, its table."""

    season: Season
    starts: str
    ends: str
    lines: list[SeasonLine] = field(default_factory=list)


def league_seasons(*, league: League) -> tuple[SeasonShown | None, list[SeasonShown]]:
    """(the open season, or None; the closed seasons, the latest first), each with its table."""
    shown = [
        SeasonShown(
            season=season,
            starts=day_text(season.starts_at),
            ends=day_text(season.ends_at) if season.ends_at else "",
            lines=season_table(season),
        )
        for season in Season.objects.filter(league=league).order_by("-starts_at", "-pk")
    ]
    current = next((s for s in shown if s.season.is_open), None)
    return current, [s for s in shown if not s.season.is_open]


# --- opening and closing -----------------------------------------------------------------------


def _moderator_check(league: League, by: Any) -> None:
    if not league_may_moderate(league=league, user=by):
        raise GameError(
            FORBIDDEN,
            lazy_format(_("Only moderators of %(league)s may do that."), league=league.name),
        )


def season_open_check(*, league: League, by: Any) -> None:
    """GameError forbidden when ``by`` may not open a season of ``league`` now: not one of its
    moderators (nor an operator of every league), the league archived, or a season already
    open there."""
    _moderator_check(league, by)
    if not league.is_active:
        raise GameError(FORBIDDEN, lazy_format(_("%(league)s is archived."), league=league.name))
    current = Season.objects.filter(league=league, status=Season.Status.OPEN).first()
    if current is not None:
        raise GameError(
            FORBIDDEN,
            lazy_format(
                _("%(league)s already has an open season, %(season)s: close it first."),
                league=league.name,
                season=current.name,
            ),
        )


def season_open(*, league: League, name: str, by: Any, order: str = Season.Order.WINS) -> Season:
    """Open a season named ``name`` in ``league`` from now, its table ranked by ``order``.
    Refusals (forbidden): as ``season_open_check``; an empty name."""
    if order not in Season.Order.values:
        raise ValueError(f"unknown order {order!r}")
    name = (name or "").strip()
    if not name:
        raise GameError(FORBIDDEN, _("A season needs a name."))
    try:
        with transaction.atomic():
            League.objects.select_for_update().filter(pk=league.pk).first()
            season_open_check(league=league, by=by)
            return Season.objects.create(
                league=league, name=name, order=order, starts_at=timezone.now()
            )
    except IntegrityError:  # opened at the same moment elsewhere: the constraint held
        season_open_check(league=league, by=by)
        raise


def season_close(*, season: Season, by: Any) -> Season:
    """Close ``season`` now: its table, as its matches stand, is kept as the final table, and
    no later match or correction changes it. Refusals (forbidden): ``by`` does not run the
    league; the season is closed already."""
    with transaction.atomic():
        locked = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        _moderator_check(locked.league, by)
        if not locked.is_open:
            raise GameError(
                FORBIDDEN,
                lazy_format(_("%(season)s is closed already."), season=locked.name),
            )
        now = timezone.now()
        lines = season_tally(locked, until=now)
        SeasonRow.objects.bulk_create(
            SeasonRow(
                season=locked,
                membership=line.membership,
                position=position,
                rank=line.rank,
                matches=line.matches,
                wins=line.wins,
                losses=line.losses,
                points_for=line.points_for,
                points_against=line.points_against,
            )
            for position, line in enumerate(lines, start=1)
        )
        locked.status = Season.Status.CLOSED
        locked.ends_at = now
        locked.save(update_fields=["status", "ends_at"])
    return locked
