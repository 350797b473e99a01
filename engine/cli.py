"""The command line: ``python -m engine <command>``.

Commands are argparse subcommands. To add one, write a function that takes
the subparsers object, adds a parser and sets ``run`` to a
``(args, stdin, stdout) -> int`` function, then append it to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from engine.bots import bot, names
from engine.cards import rank_letter
from engine.game import Game
from engine.moves import IllegalMove
from engine.rules import KNOBS, Rules

Subparsers = Any  # argparse._SubParsersAction[argparse.ArgumentParser]
Runner = Callable[[argparse.Namespace, TextIO, TextIO], int]


# ---------------------------------------------------------------------- drawing


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def render(view: dict[str, Any], labels: Sequence[str], scores: Sequence[int]) -> str:
    """The table as text, from a view: what its viewer may see and nothing more."""
    seat = view["seat"]
    lines = [
        "-" * 64,
        f"Move {view['ply']}   stock: {view['stock_size']} cards   "
        f"score: {labels[0]} {scores[0]}, {labels[1]} {scores[1]}",
    ]
    order = [1 - seat, seat] if seat is not None else [1, 0]
    for p in order:
        info = view["players"][p]
        top = info["payoff_top"] or "-"
        lines.append(
            f"{labels[p]}: pay-off {top} ({info['payoff_size']} cards)   "
            f"hand: {info['hand_size']} cards"
        )
        lines.append(
            "   side stacks (top last):  "
            + "   ".join(f"s{j + 1}: {_cards(s)}" for j, s in enumerate(info["sides"]))
        )
        if p == order[0]:
            lines.append("Center stacks:")
            for i, stack in enumerate(view["center"]):
                n = stack["stands_for"]
                at = f"stands at {rank_letter(n)}" if n else "empty"
                shown = stack["cards"][-6:]
                more = "... " if len(stack["cards"]) > 6 else ""
                lines.append(
                    f"   c{i + 1}: {at}, takes {rank_letter(n + 1)}   {more}{_cards(shown)}"
                )
    if seat is not None:
        lines.append(f"Your hand: {_cards(view['players'][seat]['hand'])}")
    return "\n".join(lines)


def _numbered(moves: Sequence[str]) -> str:
    cells = [f"{i + 1:>3}. {m:<9}" for i, m in enumerate(moves)]
    return "\n".join("".join(cells[k : k + 6]).rstrip() for k in range(0, len(cells), 6))


# ---------------------------------------------------------------------- play


def _parse_rule(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep or name not in KNOBS:
        raise argparse.ArgumentTypeError(f"expected KNOB=VALUE with a knob of {', '.join(KNOBS)}")
    value: object
    try:
        value = json.loads(raw.lower())
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError(f"bad value for {name}: {raw!r}") from None
    return name, value


def add_play(sub: Subparsers) -> None:
    parser = sub.add_parser("play", help="play a game in the terminal against a bot")
    parser.add_argument("--bot", default="random", choices=names(), help="the opponent")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (random if absent)")
    parser.add_argument("--bot-seed", type=int, default=0, help="the bot's seed")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat")
    parser.add_argument(
        "--rule", type=_parse_rule, action="append", default=[], metavar="KNOB=VALUE"
    )
    parser.add_argument(
        "--match", action="store_true", help="play games until one side reaches match_target"
    )
    parser.set_defaults(run=run_play)


def run_play(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    try:
        rules = Rules(**dict(args.rule))
    except ValueError as err:
        out.write(f"error: {err}\n")
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    if seed < 0:
        out.write("error: the seed must be a non-negative integer\n")
        return 2
    human: int = args.seat
    opponent = bot(args.bot, args.bot_seed)
    labels = ["", ""]
    labels[human], labels[1 - human] = "You", f"Bot ({args.bot})"
    scores = [0, 0]
    first: int | None = None
    game_number = 0
    while True:
        game_seed = seed + game_number
        game = Game.new(seed=game_seed, rules=rules, first_player=first)
        starter = game.to_move
        out.write(f"Game {game_number + 1}, seed {game_seed}. ")
        out.write("You start.\n" if game.to_move == human else "The bot starts.\n")
        if not _play_one(game, human, opponent, labels, scores, stdin, out):
            out.write("Bye.\n")
            return 0
        outcome = game.outcome
        assert outcome is not None
        if outcome.winner is not None:
            scores[outcome.winner] += outcome.points
        out.write(render(game.view(human), labels, scores) + "\n")
        if outcome.winner is None:
            out.write("The stock ran out: the game is a tie and nobody scores.\n")
        else:
            who = "You win" if outcome.winner == human else "The bot wins"
            out.write(f"{who} the game, scoring {outcome.points} points.\n")
        if not args.match:
            return 0
        champion = rules.match_winner(scores)
        if champion is not None:
            out.write("You win the match!\n" if champion == human else "The bot wins the match.\n")
            return 0
        first = 1 - starter  # the player who did not start this game starts the next
        game_number += 1


def _play_one(
    game: Game,
    human: int,
    opponent: Any,
    labels: Sequence[str],
    scores: Sequence[int],
    stdin: TextIO,
    out: TextIO,
) -> bool:
    """Play ``game`` to its end; False if the user quit."""
    while not game.is_over:
        if game.to_move != human:
            move = opponent.choose(game, game.to_move)
            out.write(f"Bot plays {move}\n")
            game.play(move)
            continue
        view = game.view(human)
        moves: list[str] = view["legal_moves"]
        out.write(render(view, labels, scores) + "\n")
        out.write("Your moves:\n" + _numbered(moves) + "\n")
        while True:
            out.write("Your move (number or text, q to quit): ")
            out.flush()
            line = stdin.readline()
            if not line:
                out.write("\n")
                return False
            if not stdin.isatty():
                out.write(line if line.endswith("\n") else line + "\n")  # a transcript
            text = line.strip()
            if text in ("q", "quit", "exit"):
                return False
            if not text:
                continue
            if text.isdigit():
                index = int(text) - 1
                if not 0 <= index < len(moves):
                    out.write(f"There is no move {text}: pick 1 to {len(moves)}.\n")
                    continue
                text = moves[index]
            try:
                game.play(text)
            except IllegalMove as err:
                out.write(f"Not allowed: {err}\n")
                continue
            out.write(f"You play {text}\n")
            break
    return True


# ---------------------------------------------------------------------- main

#: Subcommand builders; each adds one parser with ``run`` set.
COMMANDS: list[Callable[[Subparsers], None]] = [add_play]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Spite & Malice")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    run: Runner = args.run
    try:
        return run(args, stdin or sys.stdin, stdout or sys.stdout)
    except KeyboardInterrupt:
        (stdout or sys.stdout).write("\nBye.\n")
        return 130
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
