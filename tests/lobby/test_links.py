"""Challenge links (lobby.services.link_create, link_accept, link_cancel): one made, opened
and accepted once, refused for a second taker, its maker, a blocked pair and guests, expiring
on a clock the test moves, and cancelled by its maker (docs/lobby.md, "Challenge links")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from accounts.selectors import GUESTS_PLAY_BOTS
from accounts.services import user_block, user_delete
from games.models import Match
from lobby import services
from lobby.errors import LobbyError
from lobby.models import Challenge, ChallengeLink
from tests.accounts.factories import UserFactory
from tests.lobby.conftest import SMALL

pytestmark = pytest.mark.django_db


@dataclass
class Clock:
    """``django.utils.timezone.now`` while a test runs: stands still until ``advance``d."""

    at: datetime = field(default_factory=timezone.now)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


def refused(code: str, call, **kwargs) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


@pytest.fixture
def link(alice) -> ChallengeLink:
    return services.link_create(maker=alice, rules=SMALL)


def test_a_link_holds_an_unguessable_token_the_rules_and_a_day(alice, settings, clock):
    settings.LOBBY_LINK_TTL = 86400
    made = services.link_create(maker=alice, rules=SMALL)
    other = services.link_create(maker=alice, rules=SMALL)
    assert (made.maker, made.status, made.rules) == (alice, "open", SMALL.to_dict())
    assert len(made.token) >= 32 and made.token != other.token
    assert made.expires_at - made.created_at == timedelta(days=1)


def test_accepting_starts_the_match_as_an_accepted_challenge_and_tells_the_maker(
    alice, bob, link, outbox, committed
):
    match = committed(services.link_accept, token=link.token, user=bob)

    assert isinstance(match, Match)
    assert (match.user0, match.user1, match.ranked) == (alice, bob, False)  # the maker is seat 0
    assert match.rules == SMALL.to_dict()
    link.refresh_from_db()
    assert (link.status, link.used_by, link.challenge.match) == ("used", bob, match)
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.challenged, challenge.status) == (
        alice,
        bob,
        "accepted",
    )
    # Both hear it as for an accepted challenge: the maker's page goes to the table.
    for user in (alice, bob):
        assert outbox.types(user) == ["challenge", "challenge_accepted"]
        assert outbox.frames[user.pk][1]["game"] == match.current_game.pk


def test_a_link_works_once_the_second_opener_reads_it_was_used(alice, bob, carol, link):
    match = services.link_accept(token=link.token, user=bob)
    assert services.link_accept(token=link.token, user=bob) == match  # again: the same match
    error = refused("taken", services.link_accept, token=link.token, user=carol)
    assert error.message == "Someone else already used this challenge link."
    assert Match.objects.count() == 1


def test_the_maker_cannot_accept_their_own_link(alice, link):
    error = refused("forbidden", services.link_accept, token=link.token, user=alice)
    assert "your own challenge link" in error.message


def test_a_blocked_pair_cannot_use_a_link_either_way(alice, bob, carol, link):
    user_block(blocker=bob, blocked=alice)
    error = refused("blocked", services.link_accept, token=link.token, user=bob)
    assert "You blocked this player" in error.message
    user_block(blocker=alice, blocked=carol)
    error = refused("forbidden", services.link_accept, token=link.token, user=carol)
    assert error.message == "You cannot accept this challenge."  # never says who blocked whom
    assert ChallengeLink.objects.get().status == "open"  # still there for someone else


def test_guests_can_neither_make_nor_accept_a_link(alice, link):
    guest = UserFactory(username="guest-7", is_guest=True)
    error = refused("forbidden", services.link_create, maker=guest, rules=SMALL)
    assert error.message == GUESTS_PLAY_BOTS
    error = refused("forbidden", services.link_accept, token=link.token, user=guest)
    assert error.message == GUESTS_PLAY_BOTS
    assert not ChallengeLink.objects.filter(maker=guest).exists()


def test_signed_out_and_unknown_links_are_refused(alice, link):
    refused("unauthenticated", services.link_create, maker=AnonymousUser(), rules=SMALL)
    refused("unauthenticated", services.link_accept, token=link.token, user=AnonymousUser())
    refused("not_found", services.link_accept, token="no-such-token", user=alice)
    refused("not_found", services.link_accept, token="", user=alice)


def test_a_link_expires_after_its_ttl(alice, bob, carol, settings, clock):
    settings.LOBBY_LINK_TTL = 3600
    made = services.link_create(maker=alice, rules=SMALL)
    clock.advance(3599)
    fresh = services.link_create(maker=alice, rules=SMALL)
    assert services.link_accept(token=fresh.token, user=carol)  # still open a second before
    clock.advance(1)
    error = refused("expired", services.link_accept, token=made.token, user=bob)
    assert error.message == "This challenge link expired."
    made.refresh_from_db()
    assert made.status == "expired"  # marked as it was refused
    refused("expired", services.link_accept, token=made.token, user=bob)


def test_the_maker_cancels_a_link_and_nobody_can_use_it_then(alice, bob, link):
    refused("not_found", services.link_cancel, link_id=link.pk, user=bob)  # not Bob's
    cancelled = services.link_cancel(link_id=link.pk, user=alice)
    assert cancelled.status == "cancelled"
    assert services.link_cancel(link_id=link.pk, user=alice).status == "cancelled"  # again
    error = refused("closed", services.link_accept, token=link.token, user=bob)
    assert error.message == "This challenge link was cancelled."


def test_a_used_link_cannot_be_cancelled(alice, bob, link):
    services.link_accept(token=link.token, user=bob)
    refused("closed", services.link_cancel, link_id=link.pk, user=alice)


def test_a_link_of_a_deleted_maker_is_closed(alice, bob, link):
    user_delete(user=alice)
    refused("closed", services.link_accept, token=link.token, user=bob)
    assert ChallengeLink.objects.get().status == "cancelled"


def test_one_player_has_a_few_open_links_at_most(alice, settings):
    settings.LOBBY_MAX_OPEN_LINKS = 2
    first = services.link_create(maker=alice, rules=SMALL)
    services.link_create(maker=alice, rules=SMALL)
    error = refused("too_many", services.link_create, maker=alice, rules=SMALL)
    assert error.params == {"limit": 2}
    services.link_cancel(link_id=first.pk, user=alice)
    assert services.link_create(maker=alice, rules=SMALL)  # one freed


@pytest.mark.django_db(transaction=True)
def test_two_openers_accepting_at_the_same_moment_make_one_match(alice, bob, carol):
    """Two requests accept one link at once: the row lock lets one through; the other waits,
    then reads it used. (PostgreSQL only: SQLite's in-memory test database serialises whole
    transactions and cannot show the race.)"""
    import threading

    from django.db import close_old_connections, connection

    if connection.vendor != "postgresql":
        pytest.skip("needs a database with row locks (PostgreSQL)")
    made = services.link_create(maker=alice, rules=SMALL)
    start = threading.Barrier(2)
    results: dict[str, object] = {}

    def accept(user) -> None:
        start.wait()
        try:
            results[user.username] = services.link_accept(token=made.token, user=user)
        except LobbyError as exc:
            results[user.username] = exc.code
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=accept, args=(user,)) for user in (bob, carol)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    matches = [r for r in results.values() if isinstance(r, Match)]
    assert len(matches) == 1 and list(results.values()).count("taken") == 1
    assert Match.objects.count() == 1 and Challenge.objects.count() == 1
    made.refresh_from_db()
    assert made.challenge.match == matches[0] and made.used_by.username in results
