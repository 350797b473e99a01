"""Guest play (docs/accounts.md, "Guests"): a visitor plays a casual match against a bot
without signing up. The browser session's first match makes it a guest account of its own
(``accounts.services.guest_create``); its games are stored and replayable like any other, never
ranked. Two limits hold back abuse — guest matches per client address and per session within
``GAMES_GUEST_LIMIT_WINDOW`` — and the sweeper deletes guests idle for ``ACCOUNTS_GUEST_TTL``
with their matches (a guest who signed up is a guest no more, and keeps them)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext_lazy as _

import engine
from accounts.models import User
from accounts.selectors import user_is_guest
from accounts.services import guest_create, users_sessions_end
from core.errors import TOO_MANY, GameError
from games.clocks import turn as clock
from games.models import Match, Move
from games.services import match_create

TOO_MANY_HERE = _(
    "Many guest games were started from your network in the last hour. Sign up (it is free) "
    "to keep playing, or come back later."
)
TOO_MANY_YOURS = _(
    "You have played many guest games in the last hour. Sign up (it is free) to keep "
    "playing, or come back later."
)


def _address_key(address: str) -> str:
    return f"games:guest-matches:{address}"


def guest_match_create(*, user: Any, address: str, bot: str, rules: engine.Rules) -> Match:
    """A casual match against ``bot`` for a visitor: ``user`` is the request's user, anonymous
    (a guest account is made for it) or a guest already; ``address`` the client's address
    (``core.client_address``, as every limit by address reads it). The match's
    ``user0`` is the guest. Refusals: too_many (either limit)."""
    window = float(settings.GAMES_GUEST_LIMIT_WINDOW)
    if int(cache.get(_address_key(address), 0)) >= settings.GAMES_GUEST_MATCHES_PER_ADDRESS:
        raise GameError(TOO_MANY, TOO_MANY_HERE)
    if user_is_guest(user):
        since = clock.now() - timedelta(seconds=window)
        recent = Match.objects.filter(user0=user, created_at__gte=since).count()
        if recent >= settings.GAMES_GUEST_MATCHES_PER_SESSION:
            raise GameError(TOO_MANY, TOO_MANY_YOURS)
    with transaction.atomic():
        guest = user if user_is_guest(user) else guest_create()
        match = match_create(user=guest, bot=bot, rules=rules)
    if cache.add(_address_key(address), 1, timeout=window) is False:
        try:
            cache.incr(_address_key(address))
        except ValueError:  # expired between the two calls
            cache.add(_address_key(address), 1, timeout=window)
    return match


def guests_delete_idle() -> int:
    """Delete the guests idle for ``ACCOUNTS_GUEST_TTL`` seconds — made before then, with no
    match started and no move played since — with their matches and sessions; return how
    many. A job of the sweeper (``games.sweeper``) and of ``manage.py guests_delete``."""
    cutoff = clock.now() - timedelta(seconds=float(settings.ACCOUNTS_GUEST_TTL))
    seated = Q(user0=OuterRef("pk")) | Q(user1=OuterRef("pk"))
    moved = Q(game__match__user0=OuterRef("pk")) | Q(game__match__user1=OuterRef("pk"))
    idle = (
        User.objects.filter(is_guest=True, date_joined__lt=cutoff)
        .exclude(Exists(Match.objects.filter(seated, created_at__gte=cutoff)))
        .exclude(Exists(Move.objects.filter(moved, created_at__gte=cutoff)))
    )
    ids = set(idle.values_list("pk", flat=True)[:500])
    if not ids:
        return 0
    with transaction.atomic():
        Match.objects.filter(Q(user0__in=ids) | Q(user1__in=ids)).delete()
        User.objects.filter(pk__in=ids, is_guest=True).delete()
    users_sessions_end(user_ids=ids)
    return len(ids)
