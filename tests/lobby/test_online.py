"""Who is online (lobby/online.py and lobby.selectors.people_online): the rows each server
process keeps of its open per-user sockets, read the same by every process. Two
``OnlineProcess`` objects stand for two server processes sharing the database, as two daphne
processes do; the clock is passed in by hand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_block
from lobby import online
from lobby.models import Presence
from lobby.selectors import online_frame, people_online
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _knobs(settings):
    settings.LOBBY_ONLINE_REFRESH = 15
    settings.LOBBY_ONLINE_TTL = 45


def person(username: str, **fields):
    """A player shown by their username (no display name), so the list's order is plain."""
    return UserFactory(username=username, display_name="", **fields)


def names(viewer, now=None) -> list[str]:
    players, _total = people_online(viewer=viewer, now=now)
    return [p.username for p in players]


def test_a_player_with_a_socket_on_either_process_is_online_for_the_others(alice, bob, carol):
    one, two = online.OnlineProcess("one"), online.OnlineProcess("two")
    one.join(bob.pk)
    two.join(carol.pk)
    assert names(alice) == ["bob", "carol"]  # by name, whichever process holds the socket
    assert names(bob) == ["carol"]  # never yourself
    frame = online_frame(user=alice)
    assert frame["type"] == "online" and frame["count"] == 2
    assert frame["players"][0] == {
        "username": "bob",
        "name": "Bob",
        "is_bot": False,
        "country": "IT",
        "country_name": "Italy",
        "flag": "\U0001f1ee\U0001f1f9",
    }


def test_a_second_socket_on_the_same_process_writes_nothing(alice, bob):
    one = online.OnlineProcess("one")
    assert one.join(bob.pk) is True
    assert one.join(bob.pk) is False  # a second tab, or the next page
    assert Presence.objects.count() == 1


def test_a_player_who_left_goes_at_the_next_refresh_and_a_page_change_writes_nothing(alice, bob):
    start = timezone.now()
    one = online.OnlineProcess("one")
    one.join(bob.pk, now=start)
    one.beat(now=start)  # the first beat refreshes
    seen = Presence.objects.get().seen_at
    # Bob's page closes and the next opens before the refresh is due: nothing changes.
    one.leave(bob.pk)
    one.join(bob.pk, now=start + timedelta(seconds=4))
    one.beat(now=start + timedelta(seconds=5))
    assert Presence.objects.get().seen_at == seen
    assert names(alice, now=start + timedelta(seconds=5)) == ["bob"]
    # Bob still has a socket at the refresh: his row is stamped again.
    one.beat(now=start + timedelta(seconds=16))
    assert Presence.objects.get().seen_at == start + timedelta(seconds=16)
    # Bob closed his last tab; the process still holds Carol's: he goes at the next refresh.
    carol = person("carol2")
    one.join(carol.pk, now=start + timedelta(seconds=17))
    one.leave(bob.pk)
    one.beat(now=start + timedelta(seconds=20))
    assert names(alice, now=start + timedelta(seconds=20)) == ["bob", "carol2"]
    one.beat(now=start + timedelta(seconds=32))
    assert names(alice, now=start + timedelta(seconds=32)) == ["carol2"]


def test_a_socket_counted_in_after_the_sockets_were_listed_keeps_its_row(alice, bob, carol):
    """The convergence timer lists the open sockets on the event loop, then beats on the
    database thread: a socket that opened in between (counted in by ``join``, not yet in the
    list) keeps the row it just wrote."""
    now = timezone.now()
    one = online.OnlineProcess("one")
    one.join(carol.pk, now=now)
    one.beat(now=now)
    one.join(bob.pk, now=now + timedelta(seconds=15))
    one.beat(now=now + timedelta(seconds=16))  # a refresh is due
    assert names(alice, now=now + timedelta(seconds=16)) == ["bob", "carol"]


