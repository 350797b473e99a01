"""Challenges (one player invites another) and seeks (an open invitation anyone may take).

Writes go through ``lobby.services`` only; reads through ``lobby.selectors``. A pending
challenge or an open seek whose ``expires_at`` has passed counts as expired wherever it is
read, whether or not ``lobby.services.lobby_expire`` has marked it yet.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Challenge(models.Model):
    """``challenger`` invites ``challenged`` to a casual match under ``rules`` (or, with a
    ``league``, to a ranked match of that league under its knobs). Accepting it starts the
    match (the challenger is player one) and records it in ``match``."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,  # accounts are anonymised, never deleted
        related_name="challenges_sent",
        verbose_name=_("challenger"),
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="challenges_received",
        verbose_name=_("challenged player"),
    )
    rules = models.JSONField(_("rules"), help_text=_("engine Rules.to_dict(), every knob"))
    league = models.ForeignKey(
        "leagues.League",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("league"),
        help_text=_("set for a ranked challenge: a ranked match of this league, its knobs"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(challenger=F("challenged")), name="lobby_challenge_not_self"
            ),
        ]
        indexes = [
            # "my pending challenges", sent and received, and the expiry sweep
            models.Index(fields=["challenged", "status"], name="lobby_chal_challenged_idx"),
            models.Index(fields=["challenger", "status"], name="lobby_chal_challenger_idx"),
            models.Index(fields=["status", "expires_at"], name="lobby_chal_expiry_idx"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} to {self.challenged} ({self.status})"

    @property
    def ranked(self) -> bool:
        """A ranked challenge: accepting it starts a ranked match of ``league``."""
        return self.league_id is not None

    @property
    def is_open(self) -> bool:
        """Pending and not past its expiry (what every read treats as answerable)."""
        return self.status == self.Status.PENDING and self.expires_at > timezone.now()


class Seek(models.Model):
    """``owner`` offers a casual match under ``rules`` to anyone; the first to take it plays
    (the owner is player one)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        TAKEN = "taken", _("taken")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seeks",
        verbose_name=_("posted by"),
    )
    rules = models.JSONField(_("rules"), help_text=_("engine Rules.to_dict(), every knob"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seeks_taken",
        verbose_name=_("taken by"),
    )
    created_at = models.DateTimeField(_("posted at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    taken_at = models.DateTimeField(_("taken at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")
        ordering = ["-created_at", "-id"]
        indexes = [
            # the open list (and the expiry sweep), and "my open seeks"
            models.Index(fields=["status", "expires_at"], name="lobby_seek_open_idx"),
            models.Index(fields=["owner", "status"], name="lobby_seek_owner_idx"),
        ]

    def __str__(self) -> str:
        return f"Seek {self.pk} by {self.owner} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN and self.expires_at > timezone.now()


class ChallengeLink(models.Model):
    """``maker`` offers a casual match under ``rules`` to whoever opens the link
    ``/play/people/link/<token>/`` and accepts first. Accepting makes a challenge from the maker
    to that player and accepts it (``lobby.services.challenge_accept``), recorded in
    ``challenge``."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        USED = "used", _("used")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    maker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="challenge_links",
        verbose_name=_("made by"),
    )
    #: ``secrets.token_urlsafe``: the link's only secret, unguessable.
    token = models.CharField(_("token"), max_length=64, unique=True)
    rules = models.JSONField(_("rules"), help_text=_("engine Rules.to_dict(), every knob"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN
    )
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    challenge = models.ForeignKey(
        Challenge,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("challenge"),
    )
    created_at = models.DateTimeField(_("made at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge link")
        verbose_name_plural = _("challenge links")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["maker", "status"], name="lobby_link_maker_idx"),
        ]

    def __str__(self) -> str:
        return f"Challenge link {self.pk} by {self.maker} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN and self.expires_at > timezone.now()


class Presence(models.Model):
    """The server process ``process`` holds at least one per-user socket (``/ws/me/``) of
    ``user``: every page of a signed-in player opens one. Each process refreshes its rows on the
    sockets' timer; a row not seen for ``LOBBY_ONLINE_TTL`` seconds no longer counts (its
    process died). Who is online is read from here (``lobby/online.py``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,  # a guest's account is deleted: its rows go with it
        related_name="+",
        verbose_name=_("user"),
    )
    process = models.CharField(_("server process"), max_length=32)
    seen_at = models.DateTimeField(_("seen at"))

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")
        constraints = [
            models.UniqueConstraint(fields=["process", "user"], name="lobby_presence_once"),
        ]
        indexes = [models.Index(fields=["seen_at"], name="lobby_presence_seen_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.process} at {self.seen_at}"
