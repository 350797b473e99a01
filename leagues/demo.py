"""Demo data for leagues: the "Demo League" (slug ``demo``, open) with the demo players alice
(a moderator) and bruno as active members, so a fresh `make run` can play a ranked match at
once: log in as alice in one browser and bruno in another, open the league, Play ranked.
Its knobs are short — a pay-off pile of 10, first to 25 points — so a demo ranked match takes
minutes, not an evening. Run by `load_demo` after the accounts loader; idempotent."""

from __future__ import annotations

from django.core.management.base import OutputWrapper
from django.db import transaction

import engine
from accounts.models import User
from leagues.models import League, Membership

DEMO_SLUG = "demo"
DEMO_RULES = engine.Rules(payoff_size=10, match_target=25)
DEMO_MEMBERS = {"alice": Membership.Role.MODERATOR, "bruno": Membership.Role.PLAYER}


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
    return created
