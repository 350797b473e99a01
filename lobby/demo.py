"""Demo data for the lobby: an open seek by the demo player bruno, so a fresh `make run`
shows one in the people lobby (log in as alice to take it). Run by `load_demo` after the
accounts loader. A seek lasts ``LOBBY_SEEK_TTL``; once it has expired (or been taken), the
next `load_demo` posts a new one."""

from __future__ import annotations

from django.core.management.base import OutputWrapper

import engine
from accounts.models import User
from lobby import services
from lobby.selectors import seeks_open

#: A short match: a pay-off pile of 10, first to 25 points.
DEMO_RULES = engine.Rules(payoff_size=10, match_target=25)


def load(stdout: OutputWrapper) -> bool:
    """Post bruno's seek unless an open one is already there; True when one was posted."""
    bruno = User.objects.filter(username="bruno").first()
    if bruno is None:
        return False
    if any(seek.owner_id == bruno.pk for seek in seeks_open()):
        return False
    services.seek_create(owner=bruno, rules=DEMO_RULES)
    stdout.write("lobby: created an open seek by bruno (log in as alice to take it)")
    return True
