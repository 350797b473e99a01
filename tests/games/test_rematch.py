"""Rematches: after a finished match either player offers one; against a bot it starts at
once, between people the opponent accepts (seats swapped, same rules) or declines. One
rematch per match: asking again answers with the same new match."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser

import engine
from core.errors import GameError
from games import services
from games.models import Match
from games.selectors import game_state_frame
from games.services import game_abort, game_resign, match_rematch
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, current_game

pytestmark = pytest.mark.django_db

RULES = engine.Rules(payoff_size=6, match_target=12, king_on_empty=False)


def _error(call, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


def _finished(match: Match, loser) -> Match:
    game_resign(game_id=current_game(match).pk, user=loser, scope="match")
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def test_against_a_bot_an_offer_starts_the_rematch_at_once(alice) -> None:
    old = _finished(services.match_create(user=alice, bot="expert", rules=RULES), alice)

    result = match_rematch(match_id=old.pk, user=alice, action="offer")

    new = Match.objects.get(pk=result.match_id)
    assert (result.state, result.by) == ("accepted", 0)
    assert result.game_id == current_game(new).pk and current_game(new).number == 1
    assert (new.user0, new.bot1, new.rules, new.ranked, new.status) == (
        alice, "expert", RULES.to_dict(), False, "active"
    )  # fmt: skip
    old.refresh_from_db()
    assert old.rematch == new
    again = match_rematch(match_id=old.pk, user=alice, action="offer")
    assert (again.match_id, again.game_id) == (new.pk, result.game_id)
    assert Match.objects.count() == 2
    assert game_state_frame(current_game(old), 0)["match"]["rematch"] == {
        "offered_by": 0, "match": new.pk, "game": result.game_id,
    }  # fmt: skip


def test_between_people_an_offer_waits_and_accepting_swaps_the_seats(alice, bob) -> None:
    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=RULES), bob)

    offered = match_rematch(match_id=old.pk, user=bob, action="offer")
    assert (offered.state, offered.by, offered.match_id) == ("offered", 1, None)
    assert offered.to_frame() == {"type": "rematch", "state": "offered", "by": 1}
    assert game_state_frame(current_game(old), 0)["match"]["rematch"] == {
        "offered_by": 1, "match": None, "game": None,
    }  # fmt: skip
    assert _error(match_rematch, match_id=old.pk, user=bob, action="accept").code == "forbidden"

    accepted = match_rematch(match_id=old.pk, user=alice, action="accept")
    new = Match.objects.get(pk=accepted.match_id)
    assert (accepted.state, accepted.by) == ("accepted", 1)
    assert accepted.to_frame() == {
        "type": "rematch", "state": "accepted", "by": 1,
        "match": new.pk, "game": current_game(new).pk,
    }  # fmt: skip
    assert (new.user0, new.user1, new.rules, new.target) == (bob, alice, RULES.to_dict(), 12)

    twice = match_rematch(match_id=old.pk, user=alice, action="accept")
    thrice = match_rematch(match_id=old.pk, user=bob, action="offer")
    assert twice.match_id == thrice.match_id == new.pk and Match.objects.count() == 2


def test_crossing_offers_start_the_rematch(alice, bob) -> None:
    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=SMALL), alice)
    match_rematch(match_id=old.pk, user=alice, action="offer")
    result = match_rematch(match_id=old.pk, user=bob, action="offer")
    assert (result.state, result.by) == ("accepted", 0)
    new = Match.objects.get(pk=result.match_id)
    assert (new.user0, new.user1) == (bob, alice)


def test_a_declined_offer_is_gone(alice, bob) -> None:
    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=SMALL), alice)
    match_rematch(match_id=old.pk, user=alice, action="offer")

    declined = match_rematch(match_id=old.pk, user=bob, action="decline")

    assert declined.to_frame() == {"type": "rematch", "state": "declined", "by": 1}
    old.refresh_from_db()
    assert old.rematch_offered_by is None and old.rematch is None
    assert _error(match_rematch, match_id=old.pk, user=bob, action="accept").code == "forbidden"
    assert _error(match_rematch, match_id=old.pk, user=bob, action="decline").code == "forbidden"
    assert Match.objects.count() == 1


def test_only_after_the_match_finished(alice, bob) -> None:
    active = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    error = _error(match_rematch, match_id=active.pk, user=alice, action="offer")
    assert error.code == "forbidden" and "once the match is over" in error.message
    aborted = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game_abort(game_id=current_game(aborted).pk, user=bob)
    assert _error(match_rematch, match_id=aborted.pk, user=alice, action="offer").code == (
        "forbidden"
    )
    assert game_state_frame(current_game(aborted), 0)["match"]["rematch"] is None


def test_only_by_its_players(alice, bob) -> None:
    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=SMALL), alice)
    carol = UserFactory(username="carol")
    assert _error(match_rematch, match_id=old.pk, user=carol, action="offer").code == "forbidden"
    anonymous = _error(match_rematch, match_id=old.pk, user=AnonymousUser(), action="offer")
    assert anonymous.code == "unauthenticated"
    assert _error(match_rematch, match_id=old.pk, user=alice, action="maybe").code == (
        "bad_message"
    )
    assert _error(match_rematch, match_id=987654, user=alice, action="offer").code == "not_found"


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_no_rematch_between_players_where_either_blocked_the_other(alice, bob, blocker) -> None:
    from accounts.services import user_block

    players = {"alice": alice, "bob": bob}
    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=SMALL), alice)
    match_rematch(match_id=old.pk, user=alice, action="offer")  # offered before the block
    user_block(blocker=players[blocker], blocked=players["bob" if blocker == "alice" else "alice"])

    for user, action in ((bob, "accept"), (bob, "offer"), (alice, "offer")):
        error = _error(match_rematch, match_id=old.pk, user=user, action=action)
        # The lobby's neutral words, whoever blocked whom: the blocked player is never told.
        assert (error.code, error.message) == ("forbidden", "You cannot challenge this player.")
    assert Match.objects.count() == 1
    old.refresh_from_db()
    assert old.rematch is None
    declined = match_rematch(match_id=old.pk, user=bob, action="decline")  # still answerable
    assert declined.state == "declined"


def test_a_block_after_the_rematch_was_made_changes_nothing(alice, bob) -> None:
    from accounts.services import user_block

    old = _finished(services.match_create_between(user0=alice, user1=bob, rules=SMALL), alice)
    match_rematch(match_id=old.pk, user=alice, action="offer")
    made = match_rematch(match_id=old.pk, user=bob, action="accept")
    user_block(blocker=bob, blocked=alice)
    again = match_rematch(match_id=old.pk, user=alice, action="offer")
    assert (again.state, again.match_id) == ("accepted", made.match_id)


def test_a_block_does_not_concern_a_rematch_against_a_bot(alice, bob) -> None:
    from accounts.services import user_block

    user_block(blocker=bob, blocked=alice)
    old = _finished(services.match_create(user=alice, bot="random", rules=SMALL), alice)
    assert match_rematch(match_id=old.pk, user=alice, action="offer").state == "accepted"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_offer_and_accept_over_the_sockets_reach_both_tables(alice, bob) -> None:
    from tests.games.test_consumers import open_socket, session_cookie
    from tests.sockets import frames, send

    def make():
        from django.test import Client

        match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
        game = current_game(match)
        game_resign(game_id=game.pk, user=alice, scope="match")
        return game, session_cookie(Client(), alice), session_cookie(Client(), bob)

    game, alice_cookie, bob_cookie = await sync_to_async(make)()
    mine = await open_socket(game.pk, alice_cookie)
    theirs = await open_socket(game.pk, bob_cookie)
    watcher = await open_socket(game.pk)
    try:
        for communicator in (mine, theirs, watcher):
            await frames(communicator)
        await send(watcher, {"type": "rematch", "action": "offer"})
        assert (await watcher.receive_json_from())["code"] == "unauthenticated"

        await send(mine, {"type": "rematch", "action": "offer"})
        offered = {"type": "rematch", "state": "offered", "by": 0}
        assert await frames(mine) == [offered]  # once: by broadcast, not twice
        assert await frames(theirs) == [offered]

        await send(theirs, {"type": "rematch", "action": "accept"})
        [accepted] = await frames(theirs)
        assert await frames(mine) == [accepted]
        new = await sync_to_async(lambda: Match.objects.get(pk=accepted["match"]))()
        assert accepted["game"] == await sync_to_async(lambda: current_game(new).pk)()
        assert (new.user0_id, new.user1_id) == (bob.pk, alice.pk)

        await send(mine, {"type": "rematch", "action": "accept"})  # asked again: same answer
        assert await frames(mine) == [accepted]
        await send(mine, {"type": "rematch"})
        assert (await mine.receive_json_from())["code"] == "bad_message"
    finally:
        for communicator in (mine, theirs, watcher):
            await communicator.disconnect()


def test_a_rematch_against_a_bot_respects_the_cap_on_bot_matches(alice, settings) -> None:
    """A finished bot match's rematch counts like a new one: past
    GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT it is refused too_many, and nothing starts."""
    settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = 1
    old = _finished(services.match_create(user=alice, bot="random", rules=RULES), alice)
    services.match_create(user=alice, bot="random", rules=RULES)
    error = _error(match_rematch, match_id=old.pk, user=alice, action="offer")
    assert (error.code, error.params) == ("too_many", {"limit": 1})
    old.refresh_from_db()
    assert old.rematch_id is None and Match.objects.count() == 2
