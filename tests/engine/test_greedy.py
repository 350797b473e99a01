"""The greedy bot: pay-off first, Kings kept, discards that bury nothing."""

from engine import Game, bot
from engine.bots.greedy import discard_score
from engine.testing import position


def play_turn(name: str, game: Game, **options: object) -> list[str]:
    """Let the bot play until its turn ends (or the game does); the moves it made."""
    player = game.to_move
    me = bot(name, 1, **options)
    moves = []
    while not game.is_over and game.to_move == player:
        move = me.choose(game, player)
        assert move in game.legal_moves()
        moves.append(str(move))
        game.play(move)
    return moves


def test_greedy_plays_its_payoff_card_when_it_can() -> None:
    game = position(
        hands=[["3S", "9D", "KC"], ["2C"]],
        payoffs=[["5C", "4D"], ["9H"]],
        center=[["AH", "2S", "3D"]],
    )
    assert str(bot("greedy").choose(game, 0)) == "p-c1"


def test_greedy_builds_toward_its_payoff_through_several_plays() -> None:
    game = position(
        hands=[["3S", "9D", "KC", "JH"], ["2C"]],
        payoffs=[["5C", "5D"], ["9H"]],
        sides=[[["4H"]], None],
        center=[["AH", "2S"]],
    )
    moves = play_turn("greedy", game)
    assert moves[:3] == ["h:3S-c1", "s1-c1", "p-c1"]
    assert "h:KC-c1" not in moves  # no King needed, none spent


def test_greedy_spends_a_king_only_to_unblock() -> None:
    game = position(
        hands=[["KS", "9D", "8C"], ["2C"]],
        payoffs=[["5C", "4D"], ["9H"]],
        center=[["AH", "2S"]],
    )
    assert str(bot("greedy").choose(game, 0)) == "h:KS-c1"  # the King stands for 3: 4D fits
    game = position(hands=[["KS", "9D"], ["2C"]], payoffs=[["7C"], ["9H"]])
    move = bot("greedy").choose(game, 0)
    assert move.target == "side" and move.card == "9D"  # keeps the King, no center play helps


def test_greedy_discards_without_burying() -> None:
    game = position(
        hands=[["8D", "QC"], ["2C"]],
        payoffs=[["7C"], ["9H"]],
        sides=[[["3S"], ["9H"], ["5D"], ["JD"]], None],
        center=[["AH", "2S", "3D", "4C", "5S"]],
    )
    # 8D can't be played (the center needs 6); it goes on the 9 (a descending run)
    assert str(bot("greedy").choose(game, 0)) == "h:8D-s2"
    assert discard_score(8, ["9H"]) > discard_score(8, ["3S"])
    assert discard_score(13, []) < discard_score(2, ["9H", "AS"])


def test_greedy_beats_random_in_a_few_short_games() -> None:
    wins = 0
    for seed in range(6):
        game = Game.new(seed=seed)
        players = [bot("greedy", seed), bot("random", seed)]
        if seed % 2:
            players.reverse()
        while not game.is_over:
            p = game.to_move
            game.play(players[p].choose(game, p))
        assert game.outcome is not None
        winner = game.outcome.winner
        if winner is not None and (winner == 0) == (seed % 2 == 0):
            wins += 1
    assert wins >= 3
