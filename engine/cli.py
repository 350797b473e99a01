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
import time
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


# ---------------------------------------------------------------------- duel, simulate


def _parse_option(text: str) -> tuple[str, str, object]:
    name, sep, rest = text.partition(".")
    key, sep2, raw = rest.partition("=")
    if not sep or not sep2 or name not in names() or not key:
        raise argparse.ArgumentTypeError(
            f"expected BOT.OPTION=VALUE with a bot of {', '.join(names())}, e.g. expert.samples=4"
        )
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise argparse.ArgumentTypeError(f"bad value for {name}.{key}: {raw!r}") from None
    return name, key, value


def _series_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    parser.add_argument("--games", type=int, default=games, help="games to play")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument(
        "--rule", type=_parse_rule, action="append", default=[], metavar="KNOB=VALUE"
    )
    parser.add_argument(
        "--payoff-size", type=int, default=None, help="short for --rule payoff_size=N"
    )
    parser.add_argument(
        "--bot-option",
        type=_parse_option,
        action="append",
        default=[],
        metavar="BOT.OPTION=VALUE",
        help="a bot's own knob, e.g. expert.samples=4",
    )


def _series_setup(
    args: argparse.Namespace, pair: Sequence[str], out: TextIO
) -> tuple[dict[str, Any], tuple[dict[str, Any], dict[str, Any]]] | None:
    rules = dict(args.rule)
    if args.payoff_size is not None:
        rules["payoff_size"] = args.payoff_size
    try:
        Rules(**rules)
        for name in pair:
            if name not in names():
                raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(names())}")
    except ValueError as err:
        out.write(f"error: {err}\n")
        return None
    if args.games < 1 or args.jobs < 1 or args.seed < 0:
        out.write("error: --games and --jobs must be positive, --seed not negative\n")
        return None
    options: list[dict[str, Any]] = [{}, {}]
    for name, key, value in args.bot_option:
        for k in (0, 1):
            if pair[k] == name:
                options[k][key] = value
    try:
        for k in (0, 1):
            bot(pair[k], 0, **options[k])
    except ValueError as err:
        out.write(f"error: {err}\n")
        return None
    return rules, (options[0], options[1])


def _rules_note(rules: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.items())) or "house rules"


def add_duel(sub: Subparsers) -> None:
    parser = sub.add_parser("duel", help="two bots play seeded games with seats swapped")
    parser.add_argument("first", choices=names(), help="a bot")
    parser.add_argument("second", choices=names(), help="its opponent")
    _series_arguments(parser, 100)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run_duel)


def run_duel(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    from engine.arena import progress, series, wilson

    pair = (args.first, args.second)
    setup = _series_setup(args, pair, out)
    if setup is None:
        return 2
    rules, options = setup
    started = time.perf_counter()

    def show(done: int, _: object) -> None:
        if not args.quiet:
            progress(sys.stderr, done, args.games, started)

    t = series(
        pair,
        args.games,
        seed=args.seed,
        jobs=args.jobs,
        rules=rules,
        options=options,
        on_result=show,
    )
    a, b = pair
    label_a, label_b = (a, b) if a != b else (f"{a} (first)", f"{b} (second)")
    width = max(len(label_a), len(label_b), 6)
    out.write(
        f"{label_a} vs {label_b}: {t.games} games ({_rules_note(rules)}), deal seeds "
        f"{args.seed}..{args.seed + (t.games - 1) // 2}, seats swapped on each deal\n"
    )
    out.write(f"{'':<{width}}  {'wins':>6}  {'losses':>6}  {'ties':>6}  {'points':>7}\n")
    out.write(f"{label_a:<{width}}  {t.wins:>6}  {t.losses:>6}  {t.ties:>6}  {t.points[0]:>7}\n")
    out.write(f"{label_b:<{width}}  {t.losses:>6}  {t.wins:>6}  {t.ties:>6}  {t.points[1]:>7}\n")
    if t.decided:
        lo, hi = wilson(t.wins, t.decided)
        out.write(
            f"{label_a} win rate of decided games: {100 * t.wins / t.decided:.1f}% "
            f"({t.wins}/{t.decided}; 95% Wilson interval {100 * lo:.1f}%-{100 * hi:.1f}%)\n"
        )
    else:
        out.write("no decided games\n")
    out.write(f"wall time {time.perf_counter() - started:.1f}s with {args.jobs} job(s)\n")
    return 0


def add_simulate(sub: Subparsers) -> None:
    parser = sub.add_parser("simulate", help="bots play many games; rates and averages")
    parser.add_argument(
        "--bots", default="greedy,expert", help="two bot names, comma-separated (greedy,expert)"
    )
    _series_arguments(parser, 20)
    parser.set_defaults(run=run_simulate)


def run_simulate(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    from engine.arena import progress, series, wilson

    pair = tuple(n.strip() for n in args.bots.split(","))
    if len(pair) != 2:
        out.write("error: --bots takes two bot names, e.g. greedy,expert\n")
        return 2
    setup = _series_setup(args, pair, out)
    if setup is None:
        return 2
    rules, options = setup
    started = time.perf_counter()

    def show(done: int, _: object) -> None:
        progress(sys.stderr, done, args.games, started)

    t = series(
        (pair[0], pair[1]),
        args.games,
        seed=args.seed,
        jobs=args.jobs,
        rules=rules,
        options=options,
        on_result=show,
    )
    n = t.games
    out.write(f"{n} games, {pair[0]} vs {pair[1]} ({_rules_note(rules)}), seats swapped\n")
    for k, name in enumerate(pair):
        won = t.wins if k == 0 else t.losses
        label = name if pair[0] != pair[1] else f"{name} ({'first' if k == 0 else 'second'})"
        out.write(
            f"  {label}: wins {won} ({100 * won / n:.1f}%), points {t.points[k]} "
            f"({t.points[k] / n:.2f} per game)\n"
        )
    out.write(f"  ties: {t.ties} ({100 * t.ties / n:.1f}%)\n")
    if t.decided:
        lo, hi = wilson(t.wins, t.decided)
        out.write(
            f"  {pair[0]} wins {100 * t.wins / t.decided:.1f}% of decided games "
            f"(95% Wilson interval {100 * lo:.1f}%-{100 * hi:.1f}%)\n"
        )
    out.write(
        f"  average per game: {t.plies / n:.1f} plies, {t.turns / n:.1f} turns, "
        f"{(t.points[0] + t.points[1]) / n:.2f} points; {t.seconds / n:.2f}s of play\n"
    )
    return 0


# ---------------------------------------------------------------------- main


def _add_bench(sub: Subparsers) -> None:
    from engine.bench import add_bench

    add_bench(sub)


#: Subcommand builders; each adds one parser with ``run`` set.
COMMANDS: list[Callable[[Subparsers], None]] = [add_play, add_duel, add_simulate, _add_bench]


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
