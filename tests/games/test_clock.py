"""The turn clock of ranked play, with a clock the test moves by hand (never a sleep): the
deadline set whenever the turn passes to a person and shown in the state frame, no clock in
casual play or without a limit, a timed-out turn ended with the greedy discard and counted, the
count reset by a turn played, the third timeout in a row forfeiting the match (rated, and
reported to a tournament), the sweeper ending overdue turns with nobody connected, and never a
casual match, however long it sits."""

from __future__ import annotations

from datetime import timedelta

import pytest

import engine
from engine.bots.greedy import best_discard
from games import services, sweeper
from games.clocks import turn as clock
from games.clocks.timeouts import deadlines_enforce, turn_timeout
from games.models import Game, Match, Move
from games.selectors import game_state_frame
from leagues.models import Membership, RatingChange, TournamentMatch
from tests.games import clocks
from tests.games.clocks import LIMIT, center_move, game_of, ranked_league, ranked_match, side_move
from tests.games.helpers import SMALL, seed_where

pytestmark = pytest.mark.django_db
fake_clock = clocks.fake_clock
_presence_knobs = clocks._presence_knobs


@pytest.fixture
def league(db):
    return ranked_league()


def play(game: Game, move: str) -> Game:
    services.game_play_move(
        game_id=game.pk, move=move, version=game.version, user=game.match.user_at(game.to_move)
    )
    return game_of(game.match)


def end_turn(game: Game) -> Game:
    """The seat to move ends its turn itself (a discard)."""
    return play(game, side_move(game))


def time_out(game: Game, fake_clock) -> Game:
    """Let the seat to move's time run out and the server end its turn."""
    fake_clock.at = game.turn_deadline
    assert turn_timeout(game_id=game.pk, now=clock.now()) is not None
    return game_of(game.match)


def test_the_deadline_is_set_when_the_turn_passes_and_shown_in_the_frame(
    league, alice, bob, seeds, fake_clock
):
    match = ranked_match(league, alice, bob, starter=0, seeds=seeds)
    start = fake_clock.at
    game = game_of(match)
    assert game.to_move == 0 and game.turn_deadline == start + timedelta(seconds=LIMIT)
    frame = game_state_frame(game, 0)
    assert frame["clock"] == {
        "turn_deadline": game.turn_deadline.isoformat(),
        "limit": LIMIT,
        "timeouts": [0, 0],
        "max_timeouts": 3,
        "now": start.isoformat(),
    }
    assert game_state_frame(game, None)["clock"] == frame["clock"]  # spectators see it too

    fake_clock.advance(5)
    move = center_move(game)
    assert move is not None
    game = play(game, move)  # a play to the center: still seat 0's turn, same deadline
    assert game.to_move == 0 and game.turn_deadline == start + timedelta(seconds=LIMIT)

    fake_clock.advance(7)
    game = end_turn(game)  # the discard passes the turn: seat 1's clock starts now
    assert game.to_move == 1
    assert game.turn_deadline == fake_clock.at + timedelta(seconds=LIMIT)
    assert game_state_frame(game, 1)["clock"]["turn_deadline"] == game.turn_deadline.isoformat()


def test_no_clock_in_casual_play_or_without_a_limit(alice, bob, fake_clock):
    casual = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    against_bot = services.match_create(user=alice, bot="greedy", rules=SMALL)
    unlimited = ranked_match(ranked_league("free", turn_time_limit=0), alice, bob)
    for match in (casual, against_bot, unlimited):
        game = game_of(match)
        assert game.turn_deadline is None
        frame = game_state_frame(game, 0)
        assert frame["clock"] is None
        fake_clock.advance(10_000)
        assert turn_timeout(game_id=game.pk) is None
    assert game_state_frame(game_of(casual), 0)["presence"] is None  # nobody keeps track


