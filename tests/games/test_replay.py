"""Replays: one frame per row of the log after the deal, both hands shown, the stock only as a
count; the page is only for games that are over."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

import engine
from games import services
from games.models import Game
from games.selectors import game_replay, game_replay_frames
from games.services import game_play_move, game_resign, game_undo
from tests.games.helpers import SMALL, bot_turn_play, center_line, current_game

pytestmark = pytest.mark.django_db

BOARD_KEYS = {"to_move", "players", "center", "stock_size", "outcome", "ply"}
PLAYER_KEYS = {"hand", "hand_size", "payoff_top", "payoff_size", "sides"}


def _played_game(alice, seeds) -> Game:
    """Alice plays two center cards, takes them back, plays one and ends her turn; the bot
    answers; then she resigns the game. Moves, an undo and both seats in the log."""
    seed, line = center_line([False, False])
    seeds(seed, 4242)
    game = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    for version, move in enumerate(line):
        game_play_move(game_id=game.pk, user=alice, move=move, version=version)
    game_undo(game_id=game.pk, user=alice, version=2)
    game_play_move(game_id=game.pk, user=alice, move=line[0], version=3)
    game.refresh_from_db()
    side = next(m for m in engine.Game.from_dict(game.state).view(0)["legal_moves"] if "-s" in m)
    game_play_move(game_id=game.pk, user=alice, move=side, version=4)
    bot_turn_play(game)  # nothing commits in this test: run the bot's turn by hand
    game.refresh_from_db()
    game_resign(game_id=game.pk, user=alice, scope="game")
    game.refresh_from_db()
    return game


def test_frames_step_through_every_row_from_the_deal_to_the_end(alice, seeds) -> None:
    game = _played_game(alice, seeds)
    rows = list(game.moves.order_by("ply"))
    frames = game_replay_frames(game)

    assert len(frames) == len(rows) + 1
    deal = engine.Game.new(seed=game.seed, rules=engine.Rules.from_dict(game.match.rules))
    assert frames[0]["kind"] == "deal" and frames[0]["board"]["ply"] == 0
    assert frames[0]["board"]["players"][0]["hand"] == deal.view(0)["players"][0]["hand"]
    final = game_replay(game)
    assert final.to_dict() == game.state
    for seat in (0, 1):
        assert frames[-1]["board"]["players"][seat] == final.view(seat)["players"][seat]
    assert frames[-1]["board"]["center"] == final.view(None)["center"]
    for index, (frame, row) in enumerate(zip(frames[1:], rows, strict=True), start=1):
        assert frame["index"] == index
        assert (frame["ply"], frame["seat"], frame["kind"], frame["move"]) == (
            row.ply, row.seat, row.kind, row.text
        )  # fmt: skip
        assert set(frame["board"]) == BOARD_KEYS
        for player in frame["board"]["players"]:
            assert set(player) == PLAYER_KEYS
            assert isinstance(player["hand"], list) and len(player["hand"]) == player["hand_size"]
    undo = next(f for f in frames if f["kind"] == "undo")
    assert undo["undoes"] == 2 and undo["board"] == frames[undo["index"] - 3]["board"]
    text = json.dumps(frames)
    assert '"stock"' not in text and '"payoff"' not in text and '"seed"' not in text
    assert '"rng"' not in text


def test_the_replay_page_renders_the_frames_of_a_game_that_is_over(client, alice, seeds) -> None:
    game = _played_game(alice, seeds)
    response = client.get(reverse("games:replay", args=[game.pk]))
    assert response.status_code == 200
    assert response.context["frames"] == game_replay_frames(game)
    html = response.content.decode()
    assert 'id="replay-frames"' in html and "js/replay.js" in html
    assert response.context["share_url"].endswith(f"/play/games/{game.pk}/replay/")
    for label in ("To the start", "Back one move", "Forward one move", "To the end", "Copy link"):
        assert label in html


def test_a_game_in_play_has_no_replay(client, alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    response = client.get(reverse("games:replay", args=[game.pk]), follow=True)
    assert response.redirect_chain == [(reverse("games:table", args=[game.pk]), 302)]
    assert "still being played" in response.content.decode()
    assert "replay-frames" not in response.content.decode()
    assert client.get(reverse("games:replay", args=[987654])).status_code == 404