def test_a_process_left_with_no_socket_drops_its_rows_at_once(alice, bob):
    now = timezone.now()
    one = online.OnlineProcess("one")
    one.join(bob.pk, now=now)
    one.beat(now=now)
    one.leave(bob.pk)
    one.beat(now=now + timedelta(seconds=1))
    assert names(alice, now=now + timedelta(seconds=1)) == []
    assert not Presence.objects.exists()


def test_the_rows_of_a_process_that_died_stop_counting_after_the_ttl(alice, bob, carol):
    now = timezone.now()
    dead, alive = online.OnlineProcess("dead"), online.OnlineProcess("alive")
    dead.join(bob.pk, now=now)
    alive.join(carol.pk, now=now)
    # The "dead" process never refreshes again; the live one keeps refreshing.
    for seconds in (15, 30, 44):
        alive.beat(now=now + timedelta(seconds=seconds))
        assert names(alice, now=now + timedelta(seconds=seconds)) == ["bob", "carol"]
    at = now + timedelta(seconds=45)
    assert names(alice, now=at) == ["carol"]  # one TTL without a refresh: not online
    alive.beat(now=at + timedelta(seconds=1))
    assert list(Presence.objects.values_list("process", flat=True)) == ["alive"]  # swept


def test_hidden_players_guests_deleted_accounts_and_blocked_pairs_are_never_listed(alice):
    shown = person("shown")
    hidden = person("hidden", show_online=False)
    guest = person("guest-1", is_guest=True)
    gone = person("gone", deleted_at=timezone.now())
    inactive = person("inactive", is_active=False)
    blocked = person("blocked")
    blocker = person("blocker")
    bot = person("robot", is_bot=True)
    user_block(blocker=alice, blocked=blocked)
    user_block(blocker=blocker, blocked=alice)
    one = online.OnlineProcess("one")
    for user in (shown, hidden, guest, gone, inactive, blocked, blocker, bot):
        one.join(user.pk)
    assert names(alice) == ["robot", "shown"]
    [robot, _shown] = online_frame(user=alice)["players"]
    assert robot["is_bot"] is True  # a bot account is listed, marked as one
    # Hiding is one's own choice: the hidden player still sees the others.
    assert "shown" in names(hidden)
    # A guest sees nobody (guests play the bots only).
    assert names(guest) == []


def test_the_list_is_cut_at_the_limit_and_says_how_many_there_are(alice, settings):
    settings.LOBBY_ONLINE_LIMIT = 2
    one = online.OnlineProcess("one")
    for n in range(3):
        one.join(person(f"p{n}").pk)
    players, total = people_online(viewer=alice)
    assert ([p.username for p in players], total) == (["p0", "p1"], 3)


def test_joining_and_leaving_ring_the_doorbell_of_the_pages_that_list_who_is_online(
    alice, bob, carol, monkeypatch, django_capture_on_commit_callbacks
):
    rings = []
    monkeypatch.setattr(online, "online_changed_send", lambda: rings.append(1))
    now = timezone.now()
    one = online.OnlineProcess("one")
    with django_capture_on_commit_callbacks(execute=True):
        one.join(bob.pk, now=now)
    assert len(rings) == 1
    with django_capture_on_commit_callbacks(execute=True):
        one.join(bob.pk, now=now)  # a second tab: nothing new
        one.beat(now=now)  # a refresh with nobody gone
    assert len(rings) == 1
    with django_capture_on_commit_callbacks(execute=True):
        one.leave(bob.pk)
        one.leave(bob.pk)
        one.beat(now=now + timedelta(seconds=1))  # Bob went
    assert len(rings) == 2
    with django_capture_on_commit_callbacks(execute=True):
        one.refresh({carol.pk}, now=now + timedelta(seconds=2))  # a row came back
    assert len(rings) == 3


def test_a_deleted_account_with_a_socket_still_open_gets_no_row(alice):
    guest = UserFactory(username="guest-2", is_guest=True)
    one = online.OnlineProcess("one")
    one.join(guest.pk)
    guest.delete()  # a guest's account goes after its time (its rows with it)
    one.refresh({guest.pk, alice.pk})
    assert list(Presence.objects.values_list("user_id", flat=True)) == [alice.pk]