@pytest.mark.django_db(transaction=True)  # on-commit work runs: the bot's turn
def test_a_bot_seat_has_no_clock_and_the_person_is_timed_against_it(
    alice, seeds, fake_clock, settings
):
    league = ranked_league("botty", bots_ranked=True, disconnect_grace=0)
    Membership.objects.create(league=league, user=alice)
    seeds(seed_where(0), 4242)
    from leagues.services import ranked_match_create

    match = ranked_match_create(league=league, user0=alice, bot="greedy")
    game = game_of(match)
    assert game.to_move == 0 and game.turn_deadline is not None
    fake_clock.at = game.turn_deadline
    assert turn_timeout(game_id=game.pk) is not None
    game = game_of(match)
    # The server discarded for alice, the bot played its turn at once (inline runner, after
    # the commit), and alice's next turn runs against a fresh deadline.
    assert game.to_move == 0 and game.turn_deadline == fake_clock.at + timedelta(seconds=LIMIT)
    assert list(match.games.first().moves.values_list("seat", flat=True)).count(1) >= 1
    match.refresh_from_db()
    assert (match.timeouts0, match.timeouts1) == (1, 0)

    settings.JOBS_INLINE = False  # now the bot's turn waits: it runs against no clock
    fake_clock.at = game.turn_deadline
    assert turn_timeout(game_id=game.pk) is not None
    game = game_of(match)
    assert game.to_move == 1 and game.turn_deadline is None
    assert game_state_frame(game, 0)["clock"]["turn_deadline"] is None
    fake_clock.advance(LIMIT * 10)
    assert deadlines_enforce() == {"timeouts": [], "forfeits": []}


def test_a_timeout_plays_the_greedy_discard_and_counts(league, alice, bob, seeds, fake_clock):
    match = ranked_match(league, alice, bob, starter=0, seeds=seeds)
    game = game_of(match)
    deadline = game.turn_deadline
    fake_clock.at = deadline - timedelta(seconds=1)
    assert turn_timeout(game_id=game.pk, now=clock.now()) is None  # not yet
    assert deadlines_enforce(now=clock.now()) == {"timeouts": [], "forfeits": []}

    expected = best_discard(engine.Game.from_dict(game.state)).text
    assert expected in engine.Game.from_dict(game.state).view(0)["legal_moves"]
    fake_clock.at = deadline
    result = turn_timeout(game_id=game.pk, now=clock.now())
    assert result is not None
    assert (result.seat, result.timeouts, result.move, result.forfeited) == (0, 1, expected, False)
    assert turn_timeout(game_id=game.pk, now=clock.now()) is None  # once only

    game = game_of(match)
    last = Move.objects.filter(game=game).order_by("-ply").first()
    assert (last.seat, last.text, last.client_move_id, last.version) == (0, expected, "", 1)
    assert game.version == 1 and game.to_move == 1
    assert game.turn_deadline == deadline + timedelta(seconds=LIMIT)
    match.refresh_from_db()
    assert (match.timeouts0, match.timeouts1) == (1, 0)
    assert game_state_frame(game, 0)["clock"]["timeouts"] == [1, 0]


def test_a_turn_played_resets_the_count(league, alice, bob, seeds, fake_clock):
    match = ranked_match(league, alice, bob, starter=0, seeds=seeds)
    game = time_out(game_of(match), fake_clock)  # alice: 1
    game = end_turn(game)  # bob plays his turn
    game = time_out(game, fake_clock)  # alice: 2
    game = time_out(game, fake_clock)  # bob: 1
    match.refresh_from_db()
    assert (match.timeouts0, match.timeouts1) == (2, 1)
    move = center_move(game)
    if move is not None:
        game = play(game, move)  # a play that does not end the turn resets nothing
        match.refresh_from_db()
        assert match.timeouts0 == 2
    end_turn(game)  # alice ends a turn herself
    match.refresh_from_db()
    assert (match.timeouts0, match.timeouts1) == (0, 1)


