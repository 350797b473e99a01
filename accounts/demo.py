"""Demo data for accounts: two players to log in with on a fresh `make run`, and ``robo``, an
approved bot account (docs/bot_accounts.md) that a program can play through the API.

The `load_demo` command calls `load(stdout)` in every project app that has a `demo` module,
in INSTALLED_APPS order (accounts comes first, so later apps can use these players).
"""

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
    stdout.write("Demo log-ins (unless you changed their passwords):")
    for player in (*DEMO_PLAYERS, DEMO_BOT):
        stdout.write(f"  username {player['username']:<8} password {DEMO_PASSWORD}")
    return created


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
