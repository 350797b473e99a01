"""Reads about accounts: who exists, which names and addresses are taken."""

from accounts.models import User

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