def test_the_third_timeout_in_a_row_forfeits_and_rates_the_match(
    league, alice, bob, seeds, fake_clock, settings
):
    settings.LEAGUES_RATED_MIN_TURNS = 2  # each side has played two turns at the forfeit
    match = ranked_match(league, alice, bob, starter=0, seeds=seeds)
    game = game_of(match)
    for _ in range(2):
        game = time_out(game, fake_clock)  # alice
        game = end_turn(game)  # bob plays
    fake_clock.at = game.turn_deadline
    version = game.version
    moves = Move.objects.filter(game=game).count()
    result = turn_timeout(game_id=game.pk, now=clock.now())
    assert result is not None and result.forfeited and result.move is None
    assert result.timeouts == 3

    match.refresh_from_db()
    game.refresh_from_db()
    assert (match.status, match.winner, match.end_reason) == ("finished", 1, "timeout")
    assert (match.timeouts0, match.timeouts1) == (3, 0)
    assert (game.status, game.winner, game.points, game.reason) == ("finished", 1, 0, "timeout")
    assert game.version == version + 1 and game.turn_deadline is None
    assert Move.objects.filter(game=game).count() == moves  # the forfeit plays no move
    changes = {c.membership.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[bob.pk].score == 1 and changes[alice.pk].score == 0
    assert changes[bob.pk].rating_after > 1500 > changes[alice.pk].rating_after
    assert Membership.objects.get(league=league, user=alice).losses == 1
    assert Membership.objects.get(league=league, user=bob).wins == 1
    assert deadlines_enforce(now=fake_clock.advance(LIMIT * 10)) == {
        "timeouts": [],
        "forfeits": [],
    }
    end = game_state_frame(game, 0)
    assert end["match"]["reason"] == "timeout" and end["clock"]["turn_deadline"] is None
    assert end["presence"] is None


def test_the_sweeper_ends_overdue_turns_with_nobody_connected_and_a_tournament_gets_the_result(
    league, fake_clock, settings
):
    settings.LEAGUES_RATED_MIN_TURNS = 0  # rated however short (docs/leagues.md)
    from leagues.tournaments import services as ts
    from tests.accounts.factories import UserFactory

    settings.JOBS_INLINE = False
    players = [UserFactory(username=f"t{i}", display_name=f"T{i}") for i in (1, 2)]
    for user in players:
        Membership.objects.create(league=league, user=user)
    cup = ts.tournament_create(league=league, name="Clock cup", slug="clock-cup", format="swiss")
    ts.tournament_open_registration(tournament=cup)
    for user in players:
        ts.tournament_register(tournament=cup, user=user)
    ts.tournament_start(tournament=cup)
    pairing = TournamentMatch.objects.get(round__tournament=cup)
    match = pairing.match
    first = game_of(match).to_move

    swept = []
    for _ in range(5):  # first, second, first, second, first: the first times out thrice
        fake_clock.at = game_of(match).turn_deadline
        done = sweeper.sweep()["deadlines_enforce"]
        swept.append(done["timeouts"])
    assert swept == [[game_of(match).pk]] * 5
    match.refresh_from_db()
    assert (match.status, match.end_reason, match.winner) == ("finished", "timeout", 1 - first)
    pairing.refresh_from_db()
    assert pairing.source == TournamentMatch.Source.PLAYED
    assert pairing.winner_id == match.user_id_at(1 - first)
    assert RatingChange.objects.filter(match=match).count() == 2
    fake_clock.advance(LIMIT * 10)
    assert sweeper.sweep()["deadlines_enforce"] == {"away": [], "timeouts": [], "forfeits": []}


def test_a_league_that_drops_its_limit_stops_the_running_clock(league, alice, bob, fake_clock):
    match = ranked_match(league, alice, bob)
    game = game_of(match)
    league.turn_time_limit = 0
    league.save()
    fake_clock.advance(LIMIT + 1)
    assert deadlines_enforce(now=clock.now()) == {"timeouts": [], "forfeits": []}
    game.refresh_from_db()
    assert game.turn_deadline is None and game.version == 0
    assert Match.objects.get(pk=match.pk).status == "active"


def test_a_casual_match_is_never_ended_for_idleness(client, alice, bob, human_starts, fake_clock):
    """Casual matches have no clock and no grace (turn-based play is coming): a month without a
    move, a player gone from the table all that time, and the sweeper ends nothing. The game
    leaves the Watch page (it lists only games moved in recently) but its table still opens."""
    from django.urls import reverse

    from games.clocks.attendance import presence_join, presence_leave

    between = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = game_of(between)
    game = play(game, side_move(game))
    against_bot = human_starts(alice)  # alice to move, the bot waiting for her
    presence_join(game_id=game.pk, match_id=between.pk, seat=0, channel="alice-tab")
    presence_leave(game_id=game.pk, channel="alice-tab")
    games = [game, game_of(against_bot)]
    watched = client.get(reverse("games:watch")).context["rows"]
    assert {row.game.pk for row in watched} == {g.pk for g in games}

    fake_clock.advance(30 * 24 * 3600)
    done = sweeper.sweep()
    assert done["bot_turns_resume"] == []
    assert done["deadlines_enforce"]["timeouts"] == done["deadlines_enforce"]["forfeits"] == []
    for before in games:
        after = Game.objects.select_related("match").get(pk=before.pk)
        assert (after.status, after.match.status) == ("active", "active")
        assert (after.version, after.turn_deadline) == (before.version, None)

    assert client.get(reverse("games:watch")).context["rows"] == []
    for before in games:
        table = client.get(reverse("games:table", args=[before.pk]))
        assert table.status_code == 200 and table.context["game"].is_active
        match_address = client.get(reverse("games:match", args=[before.match_id]))
        assert match_address.url == reverse("games:table", args=[before.pk])
