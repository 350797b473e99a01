"""The lobby's services: challenges, seeks, expiry and blocks, every refusal with its code,
and what each change sends once it commits (docs/lobby.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone, translation

import engine
from accounts.services import user_block, user_delete
from core.errors import GameError
from games.models import Game, Match
from lobby import selectors, services
from lobby.errors import LobbyError
from lobby.models import Challenge, Seek
from tests.lobby.conftest import SMALL

pytestmark = pytest.mark.django_db

CANNOT = "You cannot challenge this player."


def refused(code: str, call, **kwargs) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        call(**kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def challenge(challenger, challenged, rules: engine.Rules = SMALL) -> Challenge:
    return services.challenge_create(
        challenger=challenger, challenged_username=challenged.username, rules=rules
    )


def age(obj: Challenge | Seek) -> None:
    """Put ``obj`` past its expiry, as time would."""
    type(obj).objects.filter(pk=obj.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    obj.refresh_from_db()


# --- challenges: creating --------------------------------------------------------------------


def test_a_challenge_waits_for_its_ttl_and_both_players_hear_of_it(
    alice, bob, carol, outbox, committed, settings
) -> None:
    settings.LOBBY_CHALLENGE_TTL = 120
    sent = committed(
        services.challenge_create, challenger=alice, challenged_username="BOB", rules=SMALL
    )

    assert (sent.challenger, sent.challenged, sent.status) == (alice, bob, "pending")
    assert sent.rules == SMALL.to_dict()
    assert sent.expires_at - sent.created_at == timedelta(seconds=120)
    [received] = outbox.frames[bob.pk]
    assert received["type"] == "challenge" and received["state"] == "received"
    assert received["from"] == {"username": "alice", "name": "Alice", "is_bot": False}
    assert received["to"] == {"username": "bob", "name": "Bob", "is_bot": False}
    assert received["rules"] == SMALL.to_dict()
    assert received["summary"] == "Pay-off pile of 5, first to 10 points"
    assert received["expires_at"] == sent.expires_at.isoformat()
    assert received["game"] is None
    assert [f["state"] for f in outbox.frames[alice.pk]] == ["sent"]
    assert carol.pk not in outbox.frames
    assert outbox.rings == 0


def test_challenge_refusals(alice, bob, carol, settings) -> None:
    refused(
        "unauthenticated",
        services.challenge_create,
        challenger=AnonymousUser(),
        challenged_username="bob",
        rules=SMALL,
    )
    e = refused(
        "not_found",
        services.challenge_create,
        challenger=alice,
        challenged_username="nobody",
        rules=SMALL,
    )
    assert e.message == "No player has that username."
    refused(
        "forbidden",
        services.challenge_create,
        challenger=alice,
        challenged_username="Alice",
        rules=SMALL,
    )
    carol.is_active = False
    carol.save()
    inactive = refused("forbidden", challenge, challenger=alice, challenged=carol)
    assert inactive.message == CANNOT
    assert not Challenge.objects.exists()


def test_a_deleted_player_cannot_be_found(alice, bob) -> None:
    old_name = bob.username
    deleted = user_delete(user=bob)

    refused(
        "not_found",
        services.challenge_create,
        challenger=alice,
        challenged_username=old_name,
        rules=SMALL,
    )
    refused(
        "not_found",
        services.challenge_create,
        challenger=alice,
        challenged_username=deleted.username,
        rules=SMALL,
    )


def test_blocks_stop_challenges_either_way_without_revealing_who_blocked(alice, bob, carol) -> None:
    user_block(blocker=alice, blocked=bob)

    mine = refused("blocked", challenge, challenger=alice, challenged=bob)
    assert "unblock" in mine.message
    theirs = refused("forbidden", challenge, challenger=bob, challenged=alice)
    carol.is_active = False
    carol.save()
    other = refused("forbidden", challenge, challenger=bob, challenged=carol)
    assert theirs.message == other.message == CANNOT  # indistinguishable from any refusal
    assert "block" not in theirs.message.lower()


def test_one_pending_challenge_per_opponent_and_a_limit_in_all(alice, bob, carol, settings) -> None:
    settings.LOBBY_MAX_PENDING_CHALLENGES = 2
    first = challenge(alice, bob)
    refused("duplicate", challenge, challenger=alice, challenged=bob)
    challenge(alice, carol)
    dave = type(alice).objects.create_user(username="dave", password="x-long-pass-1")
    e = refused("too_many", challenge, challenger=alice, challenged=dave)
    assert e.params == {"limit": 2}

    age(first)  # an expired challenge counts for nothing, even before it is marked
    challenge(alice, dave)
    refused("too_many", challenge, challenger=alice, challenged=bob)  # no longer a duplicate
    assert len(selectors.challenges_pending(user=alice)) == 2


def test_crossing_challenges_are_both_allowed(alice, bob) -> None:
    challenge(alice, bob)
    challenge(bob, alice)
    assert Challenge.objects.count() == 2


# --- challenges: answering -------------------------------------------------------------------


def test_accepting_starts_the_match_with_the_challenger_as_player_one(
    alice, bob, carol, outbox, committed
) -> None:
    sent = challenge(alice, bob)
    outbox.clear()
    match = committed(services.challenge_accept, challenge_id=sent.pk, user=bob)

    assert (match.user0, match.user1, match.ranked) == (alice, bob, False)
    assert match.rules == SMALL.to_dict() and match.target == 10
    game = Game.objects.get(match=match)
    assert game.number == 1
    sent.refresh_from_db()
    assert (sent.status, sent.match) == ("accepted", match)
    assert sent.answered_at is not None
    for user in (alice, bob):
        changed, started = outbox.frames[user.pk]
        assert changed["type"] == "challenge" and changed["state"] == "accepted"
        assert changed["game"] == game.pk and changed["url"] == f"/play/games/{game.pk}/"
        assert started == {
            "type": "challenge_accepted",
            "challenge": sent.pk,
            "match": match.pk,
            "game": game.pk,
            "url": f"/play/games/{game.pk}/",
        }
    assert carol.pk not in outbox.frames


def test_accepting_twice_returns_the_same_match(alice, bob, outbox, committed) -> None:
    sent = challenge(alice, bob)
    first = services.challenge_accept(challenge_id=sent.pk, user=bob)
    outbox.clear()
    again = committed(services.challenge_accept, challenge_id=sent.pk, user=bob)

    assert again == first
    assert Match.objects.count() == 1
    assert not outbox.frames  # nothing changed, nothing sent


def test_only_the_challenged_player_answers(alice, bob, carol) -> None:
    sent = challenge(alice, bob)
    for call in (services.challenge_accept, services.challenge_decline):
        refused("forbidden", call, challenge_id=sent.pk, user=alice)
        refused("not_found", call, challenge_id=sent.pk, user=carol)  # not even told it exists
        refused("not_found", call, challenge_id=sent.pk + 99, user=bob)
        refused("unauthenticated", call, challenge_id=sent.pk, user=AnonymousUser())
    assert Challenge.objects.get().status == "pending"


def test_a_declined_or_cancelled_challenge_cannot_be_accepted(alice, bob) -> None:
    declined = challenge(alice, bob)
    services.challenge_decline(challenge_id=declined.pk, user=bob)
    e = refused("closed", services.challenge_accept, challenge_id=declined.pk, user=bob)
    assert e.message == "This challenge was declined."

    cancelled = challenge(alice, bob)
    services.challenge_cancel(challenge_id=cancelled.pk, user=alice)
    e = refused("closed", services.challenge_accept, challenge_id=cancelled.pk, user=bob)
    assert e.message == "This challenge was cancelled."
    assert not Match.objects.exists()


def test_an_expired_challenge_is_refused_and_marked(alice, bob, outbox, committed) -> None:
    sent = challenge(alice, bob)
    age(sent)
    outbox.clear()
    with pytest.raises(LobbyError) as caught:
        committed(services.challenge_accept, challenge_id=sent.pk, user=bob)

    assert caught.value.code == "expired"
    sent.refresh_from_db()
    assert sent.status == "expired"
    assert [f["state"] for f in outbox.frames[alice.pk]] == ["expired"]
    assert not Match.objects.exists()
    refused("expired", services.challenge_accept, challenge_id=sent.pk, user=bob)
    refused("expired", services.challenge_decline, challenge_id=sent.pk, user=bob)


@pytest.mark.parametrize("who_blocks", ["challenger", "challenged"])
def test_a_block_after_the_challenge_closes_it(alice, bob, who_blocks) -> None:
    sent = challenge(alice, bob)
    if who_blocks == "challenger":
        user_block(blocker=alice, blocked=bob)
    else:
        user_block(blocker=bob, blocked=alice)

    assert selectors.challenges_pending(user=alice) == []
    assert selectors.challenges_pending(user=bob) == []
    refused("closed", services.challenge_accept, challenge_id=sent.pk, user=bob)
    sent.refresh_from_db()
    assert sent.status == "cancelled"
    assert not Match.objects.exists()


def test_a_challenger_who_left_cannot_be_played(alice, bob) -> None:
    sent = challenge(alice, bob)
    user_delete(user=alice)
    refused("closed", services.challenge_accept, challenge_id=sent.pk, user=bob)
    assert not Match.objects.exists()


def test_declining_tells_the_challenger_and_is_idempotent(alice, bob, outbox, committed) -> None:
    sent = challenge(alice, bob)
    outbox.clear()
    committed(services.challenge_decline, challenge_id=sent.pk, user=bob)
    sent.refresh_from_db()

    assert sent.status == "declined" and sent.answered_at is not None
    assert [f["state"] for f in outbox.frames[alice.pk]] == ["declined"]
    assert [f["state"] for f in outbox.frames[bob.pk]] == ["declined"]
    outbox.clear()
    assert committed(services.challenge_decline, challenge_id=sent.pk, user=bob) == sent
    assert not outbox.frames
    refused("closed", services.challenge_cancel, challenge_id=sent.pk, user=alice)


def test_cancelling_is_the_challengers_and_is_idempotent(
    alice, bob, carol, outbox, committed
) -> None:
    sent = challenge(alice, bob)
    refused("forbidden", services.challenge_cancel, challenge_id=sent.pk, user=bob)
    refused("not_found", services.challenge_cancel, challenge_id=sent.pk, user=carol)
    outbox.clear()
    committed(services.challenge_cancel, challenge_id=sent.pk, user=alice)

    assert Challenge.objects.get().status == "cancelled"
    assert [f["state"] for f in outbox.frames[bob.pk]] == ["cancelled"]
    services.challenge_cancel(challenge_id=sent.pk, user=alice)  # again: nothing to do

    accepted = challenge(alice, bob)
    services.challenge_accept(challenge_id=accepted.pk, user=bob)
    e = refused("closed", services.challenge_cancel, challenge_id=accepted.pk, user=alice)
    assert e.message == "This challenge was already accepted."


# --- expiry ----------------------------------------------------------------------------------


def test_expiry_is_decided_at_read_time_and_lobby_expire_marks_and_tells(
    alice, bob, carol, outbox, committed
) -> None:
    old = challenge(alice, bob)
    fresh = challenge(carol, bob)
    old_seek = services.seek_create(owner=alice, rules=SMALL)
    services.seek_create(owner=carol, rules=SMALL)
    age(old)
    age(old_seek)

    # Nothing has marked them, yet no read lists them or calls them pending.
    assert [c.pk for c in selectors.challenges_pending(user=bob)] == [fresh.pk]
    assert selectors.challenge_state(old, viewer_id=bob.pk) == "expired"
    assert [s.owner for s in selectors.seeks_open(user=bob)] == [carol]
    assert Challenge.objects.get(pk=old.pk).status == "pending"

    outbox.clear()
    assert committed(services.lobby_expire) == 2
    assert Challenge.objects.get(pk=old.pk).status == "expired"
    assert Challenge.objects.get(pk=fresh.pk).status == "pending"
    assert Seek.objects.get(pk=old_seek.pk).status == "expired"
    assert [f["state"] for f in outbox.frames[alice.pk]] == ["expired"]
    assert [f["state"] for f in outbox.frames[bob.pk]] == ["expired"]
    assert carol.pk not in outbox.frames
    assert outbox.rings == 1

    outbox.clear()
    assert committed(services.lobby_expire) == 0
    assert not outbox.frames and outbox.rings == 0


def test_frames_for_the_challenges_list(alice, bob, carol) -> None:
    to_bob = challenge(alice, bob)
    from_bob = challenge(bob, carol)
    frame = selectors.challenges_frame(user=bob)

    assert frame["type"] == "challenges"
    assert [(c["id"], c["state"]) for c in frame["challenges"]] == [
        (from_bob.pk, "sent"),
        (to_bob.pk, "received"),
    ]


def test_rules_summaries() -> None:
    assert selectors.rules_summary(engine.Rules().to_dict()) == "House rules, first to 50 points"
    odd = engine.Rules(
        hand_size=6, side_stacks=3, center_stacks=4, king_on_empty=False, refill_empty_hand=False
    )
    assert selectors.rules_summary(odd.to_dict()) == (
        "Hand of 6, 3 side stacks, 4 center stacks, no King on an empty stack, "
        "no refill of an empty hand, first to 50 points"
    )
    with translation.override("my"):  # Burmese separates with its own comma
        burmese = selectors.rules_summary(odd.to_dict())
    assert "၊ " in burmese and ", " not in burmese
    assert selectors.rules_summary(engine.Rules(decks=3, payoff_size=30).to_dict()) == (
        "Pay-off pile of 30, 3 decks, first to 50 points"
    )


# --- seeks -----------------------------------------------------------------------------------


def test_a_seek_is_listed_and_rings_the_lobby(alice, bob, outbox, committed, settings) -> None:
    settings.LOBBY_SEEK_TTL = 300
    seek = committed(services.seek_create, owner=alice, rules=SMALL)

    assert seek.status == "open" and seek.rules == SMALL.to_dict()
    assert seek.expires_at - seek.created_at == timedelta(seconds=300)
    assert outbox.rings == 1 and not outbox.frames
    [shown] = selectors.seeks_frame(user=bob)["seeks"]
    assert shown["owner"] == {"username": "alice", "name": "Alice", "is_bot": False}
    assert shown["mine"] is False and shown["id"] == seek.pk
    assert selectors.seeks_frame(user=alice)["seeks"][0]["mine"] is True
    refused("unauthenticated", services.seek_create, owner=AnonymousUser(), rules=SMALL)


def test_open_seeks_per_player_are_limited(alice, settings) -> None:
    settings.LOBBY_MAX_OPEN_SEEKS = 2
    first = services.seek_create(owner=alice, rules=SMALL)
    services.seek_create(owner=alice, rules=SMALL)
    refused("too_many", services.seek_create, owner=alice, rules=SMALL)
    services.seek_cancel(seek_id=first.pk, user=alice)
    services.seek_create(owner=alice, rules=SMALL)


def test_taking_a_seek_starts_the_match_with_the_owner_as_player_one(
    alice, bob, carol, outbox, committed
) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    outbox.clear()
    match = committed(services.seek_take, seek_id=seek.pk, user=bob)

    assert (match.user0, match.user1) == (alice, bob)
    game = Game.objects.get(match=match)
    seek.refresh_from_db()
    assert (seek.status, seek.taken_by, seek.match) == ("taken", bob, match)
    assert seek.taken_at is not None
    expected = {
        "type": "seek_taken",
        "seek": seek.pk,
        "match": match.pk,
        "game": game.pk,
        "url": f"/play/games/{game.pk}/",
        "owner": {"username": "alice", "name": "Alice", "is_bot": False},
        "taker": {"username": "bob", "name": "Bob", "is_bot": False},
    }
    assert outbox.frames[alice.pk] == [expected]
    assert outbox.frames[bob.pk] == [expected]
    assert outbox.rings == 1
    assert selectors.seeks_open(user=carol) == []


def test_the_first_taker_wins_and_the_second_is_told(alice, bob, carol) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    match = services.seek_take(seek_id=seek.pk, user=bob)

    e = refused("taken", services.seek_take, seek_id=seek.pk, user=carol)
    assert e.message == "Someone else took this seek first."
    assert services.seek_take(seek_id=seek.pk, user=bob) == match  # idempotent for the winner
    assert Match.objects.count() == 1


def test_seek_take_refusals(alice, bob) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    refused("forbidden", services.seek_take, seek_id=seek.pk, user=alice)
    refused("not_found", services.seek_take, seek_id=seek.pk + 99, user=bob)
    refused("unauthenticated", services.seek_take, seek_id=seek.pk, user=AnonymousUser())

    services.seek_cancel(seek_id=seek.pk, user=alice)
    refused("closed", services.seek_take, seek_id=seek.pk, user=bob)

    late = services.seek_create(owner=alice, rules=SMALL)
    age(late)
    refused("expired", services.seek_take, seek_id=late.pk, user=bob)
    assert Seek.objects.get(pk=late.pk).status == "expired"
    refused("expired", services.seek_take, seek_id=late.pk, user=bob)
    assert not Match.objects.exists()


def test_blocks_stop_taking_seeks_either_way(alice, bob, carol) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    user_block(blocker=alice, blocked=bob)  # the owner blocked the taker
    e = refused("forbidden", services.seek_take, seek_id=seek.pk, user=bob)
    assert e.message == "You cannot take this seek."

    user_block(blocker=carol, blocked=alice)  # the taker blocked the owner
    refused("blocked", services.seek_take, seek_id=seek.pk, user=carol)
    assert selectors.seeks_open(user=bob) == []
    assert selectors.seeks_open(user=carol) == []
    assert selectors.seeks_open(user=alice) == [seek]
    assert not Match.objects.exists()


def test_seek_cancel(alice, bob, outbox, committed) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    refused("not_found", services.seek_cancel, seek_id=seek.pk, user=bob)
    outbox.clear()
    committed(services.seek_cancel, seek_id=seek.pk, user=alice)
    assert Seek.objects.get().status == "cancelled" and outbox.rings == 1
    services.seek_cancel(seek_id=seek.pk, user=alice)  # again: nothing to do

    taken = services.seek_create(owner=alice, rules=SMALL)
    services.seek_take(seek_id=taken.pk, user=bob)
    refused("closed", services.seek_cancel, seek_id=taken.pk, user=alice)


def test_lobby_errors_are_game_errors_with_frames() -> None:
    e = LobbyError("taken", "Someone else took this seek first.")
    assert isinstance(e, GameError)
    assert e.to_frame() == {
        "type": "error",
        "code": "taken",
        "message": "Someone else took this seek first.",
    }
    with pytest.raises(ValueError):
        LobbyError("no_such_code", "?")


@pytest.mark.django_db(transaction=True)
def test_two_takers_at_the_same_moment_make_one_match(alice, bob, carol) -> None:
    """Two requests take one seek at once: the row lock lets one through; the other waits,
    then reads it taken. (PostgreSQL only: SQLite's in-memory test database serialises whole
    transactions and cannot show the race.)"""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs a database with row locks (PostgreSQL)")
    import threading

    from django.db import close_old_connections

    seek = services.seek_create(owner=alice, rules=SMALL)
    start = threading.Barrier(2)
    results: dict[str, object] = {}

    def take(user) -> None:
        start.wait()
        try:
            results[user.username] = services.seek_take(seek_id=seek.pk, user=user)
        except LobbyError as exc:
            results[user.username] = exc.code
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=take, args=(user,)) for user in (bob, carol)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    matches = [r for r in results.values() if isinstance(r, Match)]
    assert len(matches) == 1 and sorted(map(str, results.values())).count("taken") == 1
    assert Match.objects.count() == 1
    seek.refresh_from_db()
    assert seek.match == matches[0] and seek.taken_by.username in results
