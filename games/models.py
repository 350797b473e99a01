"""Matches, their games, and every move played.

Writes go through ``games.services`` only (the one place that touches both the engine and
these tables); reads for pages and sockets through ``games.selectors``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

SEATS = (0, 1)


class BotLevel(models.TextChoices):
    RANDOM = "random", _("Random bot")
    GREEDY = "greedy", _("Greedy bot")
    EXPERT = "expert", _("Expert bot")


class Match(models.Model):
    """A series of games between two seats, each a user or a bot, until one reaches the target.

    Seat 0 is player one (the creator, or the one listed first); RULES.md's tie-break for the
    first game's starter favours it.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class EndReason(models.TextChoices):
        NONE = "", _("not over")
        TARGET_REACHED = "target_reached", _("target reached")
        RESIGNED = "resigned", _("resigned")
        ABORTED = "aborted", _("aborted before both players moved")
        TIMEOUT = "timeout", _("forfeited: timed out too often in a row")
        ABANDONED = "abandoned", _("forfeited: away longer than the grace period")

    user0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,  # accounts are anonymised, never deleted (docs/accounts.md)
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 0 player"),
    )
    user1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("seat 1 player"),
    )
    bot0 = models.CharField(_("seat 0 bot"), max_length=16, choices=BotLevel.choices, blank=True)
    bot1 = models.CharField(_("seat 1 bot"), max_length=16, choices=BotLevel.choices, blank=True)
    rules = models.JSONField(_("rules"), help_text=_("engine Rules.to_dict(), every knob"))
    target = models.PositiveSmallIntegerField(_("target points"), default=50)
    ranked = models.BooleanField(_("ranked"), default=False)
    league = models.ForeignKey(
        "leagues.League",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches",
        verbose_name=_("league"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    score0 = models.PositiveIntegerField(_("seat 0 points"), default=0)
    score1 = models.PositiveIntegerField(_("seat 1 points"), default=0)
    winner = models.PositiveSmallIntegerField(_("winning seat"), null=True, blank=True)
    end_reason = models.CharField(
        _("end reason"), max_length=16, choices=EndReason.choices, blank=True, default=""
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    rematch_offered_by = models.PositiveSmallIntegerField(
        _("rematch offered by seat"), null=True, blank=True
    )
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        verbose_name=_("rematch"),
        help_text=_("the match this one's rematch created (one rematch per match)"),
    )
    aborted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("aborted by"),
        help_text=_("the player who aborted the match (empty: not aborted, or by the site)"),
    )
    timeouts0 = models.PositiveSmallIntegerField(
        _("seat 0 timeouts in a row"),
        default=0,
        help_text=_("turns in a row the server ended for seat 0 when its time ran out"),
    )
    timeouts1 = models.PositiveSmallIntegerField(
        _("seat 1 timeouts in a row"),
        default=0,
        help_text=_("turns in a row the server ended for seat 1 when its time ran out"),
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(user0__isnull=False, bot0="") | Q(user0__isnull=True) & ~Q(bot0="")),
                name="games_match_seat0_user_xor_bot",
            ),
            models.CheckConstraint(
                condition=(Q(user1__isnull=False, bot1="") | Q(user1__isnull=True) & ~Q(bot1="")),
                name="games_match_seat1_user_xor_bot",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=SEATS),
                name="games_match_winner_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(rematch_offered_by__isnull=True) | Q(rematch_offered_by__in=SEATS),
                name="games_match_rematch_offer_is_a_seat",
            ),
            # A ranked match belongs to a league (leagues.services.ranked_match_create).
            models.CheckConstraint(
                condition=Q(ranked=False) | Q(league__isnull=False),
                name="games_match_ranked_has_league",
            ),
        ]
        indexes = [models.Index(fields=["status"], name="games_match_status_idx")]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.seat_name(0)} v {self.seat_name(1)}"

    # --- seats

    def user_id_at(self, seat: int) -> int | None:
        return self.user0_id if seat == 0 else self.user1_id

    def user_at(self, seat: int) -> Any:
        return self.user0 if seat == 0 else self.user1

    @property
    def against_bot(self) -> bool:
        """One seat is a person, the other a bot."""
        return self.is_bot(0) != self.is_bot(1)

    def seat_of(self, user: object) -> int | None:
        """The seat ``user`` holds in this match, or None (anonymous users hold none)."""
        pk = getattr(user, "pk", None)
        if pk is None or not getattr(user, "is_authenticated", False):
            return None
        for seat in SEATS:
            if self.user_id_at(seat) == pk:
                return seat
        return None

    def is_bot(self, seat: int) -> bool:
        return bool(self.bot_level(seat))

    def bot_level(self, seat: int) -> str:
        """The bot's level at ``seat`` ("random", "greedy", "expert"), or "" for a person."""
        return self.bot0 if seat == 0 else self.bot1

    def seat_name(self, seat: int) -> str:
        """What players read for that seat: the person's public name or "Expert bot"."""
        level = self.bot_level(seat)
        if level:
            return str(BotLevel(level).label)
        user = self.user0 if seat == 0 else self.user1
        return user.public_name if user is not None else "?"

    @property
    def scores(self) -> list[int]:
        return [self.score0, self.score1]

    @cached_property
    def current_game(self) -> Game | None:
        """The game in play, or after the match the last one played."""
        return self.games.order_by("-number").first()


