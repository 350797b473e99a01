"""The command line: python -m engine play."""

import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.bots import names
from engine.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], text: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(text), stdout=out)
    return status, out.getvalue()


def test_quit_with_q() -> None:
    status, out = run(["play", "--seed", "3"], "q\n")
    assert status == 0
    assert "Game 1, seed 3" in out
    assert "Your hand:" in out and "Center stacks:" in out and "stock:" in out
    assert out.rstrip().endswith("Bye.")


def test_quit_on_end_of_input() -> None:
    status, out = run(["play", "--seed", "3"], "")
    assert status == 0 and out.rstrip().endswith("Bye.")


def test_the_table_shows_what_the_player_may_see() -> None:
    _, out = run(["play", "--seed", "3", "--seat", "0"], "q\n")
    assert "pay-off" in out and "(20 cards)" in out
    assert re.search(r"c1: empty, takes A", out)
    assert "score: You 0, Bot (random) 0" in out
    assert re.search(r"^\s+1\. h:\w\w-", out, re.M)


def test_moves_by_number_and_by_text_and_bad_input_explained() -> None:
    _, out = run(["play", "--seed", "3"], "1\nh:9C-c1\n99\nfoo\nh:9C-s2\nq\n")
    assert "You play h:4H-s1" in out
    assert (
        "Not allowed: 9C cannot go on center stack 1: it is empty and needs an Ace (or a King)"
        in out
    )
    assert "There is no move 99: pick 1 to 20." in out
    assert "Not allowed: 'foo' is not a move" in out
    assert "You play h:9C-s2" in out
    assert "Bot plays" in out


def test_a_whole_game_to_its_end() -> None:
    status, out = run(["play", "--seed", "5", "--bot", "random"], "1\n" * 3000)
    assert status == 0
    assert re.search(r"(You win the game|The bot wins the game|the game is a tie)", out)


def test_a_match_alternates_who_starts() -> None:
    status, out = run(
        ["play", "--seed", "1", "--match", "--rule", "match_target=1000"], "1\n" * 1500
    )
    assert status == 0
    starts = re.findall(r"^Game \d+, seed \d+\. (You start|The bot starts)", out, re.M)
    assert len(starts) >= 3
    assert all(a != b for a, b in itertools.pairwise(starts))


def test_rules_can_be_set() -> None:
    _, out = run(["play", "--seed", "3", "--rule", "side_stacks=2"], "q\n")
    assert "s2: -" in out and "s3:" not in out
    status, out = run(["play", "--rule", "hand_size=0"], "q\n")
    assert status == 2 and "error: rule 'hand_size' must be at least 1" in out


def test_bot_accepts_exactly_the_registered_names(capsys: pytest.CaptureFixture[str]) -> None:
    play = build_parser()._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    bot_action = next(a for a in play._actions if a.dest == "bot")
    assert list(bot_action.choices) == names()
    with pytest.raises(SystemExit) as info:
        main(["play", "--bot", "nope"], stdin=io.StringIO(""), stdout=io.StringIO())
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_python_dash_m_engine_play() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "play", "--seed", "3"],
        input="2\nq\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "You play h:4H-s2" in result.stdout
    assert result.stdout.rstrip().endswith("Bye.")
