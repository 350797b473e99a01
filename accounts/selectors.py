"""Reads about accounts: who exists, which names and addresses are taken."""

from django.db.models import Q

from accounts.models import Block, User

DELETED_USERNAME_PREFIX = "deleted-"


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
    """The account whose public profile is at this username, or None (unknown or deleted)."""
    return User.objects.filter(username__iexact=username, deleted_at__isnull=True).first()


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


def user_blocked_list(*, user: User) -> list[Block]:
    """The players ``user`` blocked, newest first, with the blocked accounts read along."""
    return list(Block.objects.filter(blocker_id=user.pk).select_related("blocked"))
