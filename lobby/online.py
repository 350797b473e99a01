"""Who is online: the players with a per-user socket (``/ws/me/``) open on some server process.

Every page of a signed-in player opens that socket (``static/js/notify.js``), so it is the one
true sign of someone at the site. Each process writes what it knows in the table
``lobby.Presence``, a row per (process, user), shared by every process on SQLite or PostgreSQL:

- a user's first socket on a process writes their row at once (``OnlineProcess.join``), and
  rings the doorbell of the pages that list who is online; the process counts each socket in
  and out (``join``, ``leave``);
- every ``LOBBY_ONLINE_REFRESH`` seconds, on the sockets' convergence timer
  (``lobby.consumers.USER_SOCKETS``' beat), the process stamps the rows of the users it still
  holds a socket of and deletes the rows of those it holds none of any more (at once when it
  holds none at all), ringing the doorbell when someone came or left;
- a row not stamped for ``LOBBY_ONLINE_TTL`` seconds does not count: its process died without
  saying goodbye. Any process's refresh deletes such rows.

So a player who closes their last tab leaves the list within one refresh, and a player whose
server died within one TTL; a page moving to the next (one socket closing, another opening on
the same process) writes nothing. docs/lobby.md ("Who is online") says why a table.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from lobby.broadcast import online_changed_send
from lobby.models import Presence


def online_ttl() -> timedelta:
    return timedelta(seconds=float(settings.LOBBY_ONLINE_TTL))


def online_cutoff(now: datetime | None = None) -> datetime:
    """Rows seen at or before this no longer count."""
    return (now or timezone.now()) - online_ttl()


class OnlineProcess:
    """One server process's presence rows: ``process`` names them; ``sockets`` counts the
    open sockets of each user here; ``written`` is the users whose rows it wrote. Used from
    the process's one database thread only (``join``, ``leave`` and ``beat`` run through
    ``database_sync_to_async``), so it needs no lock, and a refresh always sees every socket
    counted in before it."""

    def __init__(self, process: str | None = None) -> None:
        self.process = process or uuid.uuid4().hex
        self.sockets: Counter[int] = Counter()
        self.written: set[int] = set()
        self.refreshed_at: datetime | None = None

    def join(self, user_id: int, *, now: datetime | None = None) -> bool:
        """A socket of ``user_id`` opened here: count it, and write the user's row unless this
        process holds one already. True when it wrote one (and rang the doorbell)."""
        self.sockets[user_id] += 1
        if user_id in self.written:
            return False
        now = now or timezone.now()
        with transaction.atomic():
            Presence.objects.update_or_create(
                process=self.process, user_id=user_id, defaults={"seen_at": now}
            )
            transaction.on_commit(online_changed_send)
        self.written.add(user_id)
        return True

    def leave(self, user_id: int) -> None:
        """A socket of ``user_id`` closed here: count it out (the row goes at the next beat
        once the user has no socket left here)."""
        self.sockets[user_id] -= 1
        if self.sockets[user_id] <= 0:
            del self.sockets[user_id]

    def beat(self, *, now: datetime | None = None) -> None:
        """The convergence timer's beat: a refresh when one is due (every
        ``LOBBY_ONLINE_REFRESH`` seconds), or at once when the process holds no socket any
        more."""
        present = set(self.sockets)
        now = now or timezone.now()
        due = self.refreshed_at is None or now - self.refreshed_at >= timedelta(
            seconds=float(settings.LOBBY_ONLINE_REFRESH)
        )
        if due or (not present and self.written):
            self.refresh(present, now=now)

    def refresh(self, present: set[int], *, now: datetime | None = None) -> None:
        """Stamp the rows of ``present`` (writing any that went missing), delete this process's
        other rows and every process's stale ones; ring the doorbell when a row came or went."""
        now = now or timezone.now()
        with transaction.atomic():
            gone = Presence.objects.filter(process=self.process).exclude(user_id__in=present)
            left, _ = gone.delete()
            stale, _ = Presence.objects.filter(seen_at__lte=online_cutoff(now)).delete()
            # Users deleted since their socket opened (a guest's account) get no row.
            users = set(User.objects.filter(pk__in=present).values_list("pk", flat=True))
            Presence.objects.bulk_create(
                [Presence(process=self.process, user_id=pk, seen_at=now) for pk in users],
                update_conflicts=True,
                unique_fields=["process", "user"],
                update_fields=["seen_at"],
            )
            if left or stale or users - self.written:
                transaction.on_commit(online_changed_send)
        self.written = users
        self.refreshed_at = now


#: This server process's rows.
PROCESS = OnlineProcess()


def online_users(*, now: datetime | None = None) -> QuerySet[Presence]:
    """The ids of every user with a socket open on a live process, as a subquery (hidden or
    not: ``lobby.selectors.people_online`` filters)."""
    return Presence.objects.filter(seen_at__gt=online_cutoff(now)).values("user_id")
