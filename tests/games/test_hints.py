"""Hints (games/hints.py): the expert's move from the player's own view, asked through the game
socket and the REST API, computed by a job, counted in the game's record — and refused by the
server in ranked play, against a person, to spectators, out of turn and at a stale version."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

import engine
from core.errors import GameError
from engine import coach
from engine.testing import missed_win
from games import hints, services
from games.models import Game, Hint
from games.selectors import game_state_frame
from tests import sockets
from tests.games.helpers import SMALL, a_center_move, current_game, seed_where
from tests.sockets import QUIET, frames, send

OPTIONS = {"samples": 10, "budget": 6000}


def expert_move(game: Game, seat: int) -> str:
    """What the engine's expert chooses for that seat, with the site's seed and budget: the
    test asks the engine itself, the way a player could."""
    position = engine.Game.from_dict(game.state)
    return engine.bot("expert", hints.HINT_SEED, **OPTIONS).choose(position, seat).text


@pytest.fixture
def ask(django_capture_on_commit_callbacks):
    """``ask(game, user, version)``: ask for a hint and let its job run, as on commit."""

    def run(game: Game, user: Any, version: int) -> Hint:
        with django_capture_on_commit_callbacks(execute=True):
            hint = hints.hint_ask(game_id=game.pk, user=user, version=version)
        hint.refresh_from_db()
        return hint

    return run


@pytest.fixture
def planted():
    """``planted(game, state)``: give ``game`` a position built with the engine. Such a game
    does not replay from its seed, so it is deleted before the suite's replay check."""
    games: list[Game] = []

    def plant(game: Game, state: dict[str, Any]) -> Game:
        game.state = state
        game.save(update_fields=["state"])
        games.append(game)
        return game

    yield plant
    Game.objects.filter(pk__in=[g.pk for g in games]).delete()


def _error(**kwargs: Any) -> GameError:
    with pytest.raises(GameError) as caught:
        hints.hint_ask(**kwargs)
    return caught.value


@pytest.mark.django_db
def test_a_hint_is_the_experts_choice_for_the_players_view(alice, human_starts, ask) -> None:
    game = current_game(human_starts(alice))
    assert game_state_frame(game, 0)["can_hint"] is True
    hint = ask(game, alice, 0)
    assert hint.move == expert_move(game, 0)
    assert hint.line[0] == hint.move
    frame = hints.hint_frame(hint)
    assert frame["type"] == "hint" and frame["version"] == 0 and frame["move"] == hint.move
    assert hints.hints_used(game) == [1, 0]
    # asking again at the same version is the same hint, counted once
    assert ask(game, alice, 0).pk == hint.pk
    assert hints.hints_used(game) == [1, 0]


@pytest.mark.django_db
def test_the_hint_for_a_winning_position_is_the_winning_play(alice, seeds, ask, planted) -> None:
    """A position built with the engine, stored as the game's state: the pay-off top wins."""
    seeds(seed_where(0), 1)
    game = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    planted(game, missed_win().to_dict())
    hint = ask(game, alice, game.version)
    assert hint.move == "p-c1"
    assert hint.reason == {"key": "wins", "params": {}}
    assert hints.hint_frame(hint)["text"] == "Plays your last pay-off card: you win the game."


@pytest.mark.django_db
def test_the_hint_reads_only_the_players_view(alice, seeds, ask, planted) -> None:
    """Two stored games that differ only in what alice cannot see give the same hint."""
    seeds(seed_where(0), 1, seed_where(0), 2)
    first = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    view = engine.Game.from_dict(first.state).view(0)
    second = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    planted(second, engine.Game.from_view(view, seed=99).to_dict())
    assert second.state != first.state
    assert engine.Game.from_dict(second.state).view(0) == view
    a, b = ask(first, alice, 0), ask(second, alice, 0)
    assert (a.move, a.line, a.reason) == (b.move, b.line, b.reason)


@pytest.mark.django_db
def test_hints_are_refused_in_ranked_play(alice, seeds) -> None:
    from leagues.models import League, Membership

    league = League.objects.create(
        name="Bots", slug="bots", rules=SMALL.to_dict(), bots_ranked=True
    )
    Membership.objects.create(league=league, user=alice)
    seeds(seed_where(0), 1)
    match = services.match_create(user=alice, bot="greedy", rules=SMALL, ranked=True, league=league)
    game = current_game(match)
    assert game_state_frame(game, 0)["can_hint"] is False
    error = _error(game_id=game.pk, user=alice, version=0)
    assert error.code == "forbidden" and "never in ranked play" in error.message
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_hints_are_refused_against_a_person_and_to_spectators(alice, bob, seeds) -> None:
    seeds(seed_where(0), 1)
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    assert game_state_frame(game, 0)["can_hint"] is False
    assert _error(game_id=game.pk, user=alice, version=0).code == "forbidden"
    seeds(seed_where(0), 1)
    vs_bot = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    assert _error(game_id=vs_bot.pk, user=bob, version=0).code == "forbidden"
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_hints_are_refused_out_of_turn_at_a_stale_version_and_after_the_game(
    alice, human_starts, bot_starts
) -> None:
    game = current_game(human_starts(alice))
    services.game_play_move(game_id=game.pk, user=alice, move=a_center_move(game), version=0)
    stale = _error(game_id=game.pk, user=alice, version=0)
    assert stale.code == "stale_version" and stale.params == {"version": 1}
    waiting = current_game(bot_starts(alice))
    waiting.refresh_from_db()
    if waiting.to_move == 1:
        assert _error(game_id=waiting.pk, user=alice, version=waiting.version).code == (
            "not_your_turn"
        )
    services.game_resign(game_id=game.pk, user=alice, scope="match")
    game.refresh_from_db()
    assert _error(game_id=game.pk, user=alice, version=game.version).code == "game_over"
    assert _error(game_id=10**9, user=alice, version=0).code == "not_found"


@pytest.mark.django_db
def test_a_hint_whose_game_moved_on_is_not_computed(alice, human_starts, settings) -> None:
    settings.JOBS_INLINE = False  # the job waits, as on a site with busy workers
    game = current_game(human_starts(alice))
    hint = hints.hint_ask(game_id=game.pk, user=alice, version=0)
    services.game_play_move(game_id=game.pk, user=alice, move=a_center_move(game), version=0)
    assert hints.hint_compute(hint.pk) is False
    hint.refresh_from_db()
    assert hint.move == ""


# --- the socket ------------------------------------------------------------------------------


async def drain(communicator: Any) -> None:
    """Read whatever the socket has to say until it is quiet (spectator counts)."""
    while not await communicator.receive_nothing(timeout=QUIET):
        await communicator.receive_json_from()


@pytest.fixture
def cookies(alice, bob) -> tuple[str, str]:
    from django.test import Client

    return sockets.session_cookie(alice, Client()), sockets.session_cookie(bob, Client())


@pytest.fixture
def table(alice, human_starts) -> Game:
    return current_game(human_starts(alice))


@pytest.fixture
def against_bob(alice, bob, seeds) -> Game:
    seeds(seed_where(0), 1)
    return current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_the_hint_to_its_player_only(table, cookies) -> None:
    game = table
    player = await sockets.open_socket(f"/ws/games/{game.pk}/", cookies[0])
    watcher = await sockets.open_socket(f"/ws/games/{game.pk}/", cookies[1])
    try:
        await player.receive_json_from()
        await watcher.receive_json_from()
        await drain(player)  # the watcher's arrival
        await drain(watcher)
        await send(player, {"type": "hint", "version": 0})
        [frame] = [f for f in await frames(player) if f["type"] == "hint"]
        assert frame["move"] == await sync_to_async(expert_move)(game, 0)
        assert frame["version"] == 0 and frame["game"] == game.pk
        assert "text" in frame
        assert await watcher.receive_nothing(timeout=QUIET)  # the hint is the player's alone
        await send(watcher, {"type": "hint", "version": 0})
        assert (await watcher.receive_json_from())["code"] == "forbidden"
        await send(player, {"type": "hint", "version": "0"})
        assert (await player.receive_json_from())["code"] == "bad_message"
    finally:
        await player.disconnect()
        await watcher.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_a_hint_against_a_person(against_bob, cookies) -> None:
    player = await sockets.open_socket(f"/ws/games/{against_bob.pk}/", cookies[0])
    try:
        await player.receive_json_from()
        await send(player, {"type": "hint", "version": 0})
        error = await player.receive_json_from()
        assert error["type"] == "error" and error["code"] == "forbidden"
        assert await sync_to_async(Hint.objects.count)() == 0
    finally:
        await player.disconnect()


def test_every_reason_the_expert_gives_has_a_sentence() -> None:
    """Every key engine/coach.py can give (read from its source) reads as a sentence."""
    from games.reasons import REASONS

    source = Path(coach.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'Reason\(\s*"([a-z_]+)"', source))
    assert len(keys) >= 10 and keys <= set(REASONS)