class Game(models.Model):
    """One game of a match. ``state`` is the engine's ``to_dict()``; ``version`` grows by one
    with every change (each move, a resignation), so clients can tell what they missed.

    ``seed`` deals the cards and drives every shuffle; it comes from ``secrets`` and never
    leaves the server. Bots are seeded with ``bot_seed`` — never the game seed, which is
    hidden information.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class Reason(models.TextChoices):
        NONE = "", _("not over")
        PAYOFF_EMPTIED = "payoff_emptied", _("pay-off pile emptied")
        STOCK_DEPLETED = "stock_depleted", _("stock ran out (tie)")
        RESIGNED = "resigned", _("resigned")
        ABORTED = "aborted", _("aborted")
        TIMEOUT = "timeout", _("match forfeited on time")
        ABANDONED = "abandoned", _("match forfeited: player away")

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="games", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("number in the match"))
    seed = models.BigIntegerField(_("seed"), editable=False)
    bot_seed = models.BigIntegerField(_("bot seed"), editable=False)
    first_player = models.PositiveSmallIntegerField(_("first player"))
    state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    winner = models.PositiveSmallIntegerField(_("winning seat"), null=True, blank=True)
    points = models.PositiveSmallIntegerField(_("points"), default=0)
    reason = models.CharField(
        _("reason"), max_length=16, choices=Reason.choices, blank=True, default=""
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    turn_deadline = models.DateTimeField(
        _("turn deadline"),
        null=True,
        blank=True,
        help_text=_("when the turn in progress must be over (ranked play with a time limit)"),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_game_match_number"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=SEATS),
                name="games_game_winner_is_a_seat",
            ),
        ]
        indexes = [
            models.Index(fields=["status"], name="games_game_status_idx"),
            models.Index(fields=["turn_deadline"], name="games_game_deadline_idx"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} (match {self.match_id}, game {self.number})"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def to_move(self) -> int:
        """The seat to move (meaningless once the game is over)."""
        return int(self.state["to_move"])

    @property
    def ply(self) -> int:
        return int(self.state.get("ply", 0))

    def outcome_dict(self) -> dict[str, object] | None:
        """{"winner", "points", "reason"} once over (resignations included), else None."""
        if self.status == self.Status.ACTIVE:
            return None
        return {"winner": self.winner, "points": self.points, "reason": self.reason}


class Move(models.Model):
    """One row of a game's log, append-only: a move as played (``kind="move"``), or a take-back
    (``kind="undo"``, text "undo") that took back the ``undoes`` moves before it still in force.
    Rows are created by ``games.services`` and never updated or deleted; replaying a game's seed
    and its rows in ply order through the engine gives the stored state
    (``games.selectors.game_replay``). ``ply`` numbers rows, so it keeps growing across an undo
    (the engine's own ``ply`` counts only the moves in force)."""

    class Kind(models.TextChoices):
        MOVE = "move", _("move")
        UNDO = "undo", _("undo")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game")
    )
    ply = models.PositiveIntegerField(_("ply"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.MOVE)
    text = models.CharField(_("move"), max_length=16)
    undoes = models.PositiveSmallIntegerField(
        _("moves taken back"), default=0, help_text=_("for an undo row: how many moves")
    )
    client_move_id = models.CharField(_("client move id"), max_length=64, blank=True)
    version = models.PositiveIntegerField(_("version produced"))
    created_at = models.DateTimeField(_("played at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game_id", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="games_move_game_ply"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"],
                condition=~Q(client_move_id=""),
                name="games_move_game_client_id",
            ),
            models.CheckConstraint(
                condition=Q(kind="move", undoes=0) | Q(kind="undo", undoes__gt=0),
                name="games_move_undo_takes_back_moves",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.UNDO:
            return f"{self.game_id}#{self.ply} seat {self.seat}: undo {self.undoes}"
        return f"{self.game_id}#{self.ply} seat {self.seat}: {self.text}"


class SeatPresence(models.Model):
    """A socket of a match's player, open on one of its games' tables (one row per socket).

    ``seen_at`` is refreshed while the socket is open; a socket that closes keeps its row with
    ``open=False`` and ``seen_at`` the moment it closed (only the seat's latest closed row is
    kept). A row left open by a server process that died stops counting once ``seen_at`` is
    older than ``GAMES_PRESENCE_TTL``. Written by ``games.clocks.attendance`` only.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="presences", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    channel = models.CharField(_("socket channel"), max_length=200, unique=True)
    open = models.BooleanField(_("open"), default=True)
    seen_at = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("seat presence")
        verbose_name_plural = _("seat presences")
        indexes = [models.Index(fields=["match", "seat"], name="games_presence_seat_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(seat__in=SEATS), name="games_presence_seat")
        ]

    def __str__(self) -> str:
        state = "open" if self.open else "closed"
        return f"match {self.match_id} seat {self.seat}: {state}, seen {self.seen_at:%H:%M:%S}"


class Hint(models.Model):
    """A hint a player asked for (docs/games.md, "Hints"): the expert's move for the player's
    view at ``version``, its plan and its reason (``engine.coach.Hint.to_dict()``). ``move`` is
    empty while the job computes it. One row per seat and version; the rows of a game are the
    hints it used, counted in its record."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="hints", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    version = models.PositiveIntegerField(_("version asked at"))
    move = models.CharField(_("move"), max_length=16, blank=True)
    line = models.JSONField(_("the expert's plan"), default=list, blank=True)
    reason = models.JSONField(_("reason"), null=True, blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hint")
        verbose_name_plural = _("hints")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "version"], name="games_hint_game_seat_version"
            ),
            models.CheckConstraint(condition=Q(seat__in=SEATS), name="games_hint_seat"),
        ]

    def __str__(self) -> str:
        return f"hint for game {self.game_id} seat {self.seat} at {self.version}: {self.move}"


class Review(models.Model):
    """The expert's review of a finished game (docs/games.md, "Reviews"):
    ``engine.coach.Review.to_dict()`` in ``data``, its turns filled in as the job goes, so a
    job that died resumes after the last turn it stored."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting or in progress")
        DONE = "done", _("done")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="review", verbose_name=_("game")
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    data = models.JSONField(_("review"), default=dict, blank=True)
    cpu_seconds = models.FloatField(_("CPU seconds"), default=0.0)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        indexes = [models.Index(fields=["status"], name="games_review_status_idx")]

    def __str__(self) -> str:
        return f"review of game {self.game_id}: {self.status}"
