"""Where bots think (games/bot_runner/thinking.py): the same
move in a worker process as in a thread,
the workers at a lowered priority, a broken pool replaced, and no process in thread mode.

The rest of the suite thinks in the calling thread (tests/conftest.py); only the tests here
that use the ``pool`` fixture start worker processes, one shared pool for the module.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from django.conf import settings as django_settings

import engine
from engine.bots import names
from games.bot_runner import thinking as bot_thinking
from games.bot_runner import turns as bots
from tests.live_server import run_async

LEVELS = names()


def positions() -> list[tuple[dict[str, Any], int]]:
    """A few stored states (a deal, and later in a game) with the seat to move."""
    found = []
    for seed in (3, 11):
        game = engine.Game.new(seed=seed)
        mover = engine.bot("random", seed=seed)
        for ply in range(40):
            if ply in (0, 39):
                found.append((game.to_dict(), game.to_move))
            if game.is_over:
                break
            game.play(mover.choose(game, game.to_move))
    return found


POSITIONS = positions()


def in_thread(level: str, seed: int, state: dict[str, Any], seat: int) -> str:
    """The choice as the runner made it before worker processes: in the calling thread."""
    return str(engine.bot(level, seed=seed).choose(engine.Game.from_dict(state), seat))


@pytest.fixture(scope="module")
def pool() -> Iterator[None]:
    """One process pool for this module's tests, shut down after them."""
    bot_thinking.shutdown()
    yield
    bot_thinking.shutdown()


@pytest.mark.parametrize("level", LEVELS)
def test_bot_choose_is_the_in_thread_choice(level: str) -> None:
    for state, seat in POSITIONS:
        for seed in (1, 2**62 + 5):
            move = bot_thinking.bot_choose(level, seed, state, seat)
            assert isinstance(move, str)
            assert move == in_thread(level, seed, state, seat)
            assert move == bot_thinking.bot_choose(level, seed, state, seat)  # deterministic


def test_think_in_a_worker_process_is_the_same_choice(pool: None) -> None:
    for level in LEVELS:
        for state, seat in POSITIONS:
            assert bot_thinking.think(level, 7, state, seat) == in_thread(level, 7, state, seat)


def test_think_async_is_the_same_choice(pool: None) -> None:
    async def main() -> list[str]:
        jobs = [bot_thinking.think_async(level, 9, *POSITIONS[-1]) for level in LEVELS]
        return await asyncio.gather(*jobs)

    assert run_async(main()) == [in_thread(level, 9, *POSITIONS[-1]) for level in LEVELS]


def test_workers_run_at_a_lowered_priority_in_another_process(pool: None) -> None:
    bot_thinking.think("greedy", 1, *POSITIONS[0])  # the pool is up
    workers = bot_thinking._executor
    assert workers is not None
    assert workers.submit(os.getpid).result() != os.getpid()
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    theirs = workers.submit(os.getpriority, os.PRIO_PROCESS, 0).result()
    assert theirs == min(19, ours + django_settings.GAMES_BOT_NICE) > ours


def test_a_killed_worker_is_replaced(pool: None, caplog: pytest.LogCaptureFixture) -> None:
    bot_thinking.think("greedy", 1, *POSITIONS[0])
    broken = bot_thinking._executor
    assert broken is not None
    os.kill(broken.submit(os.getpid).result(), signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="games.bot_runner.thinking"):
        for state, seat in POSITIONS:  # the first finds the pool broken, at once or later
            assert bot_thinking.think("expert", 3, state, seat) == in_thread(
                "expert", 3, state, seat
            )
    assert bot_thinking._executor is not None and bot_thinking._executor is not broken
    assert "worker process died" in caplog.text
    assert "thinking in this thread" not in caplog.text


class _AlwaysBroken:
    def submit(self, *args: Any) -> Any:
        raise BrokenProcessPool("gone")

    def shutdown(self, **kwargs: Any) -> None:
        pass


def test_a_pool_that_keeps_breaking_falls_back_to_this_thread(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    made: list[_AlwaysBroken] = []

    def broken_pool() -> _AlwaysBroken:
        made.append(_AlwaysBroken())
        return made[-1]

    monkeypatch.setattr(bot_thinking, "_pool", broken_pool)
    state, seat = POSITIONS[-1]
    with caplog.at_level(logging.WARNING, logger="games.bot_runner.thinking"):
        assert bot_thinking.think("expert", 4, state, seat) == in_thread("expert", 4, state, seat)
        move = run_async(bot_thinking.think_async("expert", 4, state, seat))
    assert move == in_thread("expert", 4, state, seat)
    assert len(made) == 4  # one try and one retry, twice
    assert caplog.text.count("thinking in") == 2


def turn(level: str = "expert") -> bots._BotTurn:
    state, seat = POSITIONS[-1]
    return bots._BotTurn(1, 0, seat, level, 5, state)


def no_process(*args: Any) -> Any:
    raise AssertionError("a worker process was asked to think")


@pytest.mark.parametrize("runner", ["thread", "inline"])
def test_thread_mode_and_the_inline_runner_use_no_process(
    runner: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAMES_BOT_RUNNER = runner
    settings.GAMES_BOT_THINK = "process" if runner == "inline" else "thread"
    monkeypatch.setattr(bot_thinking, "_pool", no_process)
    expected = in_thread("expert", 5, *POSITIONS[-1])
    assert turn().choose() == expected

    async def main() -> str:
        return await turn().choose_async()

    assert run_async(main()) == expected


def test_process_mode_thinks_through_the_pool(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAMES_BOT_RUNNER = "thread"
    settings.GAMES_BOT_THINK = "process"
    calls: list[tuple[Any, ...]] = []

    def think(*args: Any) -> str:
        calls.append(args)
        return "sync"

    async def think_async(*args: Any) -> str:
        calls.append(args)
        return "async"

    monkeypatch.setattr(bot_thinking, "think", think)
    monkeypatch.setattr(bot_thinking, "think_async", think_async)
    assert turn().choose() == "sync"
    assert run_async(turn().choose_async()) == "async"
    state, seat = POSITIONS[-1]
    assert calls == [("expert", 5, state, seat)] * 2
