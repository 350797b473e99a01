"""Leagues, their members and ratings, the ranked queue (docs/leagues.md).

Writes go through ``leagues.services`` only; reads for pages and sockets through
``leagues.selectors``. A ranked match (``games.Match.ranked``) always belongs to a league and
is played between active members of it under the league's knobs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import engine
from leagues import glicko2


def house_rules() -> dict[str, Any]:
    """The engine's house rules, every knob (the default of ``League.rules``)."""
    return engine.Rules().to_dict()


class League(models.Model):
    """A named league: its ranked matches use its ``rules``; members join it openly or by a
    moderator's approval; archived leagues keep their standings but play no more."""

    class Admission(models.TextChoices):
        OPEN = "open", _("open: anyone may join")
        APPROVAL = "approval", _("by approval: a moderator accepts each request")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        ARCHIVED = "archived", _("archived")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    rules = models.JSONField(
        _("rules"), default=house_rules, help_text=_("engine Rules.to_dict(), every knob")
    )
    admission = models.CharField(
        _("admission"), max_length=16, choices=Admission.choices, default=Admission.OPEN
    )
    turn_time_limit = models.PositiveIntegerField(
        _("turn time limit (seconds)"),
        default=120,
        validators=[MinValueValidator(10)],
        help_text=_("the longest a turn of a ranked match may take"),
    )
    disconnect_grace = models.PositiveIntegerField(
        _("disconnect grace period (seconds)"),
        default=60,
        help_text=_("how long a disconnected player of a ranked match is waited for"),
    )
    bots_ranked = models.BooleanField(
        _("bots may play ranked"),
        default=False,
        help_text=_("members may play ranked matches against the engine's bots"),
    )
    rating_period_days = models.PositiveSmallIntegerField(
        _("rating period (days)"),
        default=7,
        validators=[MinValueValidator(1)],
        help_text=_("a member's rating deviation grows once per whole period without a match"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(rating_period_days__gte=1), name="leagues_league_period_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def engine_rules(self) -> engine.Rules:
        return engine.Rules.from_dict(self.rules)


class Membership(models.Model):
    """A player in a league: role, status, Glicko-2 rating and record. ``rated_at`` is the end
    of the player's last rated match (None before the first): the deviation grows from there."""

    class Role(models.TextChoices):
        PLAYER = "player", _("player")
        MODERATOR = "moderator", _("moderator")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        ACTIVE = "active", _("active")
        LEFT = "left", _("left")
        BANNED = "banned", _("banned")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,  # accounts are anonymised, never deleted
        related_name="league_memberships",
        verbose_name=_("player"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    rating = models.FloatField(_("rating"), default=glicko2.START_RATING)
    deviation = models.FloatField(_("rating deviation"), default=glicko2.START_DEVIATION)
    volatility = models.FloatField(_("volatility"), default=glicko2.START_VOLATILITY)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    points_for = models.PositiveIntegerField(_("points for"), default=0)
    points_against = models.PositiveIntegerField(_("points against"), default=0)
    opponents = models.PositiveIntegerField(
        _("different opponents"),
        default=0,
        help_text=_("different opponents met in rated matches (a bot level counts as one)"),
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    rated_at = models.DateTimeField(_("last rated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["league_id", "-rating", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="leagues_membership_once"),
        ]
        indexes = [
            models.Index(fields=["league", "status"], name="leagues_member_status_idx"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(league)s (%(status)s)") % {
            "player": self.user,
            "league": self.league,
            "status": self.get_status_display(),
        }

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_moderator(self) -> bool:
        return self.is_active and self.role == self.Role.MODERATOR

    @property
    def ties(self) -> int:
        """Rated matches neither won nor lost (a match cannot end tied today: kept honest)."""
        return self.matches - self.wins - self.losses

    @property
    def established(self) -> bool:
        """Whether the rating has met enough different opponents to stand among the others
        (``LEAGUES_ESTABLISHED_OPPONENTS``); until then it is provisional."""
        return self.opponents >= settings.LEAGUES_ESTABLISHED_OPPONENTS

    @property
    def glicko(self) -> glicko2.Rating:
        """The stored rating, without the growth of the deviation since ``rated_at``."""
        return glicko2.Rating(self.rating, self.deviation, self.volatility)


class QueueEntry(models.Model):
    """A member waiting in a league's ranked queue. The queue socket creates it on connect,
    refreshes ``seen_at`` while it waits and deletes it on disconnect; an entry not seen for
    ``LEAGUES_QUEUE_TTL`` seconds (its server process died) no longer counts."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="queue", verbose_name=_("league")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    rating_at_join = models.FloatField(_("rating when joining"))
    joined_at = models.DateTimeField(_("joined at"))
    seen_at = models.DateTimeField(_("last seen at"))
    channel = models.CharField(
        _("socket"), max_length=200, blank=True, help_text=_("the channel name of its socket")
    )

    class Meta:
        verbose_name = _("queue entry")
        verbose_name_plural = _("queue entries")
        ordering = ["league_id", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="leagues_queue_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s waiting in %(league)s") % {
            "player": self.user,
            "league": self.league,
        }


class RatingChange(models.Model):
    """One rated match for one member: the rating before (as stored, and the periods of
    inactivity added to its deviation), the opponent as rated against, the score, and the
    rating after. One per member and match, so a match is never rated twice; enough to
    recompute a league's ratings from its matches."""

    membership = models.ForeignKey(
        Membership,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("membership"),
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("match"),
    )
    score = models.FloatField(_("score"), help_text=_("1 a win, 0.5 a draw, 0 a loss"))
    idle_periods = models.PositiveIntegerField(_("idle rating periods"), default=0)
    rating_before = models.FloatField(_("rating before"))
    deviation_before = models.FloatField(_("deviation before"))
    volatility_before = models.FloatField(_("volatility before"))
    opponent_rating = models.FloatField(_("opponent's rating"))
    opponent_deviation = models.FloatField(_("opponent's deviation"))
    rating_after = models.FloatField(_("rating after"))
    deviation_after = models.FloatField(_("deviation after"))
    volatility_after = models.FloatField(_("volatility after"))
    at = models.DateTimeField(_("rated at"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["membership_id", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["membership", "match"], name="leagues_ratingchange_once"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.membership}: {self.rating_before:.0f} → {self.rating_after:.0f} "
            f"(match {self.match_id})"
        )

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


# --- tournaments (docs/tournaments.md) -------------------------------------------------------


class Tournament(models.Model):
    """A tournament of a league: round robin, single elimination or Swiss. Its matches are
    ranked matches of the league unless ``ranked`` is off; ``match_target`` overrides the
    league's target when set. Lifecycle: draft → registration → running → finished."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        ELIMINATION = "elimination", _("single elimination")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=80)
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(
        _("rounds (Swiss)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Swiss only: how many rounds (empty: enough to separate a winner)"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    ranked = models.BooleanField(
        _("ranked"), default=True, help_text=_("its matches are rated in the league")
    )
    match_target = models.PositiveSmallIntegerField(
        _("match target"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("points that win a match (empty: the league's)"),
    )
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="leagues_tournament_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.league})"


class Entry(models.Model):
    """A player registered in a tournament; ``seed_rating`` is their league rating when the
    tournament started (the seeding). A withdrawn entrant keeps their results."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    seed_rating = models.FloatField(_("rating at the start"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.REGISTERED
    )
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament_id", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="leagues_entry_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(tournament)s") % {
            "player": self.user,
            "tournament": self.tournament.name,
        }

    @property
    def is_withdrawn(self) -> bool:
        return self.status == self.Status.WITHDRAWN


class Round(models.Model):
    """A round of a tournament: its pairings are made when it opens; it closes when every
    pairing has a result."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="leagues_round_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, round %(number)s") % {
            "tournament": self.tournament.name,
            "number": self.number,
        }


class TournamentMatch(models.Model):
    """One pairing of a round: ``first`` takes seat 0, ``second`` seat 1 (None: a bye). Its
    result (``winner``, ``forfeit``, ``source``) is read from the match when it ends, or set
    by a forfeit, a bye or an admin."""

    class Source(models.TextChoices):
        PENDING = "", _("no result yet")
        PLAYED = "played", _("played")
        FORFEIT = "forfeit", _("forfeit")
        BYE = "bye", _("bye")
        ADMIN = "admin", _("set by an admin")

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    board = models.PositiveSmallIntegerField(_("board"), default=1)
    first = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("first player"),
    )
    second = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("second player"),
    )
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_pairing",
        verbose_name=_("match"),
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    forfeit = models.BooleanField(_("forfeit"), default=False)
    source = models.CharField(
        _("result source"), max_length=8, choices=Source.choices, default="", blank=True
    )
    result_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("result set by"),
        help_text=_("the organiser who set the result by hand (empty: the match or the site)"),
    )

    class Meta:
        verbose_name_plural = _("tournament pairings")
        verbose_name = _("tournament pairing")
        ordering = ["round_id", "board", "id"]

    def __str__(self) -> str:
        if not self.second_id:
            return gettext("%(round)s: %(first)s has a bye") % {
                "round": self.round,
                "first": self.first,
            }
        return gettext("%(round)s: %(first)s v %(second)s") % {
            "round": self.round,
            "first": self.first,
            "second": self.second,
        }

    @property
    def has_result(self) -> bool:
        return bool(self.source)

    @property
    def is_bye(self) -> bool:
        return self.second_id is None


# --- seasons (docs/leagues.md, "Seasons") ------------------------------------------------------


class Season(models.Model):
    """A named period of a league whose table is kept apart from the ratings: what its members'
    rated matches against each other came to while it was open (wins, points, matches), ranked
    by the ``order`` the league chose. A league has at most one open season; closing it keeps
    its final table as it stood (``SeasonRow``), which nothing changes afterwards."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("season status", "open")
        CLOSED = "closed", pgettext_lazy("season status", "closed")

    class Order(models.TextChoices):
        WINS = "wins", _("most wins, then most points scored")
        DIFFERENCE = "difference", _("most wins, then the best points difference")
        POINTS = "points", _("most points scored, then most wins")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    order = models.CharField(
        _("order of the table"),
        max_length=16,
        choices=Order.choices,
        default=Order.WINS,
        help_text=_(
            "what ranks the season's table; then fewer matches played; players still equal "
            "share a place"
        ),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    starts_at = models.DateTimeField(_("opened at"))
    ends_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league_id", "-starts_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league"],
                condition=Q(status="open"),
                name="leagues_season_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.league})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class SeasonRow(models.Model):
    """A line of a closed season's final table, kept as it stood when the season closed."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="rows", verbose_name=_("season")
    )
    membership = models.ForeignKey(
        Membership, on_delete=models.CASCADE, related_name="+", verbose_name=_("membership")
    )
    position = models.PositiveIntegerField(_("position"))
    rank = models.PositiveIntegerField(_("place"), help_text=_("equal players share a place"))
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    losses = models.PositiveIntegerField(_("losses"), default=0)
    points_for = models.PositiveIntegerField(_("points for"), default=0)
    points_against = models.PositiveIntegerField(_("points against"), default=0)

    class Meta:
        verbose_name = _("season table row")
        verbose_name_plural = _("season table rows")
        ordering = ["season_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "membership"], name="leagues_seasonrow_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season.name}: {self.rank}. {self.membership.user}"
