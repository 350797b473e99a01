from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField


class CaseInsensitiveUserManager(UserManager["User"]):
    """Log-in finds a user whatever the case of the username typed."""

    def get_by_natural_key(self, username: str | None) -> "User":
        return self.get(username__iexact=username)


class User(AbstractUser):
    """A player or an admin. Usernames and e-mail addresses are unique whatever their case."""

    email = models.EmailField(_("e-mail address"), blank=True)
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Leave empty to follow your browser's language."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("Your browser's, noted on each visit: the times in your e-mails are in it."),
    )
    country = CountryField(_("country"), blank=True)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True, editable=False)
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        help_text=_("Played by a program through the API; marked as a bot wherever it appears."),
    )

    is_guest = models.BooleanField(
        _("guest"),
        default=False,
        help_text=_(
            "Made for one browser session that played without signing up: casual games "
            "against the bots only, shown as “Guest”, deleted after a while unless it signs up."
        ),
    )
    show_online = models.BooleanField(
        _("show when I am online"),
        default=True,
        help_text=_("Other players see you in the list of who is online now."),
    )

    objects = CaseInsensitiveUserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_ci_unique",
            ),
        ]
        indexes = [  # the sweeper's look for idle guests
            models.Index(
                fields=["date_joined"],
                condition=models.Q(is_guest=True),
                name="accounts_user_guests",
            ),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        """The name other players see; a deleted account shows as "deleted player"."""
        if self.deleted_at is not None:
            return str(_("deleted player"))
        if self.is_guest:
            return str(_("Guest"))
        return self.display_name or self.username


class Block(models.Model):
    """``blocker`` blocked ``blocked``: neither may challenge the other or take the other's
    seeks, and neither sees the other's seeks (docs/lobby.md). Only the blocker is told."""

    blocker = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="blocks_made", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="blocks_received", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("blocked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="accounts_block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocked {self.blocked}"


class BotAccountRequest(models.Model):
    """A player asks to turn their fresh account (no games yet) into a bot account; an admin
    approves or declines (docs/bot_accounts.md). At most one request per user is pending."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        DECLINED = "declined", _("declined")

    NOTE_MAX_LENGTH = 500

    user = models.ForeignKey(
        User,
        on_delete=models.CASCADE,
        related_name="bot_account_requests",
        verbose_name=_("account"),
    )
    note = models.TextField(
        _("about the program"),
        max_length=NOTE_MAX_LENGTH,
        help_text=_("What the program is and how it plays; shown to the admin."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        User,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("bot account request")
        verbose_name_plural = _("bot account requests")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="accounts_botrequest_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: bot account ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING
