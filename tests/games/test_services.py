"""games.services: creating matches, playing moves, every error code, resigning, ending.

Tests marked ``transaction=True`` commit for real, so on-commit work runs: the broadcast and
the bot's moves (jobs run inline under test, see tests/conftest.py). In the others nothing
commits, so the bot never moves and a position stays put.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

import engine
from core.errors import GameError
from games.models import Game, Match, Move
from games.refusals import card_label, refusal_message
from games.services import game_play_move, game_resign, match_create
from tests.games.helpers import SMALL, a_center_move, a_side_move, current_game, legal, seed_where

pytestmark = pytest.mark.django_db


def _error(call, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


# --- creating -----------------------------------------------------------------------------------


def test_match_create_seats_the_user_against_the_bot_and_deals_game_one(alice, seeds) -> None:
    seeds(seed_where(1), 99)
    rules = engine.Rules(payoff_size=5, match_target=10, king_on_empty=False)

    match = match_create(user=alice, bot="expert", rules=rules)

    assert (match.user0, match.bot0, match.user1, match.bot1) == (alice, "", None, "expert")
    assert match.rules == rules.to_dict() and match.target == 10
    assert (match.status, match.scores, match.winner) == ("active", [0, 0], None)
    assert match.ranked is False
    game = match.games.get()
    assert (game.number, game.version, game.status, game.seed, game.bot_seed) == (
        1, 0, "active", seed_where(1), 99
    )  # fmt: skip
    dealt = engine.Game.new(seed=game.seed, rules=rules)
    assert game.state == dealt.to_dict()
    assert game.first_player == dealt.to_move == 1  # RULES.md: the higher pay-off card starts
    assert match.seat_name(0) == "Alice" and match.seat_name(1) == "Expert bot"


def test_seeds_come_from_secrets_and_the_bot_never_gets_the_game_seed(alice) -> None:
    games = [match_create(user=alice, bot="random", rules=SMALL).games.get() for _ in range(5)]
    seeds = {g.seed for g in games} | {g.bot_seed for g in games}
    assert len(seeds) == 10
    assert all(0 <= s < 2**63 for s in seeds)


def test_match_create_refuses_anonymous_users_and_unknown_bots(alice) -> None:
    error = _error(match_create, user=AnonymousUser(), bot="random", rules=SMALL)
    assert error.code == "unauthenticated"
    with pytest.raises(ValueError, match="unknown bot level"):
        match_create(user=alice, bot="grandmaster", rules=SMALL)
    assert not Match.objects.exists()


# --- playing ------------------------------------------------------------------------------------


def test_a_move_is_applied_saved_and_versioned(alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    move = legal(game, 0)[0]
    expected = engine.Game.from_dict(game.state)
    expected.play(move)

    result = game_play_move(game_id=game.pk, user=alice, move=move, version=0, move_id="m-1")

    assert (result.version, result.ply, result.seat, result.move, result.replayed) == (
        1, 0, 0, move, False
    )  # fmt: skip
    game.refresh_from_db()
    assert game.version == 1 and game.state == expected.to_dict()
    row = Move.objects.get(game=game)
    assert (row.ply, row.seat, row.text, row.client_move_id, row.version) == (0, 0, move, "m-1", 1)


def test_a_repeated_move_id_returns_the_earlier_result_and_applies_nothing(
    alice, human_starts
) -> None:
    game = current_game(human_starts(alice))
    first = a_center_move(game)
    one = game_play_move(game_id=game.pk, user=alice, move=first, version=0, move_id="same")
    game.refresh_from_db()
    second = legal(game, 0)[0]
    game_play_move(game_id=game.pk, user=alice, move=second, version=1, move_id="other")

    # The resend carries the old version and the old text: it is answered, not applied.
    again = game_play_move(game_id=game.pk, user=alice, move=first, version=0, move_id="same")

    assert again.replayed and (again.version, again.move, again.ply) == (one.version, first, 0)
    game.refresh_from_db()
    assert game.version == 2 and game.moves.count() == 2


def test_a_used_move_id_at_the_current_version_applies_nothing(alice, human_starts) -> None:
    """A fresh move's id is checked by the log's unique constraint, not by a query first: an id
    reused at the current version answers the earlier move, and the game plays on."""
    game = current_game(human_starts(alice))
    first = a_center_move(game)
    one = game_play_move(game_id=game.pk, user=alice, move=first, version=0, move_id="same")
    game.refresh_from_db()
    second = legal(game, 0)[0]

    again = game_play_move(game_id=game.pk, user=alice, move=second, version=1, move_id="same")

    assert again.replayed and (again.version, again.move) == (one.version, first)
    game.refresh_from_db()
    assert game.version == 1 and game.moves.count() == 1
    game_play_move(game_id=game.pk, user=alice, move=second, version=1, move_id="next")
    game.refresh_from_db()
    assert game.version == 2 and game.moves.count() == 2


def test_a_move_id_of_the_other_seat_is_a_bad_message(alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    side = a_side_move(game)
    game_play_move(game_id=game.pk, user=alice, move=side, version=0, move_id="a")
    game.refresh_from_db()
    bot_move = legal(game, 1)[0]
    game_play_move(game_id=game.pk, bot=True, seat=1, move=bot_move, version=1, move_id="bot-1")

    error = _error(
        game_play_move, game_id=game.pk, user=alice, move="p-c1", version=2, move_id="bot-1"
    )
    assert error.code == "bad_message"


def test_not_your_turn_names_who_is_playing(alice, bot_starts) -> None:
    game = current_game(bot_starts(alice, bot="expert"))
    error = _error(game_play_move, game_id=game.pk, user=alice, move="p-c1", version=0, move_id="x")
    assert error.code == "not_your_turn"
    assert error.message == "It is not your turn: the Expert bot is playing."


def test_a_stale_version_is_refused_with_the_current_one(alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    game_play_move(game_id=game.pk, user=alice, move=a_center_move(game), version=0, move_id="a")
    game.refresh_from_db()
    assert game.to_move == 0

    error = _error(
        game_play_move, game_id=game.pk, user=alice, move=legal(game, 0)[0], version=0, move_id="b"
    )

    assert error.code == "stale_version" and error.params == {"version": 1}
    assert error.message == (
        "The table moved on since you chose that move; here is the current state."
    )


@pytest.mark.parametrize(
    ("move", "engine_code"),
    [("nonsense", "bad_notation"), ("h:AS-c9", "no_such_stack"), ("s1-c1", "empty_stack")],
)
def test_an_engine_refusal_keeps_its_code_and_params(
    alice, human_starts, move, engine_code
) -> None:
    game = current_game(human_starts(alice))
    expected = engine.Game.from_dict(game.state)
    with pytest.raises(engine.IllegalMove) as refused:
        expected.play(move)

    error = _error(game_play_move, game_id=game.pk, user=alice, move=move, version=0, move_id="x")

    assert error.code == "illegal_move" and error.engine_code == refused.value.code == engine_code
    assert error.params == refused.value.params
    # The engine's English, in the player's words (games.refusals): translatable.
    assert error.message == str(refusal_message(refused.value)) != str(refused.value)
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()


def test_a_wrong_rank_names_the_card_and_the_stack(alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    state = engine.Game.from_dict(game.state)
    card = next(c for c in state.hands[0] if c[0] not in "AK")
    error = _error(
        game_play_move, game_id=game.pk, user=alice, move=f"h:{card}-c1", version=0, move_id="x"
    )
    assert (error.code, error.engine_code) == ("illegal_move", "wrong_rank")
    assert card_label(card) in error.message and error.params["card"] == card


def test_watchers_strangers_and_missing_games(alice, bob, human_starts) -> None:
    game = current_game(human_starts(alice))
    args = {"game_id": game.pk, "move": legal(game, 0)[0], "version": 0, "move_id": "x"}

    assert _error(game_play_move, user=bob, **args).code == "forbidden"
    assert _error(game_play_move, user=AnonymousUser(), **args).code == "unauthenticated"
    assert _error(game_play_move, user=None, **args).code == "unauthenticated"
    assert _error(game_play_move, bot=True, seat=0, **args).code == "forbidden"
    assert _error(game_play_move, **{**args, "game_id": game.pk + 1000}, user=alice).code == (
        "not_found"
    )
    assert _error(game_play_move, user=alice, **{**args, "move_id": "x" * 65}).code == (
        "bad_message"
    )
    assert not Move.objects.exists()


def test_no_move_after_the_game_is_over(alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    game_resign(game_id=game.pk, user=alice, scope="game")
    error = _error(
        game_play_move, game_id=game.pk, user=alice, move=legal(game, 0)[0], version=1, move_id="y"
    )
    assert error.code == "game_over"
    assert _error(game_resign, game_id=game.pk, user=alice, scope="game").code == "game_over"


# --- resigning and ending -----------------------------------------------------------------------


def test_resigning_a_game_gives_the_opponent_the_resigners_payoff_cards(
    alice, human_starts
) -> None:
    match = human_starts(alice)
    game = current_game(match)
    left = len(game.state["players"][0]["payoff"])

    ended = game_resign(game_id=game.pk, user=alice, scope="game")

    assert (ended.status, ended.winner, ended.points, ended.reason) == (
        "finished", 1, left, "resigned"
    )  # fmt: skip
    assert ended.version == 1 and ended.finished_at is not None
    match.refresh_from_db()
    assert match.scores == [0, left] and match.status == "active"
    following = current_game(match)
    assert following.number == 2 and following.first_player == 1  # the other seat starts
    assert following.state["to_move"] == 1


def test_resigning_the_match_ends_it_for_the_opponent(alice, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)

    ended = game_resign(game_id=game.pk, user=alice, scope="match")

    assert (ended.winner, ended.points, ended.reason) == (1, 0, "resigned")
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason, match.scores) == (
        "finished", 1, "resigned", [0, 0]
    )  # fmt: skip
    assert match.finished_at is not None and match.games.count() == 1


def test_resign_checks_scope_and_seat(alice, bob, human_starts) -> None:
    game = current_game(human_starts(alice))
    assert _error(game_resign, game_id=game.pk, user=alice, scope="set").code == "bad_message"
    assert _error(game_resign, game_id=game.pk, user=bob, scope="game").code == "forbidden"
    assert (
        _error(game_resign, game_id=game.pk, user=AnonymousUser(), scope="game").code
        == "unauthenticated"
    )


def test_reaching_the_target_by_resignation_ends_the_match(alice, human_starts) -> None:
    match = human_starts(alice, rules=engine.Rules(payoff_size=5, match_target=5))
    game = current_game(match)
    game_resign(game_id=game.pk, user=alice, scope="game")  # 5 cards left: the bot reaches 5
    match.refresh_from_db()
    assert (match.status, match.winner, match.end_reason, match.scores) == (
        "finished", 1, "target_reached", [0, 5]
    )  # fmt: skip
    assert match.games.count() == 1


def test_a_tied_game_scores_nothing_and_the_match_goes_on(alice, human_starts) -> None:
    from django.db import transaction

    from games.services._common import game_lock
    from games.services.play import _game_finish

    match = human_starts(alice)
    with transaction.atomic():
        game = game_lock(current_game(match).pk).game
        game.version += 1
        ended = _game_finish(game, winner=None, points=0, reason="stock_depleted")
        game.save()
    assert ended is False
    match.refresh_from_db()
    assert match.scores == [0, 0] and match.status == "active"
    game.refresh_from_db()
    assert (game.status, game.winner, game.points, game.reason) == (
        "finished", None, 0, "stock_depleted"
    )  # fmt: skip
    assert current_game(match).number == 2 and current_game(match).first_player == 1


# --- the bot's turn -----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_bot_plays_its_whole_turn_after_the_human_ends_theirs(alice, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)
    game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=0, move_id="end")

    game.refresh_from_db()
    bot_moves = list(game.moves.filter(seat=1).order_by("ply"))
    assert bot_moves, "the bot did not play"
    assert [m.client_move_id for m in bot_moves] == [f"bot-{m.version - 1}" for m in bot_moves]
    assert [m.version for m in game.moves.order_by("ply")] == list(range(1, game.version + 1))
    if game.is_active:
        assert game.to_move == 0  # the bot's turn ended with a side play
    else:
        assert game.winner == 1


@pytest.mark.django_db(transaction=True)
def test_a_bot_that_starts_plays_as_soon_as_the_match_is_created(alice, bot_starts) -> None:
    match = bot_starts(alice)
    game = Game.objects.filter(match=match, number=1).get()
    assert game.moves.filter(seat=1).exists()
    assert game.moves.first().seat == 1


def test_two_people_meet_in_a_match_whose_first_game_is_dealt(alice, bob) -> None:
    from games.services import match_create_between

    match = match_create_between(user0=alice, user1=bob, rules=SMALL)
    assert (match.user0, match.user1, match.bot0, match.bot1) == (alice, bob, "", "")
    assert match.seat_of(bob) == 1 and not match.is_bot(0) and not match.is_bot(1)
    game = current_game(match)
    assert game.number == 1 and game.version == 0 and game.moves.count() == 0


def test_nobody_plays_against_themselves(alice) -> None:
    from games.services import match_create_between

    with pytest.raises(GameError) as caught:
        match_create_between(user0=alice, user1=alice, rules=SMALL)
    assert caught.value.code == "forbidden"
