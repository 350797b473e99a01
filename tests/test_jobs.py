"""core.jobs on django-q2's database broker: a job is a row written in the caller's
transaction, first taken after its delay, taken by one worker at a time, and taken again once a
taker's lock runs out (the taker died); the queues are checked; inline (tests) a job runs after
the commit and after the job that enqueued it; /healthz reports each queue."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from django_q.models import OrmQ
from django_q.signing import SignedPackage

from core import jobs

pytestmark = pytest.mark.django_db

ran: list[tuple[str, int]] = []


def record(name: str, n: int) -> None:
    """A job: notes its run; its first run enqueues a second job."""
    ran.append((name, n))
    if n == 1:
        jobs.enqueue(record, "child", 2)
        ran.append(("parent done", n))


@pytest.fixture
def queued(settings: Any) -> None:
    settings.JOBS_INLINE = False


def test_a_job_waits_for_its_delay_then_one_worker_takes_it(queued: None) -> None:
    jobs.enqueue(record, "a", 5, queue=jobs.BACKGROUND, delay=30)
    row = OrmQ.objects.get()
    assert row.key == "background"
    assert SignedPackage.loads(row.payload)["func"] == "tests.test_jobs.record"
    assert 29 < (row.lock - timezone.now()).total_seconds() <= 30
    broker = jobs.DelayedBroker(jobs.BACKGROUND)
    assert broker.dequeue() is None  # not due yet
    assert jobs.DelayedBroker(jobs.PLAY).dequeue() is None  # nor on the other queue

    OrmQ.objects.update(lock=timezone.now() - timedelta(seconds=1))  # its time came
    [(ack_id, payload)] = broker.dequeue()
    assert SignedPackage.loads(payload)["args"] == ("a", 5)
    assert broker.dequeue() is None  # taken: locked for `retry` seconds
    # The taker died before it acknowledged: once the lock runs out, another worker takes it.
    OrmQ.objects.update(lock=timezone.now() - timedelta(seconds=1))
    [(again, _)] = broker.dequeue()
    assert again == ack_id
    broker.acknowledge(ack_id)
    assert not OrmQ.objects.exists()


def test_a_job_is_enqueued_with_the_transaction_that_asked_for_it(queued: None) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        jobs.enqueue(record, "rolled back", 1)
        raise RuntimeError
    assert not OrmQ.objects.exists()
    with transaction.atomic():
        jobs.enqueue(record, "committed", 1)
    assert OrmQ.objects.count() == 1


def test_an_unknown_queue_is_refused() -> None:
    with pytest.raises(ValueError, match="no job queue 'mail'; the queues are play, background"):
        jobs.enqueue(record, "x", 1, queue="mail")


@pytest.mark.django_db(transaction=True)
def test_inline_a_job_runs_after_the_commit_and_its_own_jobs_after_it() -> None:
    ran.clear()
    with transaction.atomic():
        jobs.enqueue(record, "parent", 1)
        assert ran == []  # not before the commit
    assert ran == [("parent", 1), ("parent done", 1), ("child", 2)]
    ran.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        jobs.enqueue(record, "rolled back", 3)
        raise RuntimeError
    assert ran == []


def test_queue_status_counts_waiting_later_and_overdue_jobs(queued: None, settings: Any) -> None:
    settings.JOBS_OVERDUE = 30
    now = timezone.now()
    for seconds in (-60, -5, 10):
        jobs.enqueue(record, "x", 0, delay=seconds)
    assert jobs.queue_status(now) == {
        "play": {"waiting": 2, "later": 1, "overdue": 1},
        "background": {"waiting": 0, "later": 0, "overdue": 0},
    }


def test_healthz_reports_the_queues(client: Any, queued: None) -> None:
    jobs.enqueue(record, "x", 0)
    body = client.get("/healthz").json()
    assert body["jobs"]["play"]["waiting"] == 1
    assert body["jobs"]["background"] == {"waiting": 0, "later": 0, "overdue": 0}


def test_the_admin_texts_we_translate_are_still_django_q2s() -> None:
    from pathlib import Path

    import django_q
    import polib

    catalog = Path(django_q.__file__).parent / "locale/de/LC_MESSAGES/django.po"
    assert set(jobs.ADMIN_TEXTS) <= {entry.msgid for entry in polib.pofile(str(catalog))}


def test_the_admin_shows_the_jobs_in_the_readers_language(admin_client: Any) -> None:
    page = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Tác vụ nền" in page and "Tác vụ thất bại" in page and "Failed tasks" not in page
