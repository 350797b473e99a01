"""Demo data for accounts: two players to log in with on a fresh `make run`, ``robo``, an
approved bot account (docs/bot_accounts.md) that a program can play through the API, and with
DEBUG on ``admin``, a superuser for the site's administration (never on a site run with DEBUG
off, even with ``--allow-production``: its password is published).

The `load_demo` command calls `load(stdout)` in every project app that has a `demo` module,
in INSTALLED_APPS order (accounts comes first, so later apps can use these players), then
prints every demo log-in in one block from each module's `logins()`.
"""

from django.conf import settings
from django.core.management.base import OutputWrapper
from django.db import transaction

from accounts.models import BotAccountRequest, User

DEMO_PASSWORD = "spite-demo-1"
DEMO_PLAYERS = (
    {"username": "alice", "display_name": "Alice", "country": "GB", "email": "alice@example.com"},
    {"username": "bruno", "display_name": "Bruno", "country": "IT", "email": "bruno@example.com"},
)
DEMO_BOT = {"username": "robo", "display_name": "Robo", "email": "robo@example.com"}
DEMO_BOT_NOTE = "The demo bot account: a program playing through the API."
DEMO_ADMIN = {"username": "admin", "display_name": "Admin", "email": "admin@example.com"}


def logins() -> list[tuple[str, str]]:
    """(username, what the account is) of the accounts made here, for load_demo's block."""
    return [
        ("alice", "a player"),
        ("bruno", "a player"),
        ("robo", "a bot account: a program plays it through the API"),
        ("admin", "an admin: the site's administration at /admin/"),
    ]


def demo_players() -> list[User]:
    """The demo players, for other apps' demo loaders (after accounts' loader has run)."""
    names = [player["username"] for player in DEMO_PLAYERS]
    return list(User.objects.filter(username__in=names).order_by("username"))


@transaction.atomic
def load(stdout: OutputWrapper) -> bool:
    """Create the demo players that are missing; return True when anything was created."""
    created = False
    for player in DEMO_PLAYERS:
        if User.objects.filter(username__iexact=player["username"]).exists():
            continue
        User.objects.create_user(password=DEMO_PASSWORD, **player)
        created = True
        stdout.write(f"accounts: created demo player {player['username']}")
    created = _load_bot(stdout) or created
    if settings.DEBUG:
        created = _load_admin(stdout) or created
    return created


def _load_admin(stdout: OutputWrapper) -> bool:
    """``admin``: a superuser, for the administration (a tournament, a bot account request)."""
    if User.objects.filter(username__iexact=DEMO_ADMIN["username"]).exists():
        return False
    User.objects.create_superuser(password=DEMO_PASSWORD, **DEMO_ADMIN)
    stdout.write(f"accounts: created demo admin {DEMO_ADMIN['username']}")
    return True


def _load_bot(stdout: OutputWrapper) -> bool:
    """``robo``: a bot account, as if its request had been approved."""
    if User.objects.filter(username__iexact=DEMO_BOT["username"]).exists():
        return False
    robo = User.objects.create_user(password=DEMO_PASSWORD, is_bot=True, **DEMO_BOT)
    BotAccountRequest.objects.create(
        user=robo,
        note=DEMO_BOT_NOTE,
        status=BotAccountRequest.Status.APPROVED,
        decided_at=robo.date_joined,
    )
    stdout.write(f"accounts: created demo bot account {robo.username}")
    return True
