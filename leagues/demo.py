"""Demo data for leagues: the "Demo League" (slug ``demo``, open) with the demo players alice
(a moderator) and bruno as active members, so a fresh `make run` can play a ranked match at
once: log in as alice in one browser and bruno in another, open the league, Play ranked.
Its knobs are short — a pay-off pile of 10, first to 25 points — so a demo ranked match takes
minutes, not an evening.

It also makes the **Demo Club** (slug ``club``, open; pay-off pile of 5, first to 10) with four
demo players — alice (moderator), bruno, and two more made here, carmen and dai (the same demo
password) — so an admin can run a four-player Swiss tournament on `make run`, the bots playing
its matches (`manage.py tournament_autoplay`; docs/tournaments.md). The Club lets bots play
ranked, and the demo bot account ``robo`` (made by the accounts loader) is a member too
(docs/bot_accounts.md). Run by `load_demo` after the accounts loader; idempotent."""

from __future__ import annotations

from django.core.management.base import OutputWrapper
from django.db import transaction

import engine
from accounts.demo import DEMO_PASSWORD
from accounts.models import User
from leagues.models import League, Membership

DEMO_SLUG = "demo"
DEMO_RULES = engine.Rules(payoff_size=10, match_target=25)
DEMO_MEMBERS = {"alice": Membership.Role.MODERATOR, "bruno": Membership.Role.PLAYER}
CLUB_SLUG = "club"
CLUB_RULES = engine.Rules(payoff_size=5, match_target=10)
CLUB_PLAYERS = (
    {
        "username": "carmen",
        "display_name": "Carmen",
        "country": "ES",
        "email": "carmen@example.com",
    },
    {"username": "dai", "display_name": "Dai", "country": "GB", "email": "dai@example.com"},
)
CLUB_MEMBERS = {
    "alice": Membership.Role.MODERATOR,
    "bruno": Membership.Role.PLAYER,
    "carmen": Membership.Role.PLAYER,
    "dai": Membership.Role.PLAYER,
    "robo": Membership.Role.PLAYER,  # the demo bot account, while the Club lets bots play ranked
}


def logins() -> list[tuple[str, str]]:
    """What the demo accounts are in the demo leagues, for load_demo's block of log-ins."""
    return [
        ("alice", "moderator of the Demo League and the Demo Club"),
        ("bruno", "member of the Demo League and the Demo Club"),
        ("carmen", "a player in the Demo Club"),
        ("dai", "a player in the Demo Club"),
        ("robo", "member of the Demo Club"),
    ]


@transaction.atomic
def load(stdout: OutputWrapper) -> bool:
    """Create the demo league and its members where missing; True when anything was made."""
    created = False
    league, made = League.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": "Demo League",
            "description": (
                "A league to try ranked play: short matches (a pay-off pile of 10, first to 25 "
                "points). Join, press Play ranked, and you are paired with the waiting member "
                "of closest rating."
            ),
            "rules": DEMO_RULES.to_dict(),
        },
    )
    if made:
        created = True
        stdout.write("leagues: created the Demo League (/leagues/demo/)")
    for username, role in DEMO_MEMBERS.items():
        user = User.objects.filter(username=username).first()
        if user is None:
            continue
        _, made = Membership.objects.get_or_create(
            league=league, user=user, defaults={"role": role}
        )
        if made:
            created = True
            stdout.write(f"leagues: {username} joined the Demo League ({role})")
    return _load_club(stdout) or created


def _load_club(stdout: OutputWrapper) -> bool:
    """The Demo Club and its four players, for a tournament on `make run`."""
    created = False
    if not User.objects.filter(username="alice").exists():
        return False  # the accounts loader made no demo players (production)
    for player in CLUB_PLAYERS:
        if not User.objects.filter(username__iexact=player["username"]).exists():
            User.objects.create_user(password=DEMO_PASSWORD, **player)
            created = True
            stdout.write(f"leagues: created demo player {player['username']} ({DEMO_PASSWORD})")
    league, made = League.objects.get_or_create(
        slug=CLUB_SLUG,
        defaults={
            "name": "Demo Club",
            "description": (
                "Four demo players (and Robo, a bot account) for trying tournaments: very short "
                "matches (a pay-off pile of 5, first to 10 points). An admin creates a "
                "tournament here; the bots can play its matches (manage.py tournament_autoplay)."
            ),
            "rules": CLUB_RULES.to_dict(),
            "bots_ranked": True,
        },
    )
    if made:
        created = True
        stdout.write("leagues: created the Demo Club (/leagues/club/)")
    for username, role in CLUB_MEMBERS.items():
        user = User.objects.filter(username=username).first()
        if user is None or (user.is_bot and not league.bots_ranked):
            continue
        _, made = Membership.objects.get_or_create(
            league=league, user=user, defaults={"role": role}
        )
        created = created or made
    return created
