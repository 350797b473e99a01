"""Demo data for the lobby: an open seek by the demo player bruno, so a fresh `make run`
shows one in the people lobby (log in as alice to take it). Run by `load_demo` after the
accounts loader. A seek lasts ``LOBBY_SEEK_TTL``, so each `load_demo` (each `make run`) posts it
afresh: bruno's open demo seek, if any, is cancelled and a new one posted, never two."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import OutputWrapper
from django.db import transaction

import engine
from accounts.models import User
from core.i18n import duration_text
from lobby import services
from lobby.errors import LobbyError
from lobby.selectors import seeks_open

#: A short match: a pay-off pile of 10, first to 25 points.
DEMO_RULES = engine.Rules(payoff_size=10, match_target=25)


def logins() -> list[tuple[str, str]]:
    """bruno's part in the demo, for load_demo's block of log-ins."""
    return [("bruno", "his seek is open in the people lobby (take it as alice)")]


def load(stdout: OutputWrapper) -> bool:
    """Post bruno's seek with a fresh expiry, in place of his open one; True when there was
    none open (a new seek, not a fresh one)."""
    bruno = User.objects.filter(username="bruno").first()
    if bruno is None:
        return False
    rules = DEMO_RULES.to_dict()
    with transaction.atomic():
        old = [s for s in seeks_open() if s.owner_id == bruno.pk and s.rules == rules]
        for seek in old:
            services.seek_cancel(seek_id=seek.pk, user=bruno)
        try:
            services.seek_create(owner=bruno, rules=DEMO_RULES)
        except LobbyError as exc:  # bruno has posted his most open seeks by hand
            stdout.write(f"lobby: no demo seek posted: {exc.message}")
            return False
    stdout.write(
        f"lobby: posted bruno's open seek{' afresh' if old else ''}, open for "
        f"{duration_text(settings.LOBBY_SEEK_TTL)} (log in as alice to take it)"
    )
    return not old
