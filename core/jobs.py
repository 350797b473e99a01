"""Jobs: the work off the request path, run by django-q2's worker clusters (docs/jobs.md).

``enqueue(bot_move, game_id, version, queue=PLAY, delay=0.4)`` asks for ``bot_move(game_id,
version)`` to run in a worker process. Two queues, each served by clusters of its own
(``manage.py qcluster``; ``Q_CLUSTER_NAME=background manage.py qcluster`` for the second):

- ``PLAY``: what a player waits for (a bot's move, later a hint): short jobs, a short retry;
- ``BACKGROUND``: what nobody waits for (clean-ups, later reviews and mail).

The broker is django-q2's database broker: a job is a row of its ``OrmQ`` table, written in the
caller's transaction, so a job exists exactly when the change that asked for it committed. A
worker takes a job by moving the row's lock ``retry`` seconds ahead, and deletes the row once
the job returned. A worker that died leaves the row locked: when the lock runs out another
worker takes it. A job that raised stays too and runs again ``retry`` seconds later, at most
``max_attempts`` times in all (then it is kept as failed: the admin's "Failed tasks"). So a job
may run more than once and must be idempotent. ``delay`` starts the row's lock in the future:
no worker takes it before then (``DelayedBroker``).

Under test (``JOBS_INLINE``) a job runs in the calling thread once the transaction commits,
after the job that enqueued it rather than inside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext_noop
from django_q.brokers.orm import ORM
from django_q.models import OrmQ
from django_q.tasks import async_task

#: The queue of what a player waits for.
PLAY = "play"
#: The queue of what nobody waits for.
BACKGROUND = "background"
QUEUES = (PLAY, BACKGROUND)

#: django-q2's names of its models in the admin, listed so that our catalogs translate them (its
#: own cover none of our languages); tests/test_jobs.py checks django-q2 still uses each.
ADMIN_TEXTS = (
    gettext_noop("Queued task"),
    gettext_noop("Queued tasks"),
    gettext_noop("Failed task"),
    gettext_noop("Failed tasks"),
    gettext_noop("Successful task"),
    gettext_noop("Successful tasks"),
    gettext_noop("Scheduled task"),
    gettext_noop("Scheduled tasks"),
)


class DelayedBroker(ORM):
    """django-q2's database broker, its jobs first taken ``delay`` seconds after the commit."""

    def __init__(self, list_key: str, delay: float = 0.0) -> None:
        super().__init__(list_key=list_key)
        self.delay = delay

    def enqueue(self, task: str) -> int:
        lock = timezone.now() + timedelta(seconds=self.delay)
        row = self.get_connection().create(key=self.list_key, payload=task, lock=lock)
        return int(row.pk)


_inline = threading.local()


def enqueue(func: Callable[..., Any], *args: Any, queue: str = PLAY, delay: float = 0.0) -> None:
    """Run ``func(*args)`` as a job on ``queue``, no sooner than ``delay`` seconds from now,
    once the current transaction (if any) commits. ``args`` must pickle; ``func`` is named by
    its import path."""
    if queue not in QUEUES:
        raise ValueError(f"no job queue {queue!r}; the queues are {', '.join(QUEUES)}")
    path = f"{func.__module__}.{func.__qualname__}"
    if settings.JOBS_INLINE:
        transaction.on_commit(lambda: _run_inline(path, args))
        return
    async_task(path, *args, broker=DelayedBroker(queue, delay), task_name=func.__name__)


def _run_inline(path: str, args: tuple[Any, ...]) -> None:
    waiting: list[tuple[str, tuple[Any, ...]]] | None = getattr(_inline, "waiting", None)
    if waiting is not None:  # enqueued by a job: runs after it
        waiting.append((path, args))
        return
    _inline.waiting = [(path, args)]
    try:
        while _inline.waiting:
            job, job_args = _inline.waiting.pop(0)
            import_string(job)(*job_args)
    finally:
        _inline.waiting = None


def queue_status(now: Any = None) -> dict[str, dict[str, int]]:
    """Per queue: jobs ``waiting`` (due, not taken), ``later`` (taken by a worker, or delayed,
    or waiting to run again), and ``overdue`` (due more than ``JOBS_OVERDUE`` seconds ago: no
    worker is taking this queue's jobs). /healthz reports it."""
    now = now or timezone.now()
    overdue_before = now - timedelta(seconds=float(settings.JOBS_OVERDUE))
    counted = {
        row.pop("key"): row
        for row in OrmQ.objects.filter(key__in=QUEUES)
        .values("key")
        .annotate(
            waiting=Count("id", filter=Q(lock__lte=now)),
            later=Count("id", filter=Q(lock__gt=now)),
            overdue=Count("id", filter=Q(lock__lte=overdue_before)),
        )
        .order_by()
    }
    none = {"waiting": 0, "later": 0, "overdue": 0}
    return {queue: counted.get(queue, dict(none)) for queue in QUEUES}
