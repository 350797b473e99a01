"""Whole matches against each bot level, driven through the services (small knobs).

The human seat is played by an engine bot choosing for the user; the bot seat by the inline
runner, after each commit. The autouse replay check (tests/conftest.py) then replays every
game of the match from its seed and Move rows.
"""

from __future__ import annotations

import itertools

import pytest

import engine
from games.models import Game, Match
from games.services import game_play_move, match_create
from tests.games.helpers import SMALL

MAX_HUMAN_MOVES = 5000


def _play_out(match: Match, user, policy: str) -> None:
    chooser = engine.bot(policy, seed=7)
    for n in itertools.count():
        assert n < MAX_HUMAN_MOVES, "the match did not end"
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        game = match.games.order_by("-number").first()
        # The bot's turns ran inline after each commit: the human is always to move here.
        assert game.is_active and game.to_move == 0
        choice = chooser.choose(engine.Game.from_dict(game.state), 0)
        game_play_move(
            game_id=game.pk, user=user, move=str(choice), version=game.version, move_id=f"h{n}"
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("level", "policy"), [("random", "greedy"), ("greedy", "random"), ("expert", "greedy")]
)
def test_a_whole_match_against_each_bot_level(alice, level: str, policy: str) -> None:
    match = match_create(user=alice, bot=level, rules=SMALL)
    _play_out(match, alice, policy)

    match.refresh_from_db()
    games = list(match.games.order_by("number"))
    assert match.status == "finished" and match.end_reason == "target_reached"
    assert match.winner in (0, 1) and match.scores[match.winner] >= match.target == 10
    assert match.scores[1 - match.winner] < match.target
    assert match.finished_at is not None
    # Points add up: each game's winner scored its points; ties scored nothing.
    for seat in (0, 1):
        assert match.scores[seat] == sum(g.points for g in games if g.winner == seat)
    assert all(g.status == "finished" for g in games)
    for g in games:
        if g.reason == "stock_depleted":
            assert (g.winner, g.points) == (None, 0)
        else:
            assert g.reason == "payoff_emptied" and g.points > 0
            assert g.points == len(g.state["players"][1 - g.winner]["payoff"])
    # Game 1's starter follows RULES.md (the engine's choice); later games alternate.
    first = engine.Game.new(seed=games[0].seed, rules=engine.Rules.from_dict(match.rules))
    assert games[0].first_player == first.to_move
    for before, after in itertools.pairwise(games):
        assert after.first_player == 1 - before.first_player
    # Every change bumped the version by one; each game's moves replay (autouse check).
    for g in games:
        assert g.version == g.moves.count()
        assert list(g.moves.order_by("ply").values_list("version", flat=True)) == list(
            range(1, g.version + 1)
        )
    assert Game.objects.filter(match=match).count() == len(games) >= 2
