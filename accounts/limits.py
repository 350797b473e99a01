"""Limits on what an account page may ask of the site in a period, counted in the default cache
(Redis when ``REDIS_URL`` is set, so every process shares the counts): today the password-reset
mails, per address and per client (docs/accounts.md, "Password reset").

Counts run in fixed periods of ``window`` seconds (``now() // window``), so a count ends with its
period whatever happens after. A cache that is away counts nothing (django-redis ignores its
errors): the limit lapses, the page still works."""

from __future__ import annotations

import time

from django.core.cache import cache

#: Prefix of every key here (tests give each test its own).
KEY_PREFIX = "accounts:limit"

now = time.time


def limit_hit(*, kind: str, key: str, limit: int, window: float) -> bool:
    """Count one more ``kind`` for ``key`` in this period; True when that one is past
    ``limit`` (the caller refuses it)."""
    period = int(now() // window)
    name = f"{KEY_PREFIX}:{kind}:{period}:{key}"
    if cache.add(name, 1, timeout=int(window) + 1):
        count = 1
    else:
        try:
            count = cache.incr(name)
        except ValueError:  # expired between the two calls
            cache.add(name, 1, timeout=int(window) + 1)
            count = 1
    return count > limit
