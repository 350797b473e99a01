"""Who is at a ranked table, and the disconnect grace, with real sockets on the whole ASGI
application and a clock the test moves by hand: the opponent hears ``presence`` with the end of
the grace, the sweep forfeits the match once it ran out (rated), coming back in time cancels
it, a socket's own timer ends an overdue turn without the sweeper, rows of a dead process
expire; and, without sockets, who forfeits when (never connected, both away, bot accounts)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import services, sweeper
from games.clocks.attendance import presence_join, presence_leave
from games.clocks.timeouts import deadlines_enforce, disconnect_forfeit
from games.models import Game, Match, SeatPresence
from leagues.models import RatingChange
from tests import sockets
from tests.games import clocks
from tests.games.clocks import GRACE, LIMIT, game_of, ranked_league, ranked_match
from tests.games.helpers import SMALL
from tests.sockets import QUIET, frames, send

fake_clock = clocks.fake_clock
_presence_knobs = clocks._presence_knobs


@pytest.fixture
def match(db, alice, bob, seeds):
    """A ranked match of alice (seat 0, to move) and bob, turn limit 30 s, grace 20 s."""
    return ranked_match(ranked_league(), alice, bob, starter=0, seeds=seeds)


@pytest.fixture
def cookies(alice, bob) -> dict[str, str]:
    return {
        "alice": sockets.session_cookie(alice, Client()),
        "bob": sockets.session_cookie(bob, Client()),
    }


async def table(match: Match, cookie: str):
    game = await sync_to_async(game_of)(match)
    socket = await sockets.open_socket(f"/ws/games/{game.pk}/", cookie)
    state = await socket.receive_json_from()
    assert state["type"] == "state"
    return socket, state


def presence(seat: int, connected: bool, ends=None, now=None) -> dict:
    return {
        "type": "presence",
        "seat": seat,
        "connected": connected,
        "grace_ends_at": ends.isoformat() if ends else None,
        "now": now.isoformat(),
    }


async def both_seated(match, cookies, fake_clock):
    alice, _ = await table(match, cookies["alice"])
    assert await frames(alice) == [presence(0, True, now=fake_clock.at)]
    bob, _ = await table(match, cookies["bob"])
    seated = presence(1, True, now=fake_clock.at)
    assert await frames(alice) == [seated] and await frames(bob) == [seated]
    await send(bob, {"type": "sync"})
    (state,) = await frames(bob)
    assert state["presence"] == [{"connected": True, "grace_ends_at": None}] * 2
    return alice, bob


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_gone_past_the_grace_forfeits_and_the_opponent_saw_the_countdown(
    match, cookies, fake_clock, alice, bob, settings
):
    settings.LEAGUES_RATED_MIN_TURNS = 0  # rated however short (docs/leagues.md)
    alice_socket, bob_socket = await both_seated(match, cookies, fake_clock)
    left = fake_clock.advance(3)
    await bob_socket.disconnect()
    ends = left + timedelta(seconds=GRACE)
    assert await frames(alice_socket) == [presence(1, False, ends, left)]
    await send(alice_socket, {"type": "sync"})
    (state,) = await frames(alice_socket)
    assert state["presence"] == [
        {"connected": True, "grace_ends_at": None},
        {"connected": False, "grace_ends_at": ends.isoformat()},
    ]

    fake_clock.at = ends - timedelta(seconds=1)
    done = await sync_to_async(sweeper.sweep)()
    assert done["deadlines_enforce"]["forfeits"] == []
    fake_clock.at = ends
    done = await sync_to_async(sweeper.sweep)()
    assert done["deadlines_enforce"]["forfeits"] == [match.pk]

    state, game_end, match_end = await frames(alice_socket)
    assert state["match"]["reason"] == "abandoned" and state["game"]["outcome"]["winner"] == 0
    assert state["presence"] is None  # the match is over: nobody keeps track
    assert (game_end["reason"], game_end["winner"], game_end["points"]) == ("abandoned", 0, 0)
    assert (match_end["reason"], match_end["winner"]) == ("abandoned", 0)
    await alice_socket.disconnect()

    changes = await sync_to_async(
        lambda: {c.membership.user_id: c.score for c in RatingChange.objects.filter(match=match)}
    )()
    assert changes == {alice.pk: 1, bob.pk: 0}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_coming_back_within_the_grace_cancels_the_forfeit(match, cookies, fake_clock):
    alice_socket, bob_socket = await both_seated(match, cookies, fake_clock)
    await bob_socket.disconnect()
    assert [f["connected"] for f in await frames(alice_socket)] == [False]
    fake_clock.advance(GRACE - 5)
    bob_socket, _ = await table(match, cookies["bob"])
    assert await frames(alice_socket) == [presence(1, True, now=fake_clock.at)]

    fake_clock.advance(GRACE + 5)  # past the first grace's end, and longer than any grace
    game = await sync_to_async(game_of)(match)
    fake_clock.at = min(fake_clock.at, game.turn_deadline - timedelta(seconds=1))
    assert (await sync_to_async(deadlines_enforce)()) == {"timeouts": [], "forfeits": []}
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).status == "active"
    await alice_socket.disconnect()
    await bob_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_second_tab_keeps_the_seat_at_the_table(match, cookies, fake_clock):
    alice_socket, bob_socket = await both_seated(match, cookies, fake_clock)
    bob_tab, _ = await table(match, cookies["bob"])
    assert await alice_socket.receive_nothing(timeout=QUIET)  # bob was there already
    await bob_socket.disconnect()
    assert await alice_socket.receive_nothing(timeout=QUIET)  # and still is
    await bob_tab.disconnect()
    assert [f["connected"] for f in await frames(alice_socket)] == [False]
    await alice_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_players_socket_ends_the_overdue_turn_without_the_sweeper(
    match, cookies, fake_clock
):
    alice_socket, _ = await table(match, cookies["alice"])
    await frames(alice_socket)
    game = await sync_to_async(game_of)(match)
    fake_clock.at = game.turn_deadline  # alice let her time run out; then bob opens the table
    bob_socket, _ = await table(match, cookies["bob"])
    received = await frames(alice_socket)
    states = [f for f in received if f["type"] == "state"]
    assert len(states) == 1 and states[0]["version"] == 1
    assert states[0]["clock"]["timeouts"] == [1, 0] and states[0]["view"]["to_move"] == 1
    deadline = fake_clock.at + timedelta(seconds=LIMIT)
    assert states[0]["clock"]["turn_deadline"] == deadline.isoformat()
    await alice_socket.disconnect()
    await bob_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_dead_process_stops_counting_after_the_ttl(
    alice, bob, seeds, cookies, fake_clock, settings
):
    settings.GAMES_PRESENCE_TTL = 30
    league = await sync_to_async(ranked_league)("slow", turn_time_limit=600)
    match = await sync_to_async(ranked_match)(league, alice, bob, seeds=seeds)
    alice_socket, _ = await table(match, cookies["alice"])
    await frames(alice_socket)
    seen = fake_clock.advance(5)  # bob's socket on a process that dies now
    await sync_to_async(SeatPresence.objects.create)(
        match=match, seat=1, channel="specific.dead!process", seen_at=seen
    )
    fake_clock.advance(31)
    await sync_to_async(SeatPresence.objects.filter(seat=0).update)(seen_at=fake_clock.at)
    done = await sync_to_async(sweeper.sweep)()
    # bob counted as gone since his socket was last seen, so his grace is over already
    assert done["deadlines_enforce"] == {
        "away": [[match.pk, 1]],
        "timeouts": [],
        "forfeits": [match.pk],
    }
    ends = seen + timedelta(seconds=GRACE)
    received = await frames(alice_socket)
    assert received[0] == presence(1, False, ends, fake_clock.at)
    assert [f["type"] for f in received[1:]] == ["state", "game_end", "match_end"]
    assert received[-1]["reason"] == "abandoned" and received[-1]["winner"] == 0
    await alice_socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_casual_tables_and_spectators_keep_no_presence(alice, bob, cookies, fake_clock):
    casual = await sync_to_async(services.match_create_between)(user0=alice, user1=bob, rules=SMALL)
    alice_socket, state = await table(casual, cookies["alice"])
    assert state["presence"] is None and state["clock"] is None
    assert await alice_socket.receive_nothing(timeout=QUIET)
    assert await sync_to_async(SeatPresence.objects.count)() == 0
    await alice_socket.disconnect()


# --- without sockets: who forfeits, when ---------------------------------------------------------


def at_table(match: Match, seat: int, name: str) -> None:
    game = game_of(match)
    presence_join(game_id=game.pk, match_id=match.pk, seat=seat, channel=name)


def test_a_player_who_never_came_counts_from_the_start_of_the_match(match, fake_clock):
    at_table(match, 0, "alice-1")
    fake_clock.at = match.created_at + timedelta(seconds=GRACE) - timedelta(milliseconds=1)
    assert disconnect_forfeit(match_id=match.pk) is None
    fake_clock.at = match.created_at + timedelta(seconds=GRACE)
    assert disconnect_forfeit(match_id=match.pk) == 1
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner) == ("finished", "abandoned", 0)


def test_nobody_forfeits_for_absence_while_both_are_away(match, fake_clock):
    at_table(match, 0, "alice-1")
    at_table(match, 1, "bob-1")
    presence_leave(game_id=game_of(match).pk, channel="alice-1")
    presence_leave(game_id=game_of(match).pk, channel="bob-1")
    fake_clock.advance(GRACE + 5)  # both graces ran out; the turn's deadline not yet
    assert deadlines_enforce() == {"timeouts": [], "forfeits": []}
    at_table(match, 1, "bob-2")  # bob comes back: alice's grace ran out long ago
    assert deadlines_enforce() == {"timeouts": [], "forfeits": [match.pk]}
    match.refresh_from_db()
    assert (match.end_reason, match.winner) == ("abandoned", 1)


def test_a_grace_that_ran_out_while_the_opponent_was_there_forfeits_even_when_checked_late(
    match, fake_clock
):
    """alice leaves; her grace runs out while bob is still at the table; bob leaves before any
    check ran (the sweeper is up to an interval late): alice forfeits all the same."""
    at_table(match, 0, "alice-1")
    at_table(match, 1, "bob-1")
    presence_leave(game_id=game_of(match).pk, channel="alice-1")
    fake_clock.advance(GRACE + 2)
    presence_leave(game_id=game_of(match).pk, channel="bob-1")
    fake_clock.advance(3)
    assert deadlines_enforce() == {"timeouts": [], "forfeits": [match.pk]}
    match.refresh_from_db()
    assert (match.end_reason, match.winner) == ("abandoned", 1)


def test_a_bot_account_is_held_to_the_turn_clock_only(alice, bob, seeds, fake_clock):
    bob.is_bot = True
    bob.save()
    league = ranked_league("programs", bots_ranked=True)
    match = ranked_match(league, alice, bob, starter=1, seeds=seeds)
    at_table(match, 0, "alice-1")
    fake_clock.advance(GRACE + 5)  # bob, a program, never opened the table
    assert deadlines_enforce() == {"timeouts": [], "forfeits": []}
    fake_clock.at = game_of(match).turn_deadline
    assert deadlines_enforce() == {"timeouts": [game_of(match).pk], "forfeits": []}


def test_no_grace_in_a_league_without_one(alice, bob, seeds, fake_clock):
    match = ranked_match(ranked_league("patient", disconnect_grace=0), alice, bob, seeds=seeds)
    at_table(match, 0, "alice-1")
    fake_clock.advance(LIMIT - 1)
    assert deadlines_enforce() == {"timeouts": [], "forfeits": []}
    game = game_of(match)
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_sockets_timer_is_told_when_the_next_deadline_or_grace_falls_due(match, fake_clock):
    from games.clocks.timeouts import match_clock_enforce

    game = game_of(match)
    at_table(match, 0, "alice-1")
    at_table(match, 1, "bob-1")
    done = match_clock_enforce(game_id=game.pk)
    assert (done.timeouts, done.forfeits, done.next_due) == ([], [], game.turn_deadline)
    left = fake_clock.advance(2)
    presence_leave(game_id=game.pk, channel="bob-1")
    done = match_clock_enforce(game_id=game.pk)
    assert done.next_due == left + timedelta(seconds=GRACE)  # before the turn's deadline
    fake_clock.at = done.next_due
    done = match_clock_enforce(game_id=game.pk)
    assert done.forfeits == [match.pk] and done.next_due is None
