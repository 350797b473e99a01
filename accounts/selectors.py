"""Reads about accounts: who exists, which names and addresses are taken."""

from collections.abc import Collection
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts import hooks
from accounts.models import Block, BotAccountRequest, User
from core.errors import DUPLICATE, FORBIDDEN

DELETED_USERNAME_PREFIX = "deleted-"
GUEST_USERNAME_PREFIX = "guest-"
#: Every refusal of something a guest may not do: play people, leagues, the API.
GUESTS_PLAY_BOTS = _(
    "Guests play the bots only. Sign up, free and with no e-mail address needed, to play "
    "people, join leagues and use the API; your games come with you."
)


def user_is_guest(user: Any) -> bool:
    """True for a guest account (``User.is_guest``); False for anyone else, anonymous too."""
    return bool(getattr(user, "is_guest", False))


def user_person(user: User) -> dict[str, Any]:
    """A player as others see them, in every frame and API answer: ``{username, name,
    is_bot}`` (the public name: "deleted player" once deleted)."""
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


def user_username_taken(*, username: str, exclude: User | None = None) -> bool:
    """True when another account already has this username, whatever its case."""
    users = User.objects.filter(username__iexact=username)
    if exclude is not None:
        users = users.exclude(pk=exclude.pk)
    return users.exists()


def user_email_taken(*, email: str, exclude: User | None = None) -> bool:
    """True when another account already has this e-mail address, whatever its case."""
    if not email:
        return False
    users = User.objects.filter(email__iexact=email)
    if exclude is not None:
        users = users.exclude(pk=exclude.pk)
    return users.exists()


def user_public_get(*, username: str) -> User | None:
    """The account whose public profile is at this username, or None (unknown, deleted, or a
    guest: guests have no profile)."""
    return User.objects.filter(
        username__iexact=username, deleted_at__isnull=True, is_guest=False
    ).first()


# --- blocking ---------------------------------------------------------------------------------


def user_has_blocked(*, blocker: User, blocked: User) -> bool:
    """True when ``blocker`` blocked ``blocked`` (one way only)."""
    return Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists()


def users_blocked_either_way(*, user_a: User, user_b: User) -> bool:
    """True when either of the two blocked the other: then they cannot play each other."""
    return Block.objects.filter(
        Q(blocker_id=user_a.pk, blocked_id=user_b.pk)
        | Q(blocker_id=user_b.pk, blocked_id=user_a.pk)
    ).exists()


def user_block_partners_q(*, user: User, field: str) -> Q:
    """A filter on ``field`` (a user foreign key, e.g. ``"owner"``) matching every player
    ``user`` blocked or was blocked by; ``queryset.exclude(...)`` it to hide them (two
    subqueries, one database round trip)."""
    blocked = Block.objects.filter(blocker_id=user.pk).values("blocked_id")
    blockers = Block.objects.filter(blocked_id=user.pk).values("blocker_id")
    return Q(**{f"{field}__in": blocked}) | Q(**{f"{field}__in": blockers})


def block_pairs_among(*, user_ids: Collection[int]) -> set[frozenset[int]]:
    """The pairs of these users where one blocked the other, each as a set of the two ids."""
    rows = Block.objects.filter(blocker_id__in=user_ids, blocked_id__in=user_ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def user_blocked_list(*, user: User) -> list[Block]:
    """The players ``user`` blocked, newest first, with the blocked accounts read along."""
    return list(Block.objects.filter(blocker_id=user.pk).select_related("blocked"))


# --- bot accounts -----------------------------------------------------------------------------


def user_has_played(*, user: User) -> bool:
    """True when the account sat at any match, against a person or a bot, finished or not."""
    return any(played(user) for played in hooks.has_played)


def bot_account_refusal(*, user: User, approving: bool = False) -> tuple[str, str] | None:
    """Why this account may not become a bot account, as ``(code, message)``, or None.

    A bot account starts fresh: no games played yet. Staff accounts stay people. When
    ``approving``, the account's own pending request does not count against it."""
    if user.deleted_at is not None or not user.is_active:
        return FORBIDDEN, str(_("This account cannot become a bot account."))
    if user.is_bot:
        return DUPLICATE, str(_("This account is already a bot account."))
    if user.is_staff or user.is_superuser:
        return FORBIDDEN, str(_("Staff accounts cannot become bot accounts."))
    if user_has_played(user=user):
        return FORBIDDEN, str(
            _(
                "Only a fresh account, with no games played yet, can become a bot account. "
                "Sign up a new account for your program and ask from there."
            )
        )
    if not approving and bot_account_pending(user=user) is not None:
        return DUPLICATE, str(_("Your request is already waiting for an admin."))
    return None


def bot_account_pending(*, user: User) -> BotAccountRequest | None:
    """The account's request waiting for an admin, if any."""
    return BotAccountRequest.objects.filter(
        user_id=user.pk, status=BotAccountRequest.Status.PENDING
    ).first()


def bot_account_latest(*, user: User) -> BotAccountRequest | None:
    """The account's latest request (pending or answered), if it ever asked."""
    return BotAccountRequest.objects.filter(user_id=user.pk).first()
