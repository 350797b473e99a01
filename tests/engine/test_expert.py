"""The expert bot: finds wins through several plays, keeps the opponent off its pay-off."""

from engine import Game, Rules, bot
from engine.testing import position

SMALL = {"samples": 4, "nodes": 400, "sub_nodes": 60, "budget": 1500}


def play_turn(name: str, game: Game, **options: object) -> list[str]:
    player = game.to_move
    me = bot(name, 1, **options)
    moves = []
    while not game.is_over and game.to_move == player:
        move = me.choose(game, player)
        assert move in game.legal_moves()
        moves.append(str(move))
        game.play(move)
    return moves


def test_expert_finds_a_winning_sequence_through_several_plays() -> None:
    # the last pay-off card is a 6; the center stands at 2; 3 and 5 in hand, 4 on a side stack
    game = position(
        hands=[["5H", "9D", "3C", "JS", "KD"], ["2C"]],
        payoffs=[["6C"], ["9H", "8H", "7S"]],
        sides=[[["4S"], ["QD"]], None],
        center=[["AH", "2S"], ["AS"]],
        stock=["TC"] * 2,
    )
    moves = play_turn("expert", game, **SMALL)
    assert game.outcome is not None and game.outcome.winner == 0
    assert moves[-1] == "p-c1" and len(moves) == 4
    assert "h:KD-c1" not in moves  # no King needed


def test_expert_plays_a_king_when_only_that_wins() -> None:
    game = position(
        hands=[["KH", "9D", "JS"], ["2C"]],
        payoffs=[["4C"], ["9H", "8H"]],
        center=[["AH", "2S"]],
        stock=["TC"] * 2,
    )
    assert play_turn("expert", game, **SMALL) == ["h:KH-c1", "p-c1"]
    assert game.outcome is not None and game.outcome.winner == 0


def threat_position() -> Game:
    # the opponent's pay-off top is a 5; c1 stands at 3. Playing our 4 would hand them
    # the 5. Nothing of ours reaches our pay-off 9 this turn.
    return position(
        hands=[["4S", "JD", "QC", "8H", "7S"], ["2C", "TD", "TH", "JC", "QS"]],
        payoffs=[["2D", "9C"], ["3H", "6H", "5D"]],
        center=[["AH", "2S", "3D"]],
        stock=["TC", "TS", "9S", "9H", "JH", "QH"],
    )


def test_expert_does_not_hand_the_opponent_a_payoff_play() -> None:
    game = threat_position()
    play_turn("expert", game, **SMALL)
    assert game.to_move == 1 and not game.is_over
    assert 4 not in [len(c) for c in game.center]  # the 5 of the opponent does not fit
    # the greedy bot, which plays whatever it can, does hand it over: the test can fail
    game = threat_position()
    play_turn("greedy", game)
    assert 4 in [len(c) for c in game.center]


def test_expert_reuses_its_plan_only_while_the_view_is_as_predicted() -> None:
    game = position(
        hands=[["5H", "9D", "3C", "JS", "KD"], ["2C"]],
        payoffs=[["8C", "6C"], ["9H", "8H", "7S"]],
        sides=[[["4S"], ["QD"]], None],
        center=[["AH", "2S"], ["AS"]],
        stock=["TC"] * 2,
    )
    expert = bot("expert", 3, **SMALL)
    first = expert.choose(game, 0)
    assert str(first) == "h:3C-c1"
    plan = dict(expert._plan)  # type: ignore[attr-defined]
    assert plan  # the rest of the plan is kept, keyed by the views it expects
    game.play(first)
    second = expert.choose(game, 0)  # the view is the predicted one: the plan's next move
    assert second == plan[next(iter(plan))] and second in game.legal_moves()


def test_expert_plays_whole_short_games_legally_and_deterministically() -> None:
    def run(seed: int) -> list[str]:
        game = Game.new(seed=seed, rules=Rules(payoff_size=4))
        players = [bot("expert", 1, **SMALL), bot("greedy", 2)]
        moves = []
        while not game.is_over:
            move = players[game.to_move].choose(game, game.to_move)
            assert move in game.legal_moves()
            moves.append(str(move))
            game.play(move)
        return moves

    assert run(11) == run(11)
