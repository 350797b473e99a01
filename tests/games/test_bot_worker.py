"""The bot worker (``GAMES_BOT_RUNNER = "worker"``): a server sends each bot turn on the bot
channel and returns at once; the worker's consumer plays it; a malformed message is logged and
dropped; the system check refuses the in-memory layer; ``manage.py run_bots`` refuses another
runner. Then one real run on PostgreSQL + Redis: daphne in worker mode beside a ``run_bots``
process, a person against a bot over a real WebSocket, the worker SIGKILLed in the bot's turn
and started again, and the turn completes (tests/live_server.py, test_durability.py's helpers).
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import ApplicationCommunicator
from django.core.management import CommandError, call_command

from core import layer
from games.bot_runner import checks
from games.bot_runner import turns as bots
from games.bot_runner.worker import BotTurnConsumer, BotWorker
from games.services import game_play_move
from spite.asgi import application  # imported in thread mode: it refuses worker + in-memory
from tests.games.helpers import a_side_move, current_game
from tests.games.test_durability import (
    BOT,
    ENV,
    ME,
    after_the_restart,
    play_until_the_bot_is_cut_off,
    stored,
)
from tests.live_server import (
    ROOT,
    LiveServer,
    player_with_games,
    postgres_and_redis,
    postgres_database,
    redis_site_env,
    run_async,
    serve,
)

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def in_memory_layer(settings: Any) -> Iterator[None]:
    """A fresh in-memory channel layer for the test, whatever ``REDIS_URL`` says."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = IN_MEMORY
    channel_layers.backends.pop("default", None)
    yield
    channel_layers.backends.pop("default", None)


@pytest.fixture
def worker_mode(settings: Any, in_memory_layer: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker mode in a web process (not the worker), nothing attached; restored after."""
    settings.GAMES_BOT_RUNNER = "worker"
    settings.GAMES_BOT_MOVE_DELAY = 0
    monkeypatch.setattr(bots, "_worker", False)
    monkeypatch.setattr(bots, "_loop", None)
    monkeypatch.setattr(layer, "_loop", None)


def in_plain_thread(function: Callable[[], Any]) -> Any:
    """Run ``function`` in a thread with no event loop, as sync code runs in a server (the
    browser tests leave one running on the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result()


async def receive_one(channel: str, timeout: float = 2.0) -> dict[str, Any]:
    return await asyncio.wait_for(get_channel_layer().receive(channel), timeout)


def no_local_turn(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("a web process in worker mode ran a bot turn itself")


# --- scheduling in a web process ------------------------------------------------------------------


def test_the_bot_channel_carries_the_layers_prefix(settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    assert bots.bot_channel() == bots.BOT_CHANNEL == "bot-turns"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:6379/0"], "prefix": "site2"},
        }
    }
    assert bots.bot_channel() == "site2.bot-turns"


def test_in_worker_mode_scheduling_sends_the_turn_on_the_bot_channel(
    worker_mode: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots, "bot_turn_schedule_here", no_local_turn)
    in_plain_thread(lambda: bots.bot_turn_schedule(42))
    assert run_async(receive_one(bots.bot_channel())) == {"type": "bot.turn", "game": 42}
    assert bots._scheduled == {}


def test_in_a_server_scheduling_returns_before_the_send_is_done(
    worker_mode: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, sent = threading.Event(), []

    class SlowLayer:
        async def send(self, channel: str, message: dict[str, Any]) -> None:
            await asyncio.get_running_loop().run_in_executor(None, release.wait, 5)
            sent.append((channel, message))

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(layer, "get_channel_layer", lambda: SlowLayer())
    monkeypatch.setattr(bots, "bot_turn_schedule_here", no_local_turn)
    layer.attach_loop(loop)
    bots.attach_loop(loop)
    try:
        started = time.monotonic()
        bots.bot_turn_schedule(7)
        assert time.monotonic() - started < 0.5 and sent == []  # handed over, not waited for
        release.set()
        deadline = time.monotonic() + 5
        while not sent and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sent == [("bot-turns", {"type": "bot.turn", "game": 7})]
    finally:
        release.set()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


@pytest.mark.django_db(transaction=True)
def test_a_persons_move_that_hands_the_turn_to_a_bot_rings_the_worker(
    alice: Any, human_starts: Any, worker_mode: None, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAMES_BOT_RUNNER = "off"
    game = current_game(human_starts(alice))
    settings.GAMES_BOT_RUNNER = "worker"
    monkeypatch.setattr(bots, "bot_turn_schedule_here", no_local_turn)
    move = a_side_move(game)  # ends the turn: the bot is to move
    in_plain_thread(
        lambda: game_play_move(game_id=game.pk, user=alice, move=move, version=0, move_id="e")
    )
    assert run_async(receive_one(bots.bot_channel())) == {"type": "bot.turn", "game": game.pk}
    game.refresh_from_db()
    assert game.version == 1 and game.to_move == 1  # the bot has not moved here


@pytest.mark.django_db(transaction=True)
def test_a_web_processs_sweep_sends_every_waiting_bot_turn_to_the_worker(
    alice: Any, bob: Any, bot_starts: Any, worker_mode: None, settings: Any, monkeypatch: Any
) -> None:
    from games.sweeper import bot_turns_resume

    settings.GAMES_BOT_RUNNER = "off"
    waiting = {current_game(bot_starts(alice)).pk, current_game(bot_starts(bob)).pk}
    settings.GAMES_BOT_RUNNER = "worker"
    monkeypatch.setattr(bots, "bot_turn_schedule_here", no_local_turn)
    assert set(in_plain_thread(bot_turns_resume)) == waiting

    async def both() -> set[int]:
        return {(await receive_one(bots.bot_channel()))["game"] for _ in waiting}

    assert run_async(both()) == waiting


# --- the worker's consumer ------------------------------------------------------------------------


@pytest.fixture
def the_worker(settings: Any, in_memory_layer: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as the bot worker, thinking in its threads, no pause between moves."""
    settings.GAMES_BOT_RUNNER = "worker"
    settings.GAMES_BOT_THINK = "thread"
    settings.GAMES_BOT_MOVE_DELAY = 0
    monkeypatch.setattr(bots, "_worker", False)
    monkeypatch.setattr(bots, "_loop", None)
    monkeypatch.setattr(layer, "_loop", None)
    bots.become_worker()


async def deliver(messages: list[Any], until: Callable[[], Awaitable[Any]]) -> bool:
    """Hand ``messages`` to the site's ``"channel"`` route as the worker does, then wait (up to
    20 s) until ``await until()`` holds and no turn runs; whether the consumer is still alive."""
    communicator = ApplicationCommunicator(
        application, {"type": "channel", "channel": bots.bot_channel()}
    )
    for message in messages:
        await communicator.send_input(message)
    deadline = asyncio.get_running_loop().time() + 20
    while asyncio.get_running_loop().time() < deadline:
        if await until() and not bots._scheduled:
            break
        await asyncio.sleep(0.05)
    alive = not communicator.future.done()
    communicator.stop()
    await asyncio.gather(communicator.future, return_exceptions=True)
    return alive


@pytest.mark.django_db(transaction=True)
def test_the_consumer_plays_the_bots_turn(alice: Any, bot_starts: Any, the_worker: Any) -> None:
    from django.conf import settings

    settings.GAMES_BOT_RUNNER = "off"
    game = current_game(bot_starts(alice))
    settings.GAMES_BOT_RUNNER = "worker"
    assert game.version == 0 and game.to_move == 1

    @database_sync_to_async
    def the_person_is_to_move() -> bool:
        game.refresh_from_db()
        return not game.is_active or game.to_move == ME

    assert run_async(deliver([{"type": "bot.turn", "game": game.pk}], the_person_is_to_move))
    game.refresh_from_db()
    assert not game.is_active or game.to_move == ME
    rows = list(game.moves.order_by("ply"))
    assert rows and all(r.seat == BOT for r in rows)
    assert [r.client_move_id for r in rows] == [f"bot-{v}" for v in range(len(rows))]


BAD_MESSAGES = [
    {"type": "bot.turn"},
    {"type": "bot.turn", "game": "12"},
    {"type": "bot.turn", "game": True},
    {"type": "bot.turn", "game": -3},
    {"type": "bot.turn", "game": [1]},
    {"type": "game.event", "game": 1},
    {"type": "_private"},
]


def test_a_malformed_message_is_logged_and_dropped(
    the_worker: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[int] = []
    monkeypatch.setattr(bots, "bot_turn_schedule_here", ran.append)

    async def played() -> bool:
        return bool(ran)

    with caplog.at_level(logging.WARNING, logger="games.bot_runner.worker"):
        alive = run_async(deliver([*BAD_MESSAGES, {"type": "bot.turn", "game": 5}], played))
    assert alive  # the consumer went on: the good message after the bad ones was played
    assert ran == [5]
    dropped = [r for r in caplog.records if "dropped a malformed message" in r.getMessage()]
    assert len(dropped) == len(BAD_MESSAGES)


def test_the_worker_drops_a_message_without_a_type_and_goes_on_listening(
    in_memory_layer: None, caplog: pytest.LogCaptureFixture
) -> None:
    got: list[dict[str, Any]] = []

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope == {"type": "channel", "channel": "bot-turns"}
        while True:
            got.append(await receive())

    async def main() -> None:
        channel_layer = get_channel_layer()
        worker = BotWorker(application, ["bot-turns"], channel_layer)
        running = asyncio.ensure_future(worker.arun())
        await channel_layer.send("bot-turns", {"game": 1})
        await channel_layer.send("bot-turns", {"type": "bot.turn", "game": 2})
        for _ in range(100):
            if got:
                break
            await asyncio.sleep(0.02)
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)

    with caplog.at_level(logging.WARNING, logger="games.bot_runner.worker"):
        run_async(main())
    assert got == [{"type": "bot.turn", "game": 2}]
    assert "dropped a message without a type" in caplog.text


def test_the_consumer_has_no_channel_of_its_own() -> None:
    assert BotTurnConsumer.channel_layer_alias is None


# --- the system check and the command ------------------------------------------------------------


def test_the_check_refuses_worker_mode_on_the_in_memory_layer(settings: Any) -> None:
    settings.GAMES_BOT_RUNNER = "worker"
    settings.CHANNEL_LAYERS = IN_MEMORY
    [error] = checks.bot_runner_check()
    assert error.id == "games.E002" and "in-memory" in error.msg and "REDIS_URL" in error.hint

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:6379/0"], "prefix": "spite"},
        }
    }
    assert checks.bot_runner_check() == []
    settings.GAMES_BOT_RUNNER = "thread"
    settings.CHANNEL_LAYERS = IN_MEMORY
    assert checks.bot_runner_check() == []
    settings.GAMES_BOT_RUNNER = "threads"
    assert [e.id for e in checks.bot_runner_check()] == ["games.E001"]


def test_a_server_refuses_to_start_where_the_check_fails(settings: Any) -> None:
    """daphne and uvicorn run no system checks: spite/asgi.py calls bot_runner_refuse."""
    from django.core.exceptions import ImproperlyConfigured

    settings.GAMES_BOT_RUNNER = "worker"
    settings.CHANNEL_LAYERS = IN_MEMORY
    with pytest.raises(ImproperlyConfigured, match=r"games\.E002.*REDIS_URL"):
        checks.bot_runner_refuse()
    settings.GAMES_BOT_RUNNER = "thread"
    checks.bot_runner_refuse()
    source = (Path(__file__).resolve().parents[2] / "spite" / "asgi.py").read_text()
    assert "\nbot_runner_refuse()" in source


def test_the_check_is_registered(settings: Any) -> None:
    from django.core import checks as django_checks

    settings.GAMES_BOT_RUNNER = "worker"
    settings.CHANNEL_LAYERS = IN_MEMORY
    assert "games.E002" in [e.id for e in django_checks.run_checks()]


def test_run_bots_refuses_another_runner_and_a_negative_nice(settings: Any) -> None:
    settings.GAMES_BOT_RUNNER = "thread"
    with pytest.raises(CommandError, match="worker"):
        call_command("run_bots", skip_checks=True)
    settings.GAMES_BOT_RUNNER = "worker"
    with pytest.raises(CommandError, match="--nice"):
        call_command("run_bots", "--nice", "-1", skip_checks=True)


# --- a real server and a real worker: PostgreSQL + Redis -----------------------------------------

SKIP_REASON = (
    "needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL): the bot worker is another "
    "process, reached through the Redis channel layer; CI's second pass has both"
)
WORKER_START = 30.0  # seconds run_bots may take to listen


@dataclass
class RunBots:
    """A ``manage.py run_bots`` process beside ``server``, with its environment; its output
    goes on in one log."""

    server: LiveServer
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it listens (its log says so)."""
        before = self._listening()
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "manage.py"), "run_bots", "--nice", "1"],
                cwd=ROOT,
                env=self.server.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + WORKER_START
        while self._listening() == before:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"run_bots did not start:\n{self.log_path.read_text()}")
            time.sleep(0.1)

    def _listening(self) -> int:
        if not self.log_path.exists():
            return 0
        return self.log_path.read_text(errors="replace").count(" listening on ")

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> int | None:
        """SIGTERM; its exit code (killed after 15 s)."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.terminate()
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
            raise


@dataclass
class WorkerTable:
    """What ``play_until_the_bot_is_cut_off`` needs of its ``server``: the site's URL to play
    on, and a ``kill`` — here the bot worker's, not the server's."""

    url: str
    kill: Callable[[], None]


@pytest.fixture
def site_with_a_bot_worker(tmp_path: Path) -> Iterator[tuple[LiveServer, RunBots]]:
    if (urls := postgres_and_redis()) is None:
        pytest.skip(SKIP_REASON)
    database_url, redis_url = urls
    with (
        redis_site_env(redis_url, "spitebw") as site_env,
        postgres_database(database_url, prefix="spite_bw") as db,
        serve(
            tmp_path,
            env={
                **site_env,
                **ENV,  # the durability test's: a pause before each bot move, to catch a turn
                "GAMES_BOT_RUNNER": "worker",
                # No sweeper anywhere: only the restarted worker's start-up resume may finish it.
                "GAMES_SWEEPER_INTERVAL": "0",
            },
            database_url=db,
        ) as server,
    ):
        worker = RunBots(server, tmp_path / "run_bots.log")
        try:
            yield server, worker
        finally:
            worker.stop()


def test_a_bot_worker_plays_over_the_channel_and_a_killed_one_resumes_the_turn(
    site_with_a_bot_worker: tuple[LiveServer, RunBots],
) -> None:
    server, worker = site_with_a_bot_worker
    worker.start()
    made = player_with_games(server, games=1, payoff=20)
    game_id, key = made["games"][0], made["key"]
    table = WorkerTable(url=server.url, kill=worker.kill)
    acked, last_seen, _seen = run_async(play_until_the_bot_is_cut_off(table, game_id, key))  # type: ignore[arg-type]
    assert worker.process is not None and worker.process.returncode == -9  # SIGKILL
    before = stored(server, game_id)
    # The bot answered through the worker before it died.
    assert any(r["seat"] == BOT for r in before["rows"])
    assert last_seen["view"]["to_move"] == BOT

    time.sleep(3 * float(ENV["GAMES_BOT_MOVE_DELAY"]))  # the server plays no bot turn itself
    waiting = stored(server, game_id)
    assert waiting["version"] == before["version"]

    worker.start()  # its start-up resume finishes the turn
    _reconnected, ours, ack, _resumed_in = run_async(after_the_restart(server, game_id, key))
    game = stored(server, game_id)
    assert worker.stop() == 0  # SIGTERM ends it cleanly

    rows = game["rows"]
    later = [r for r in rows if before["version"] < r["version"] <= ours["version"]]
    assert later and all(r["seat"] == BOT for r in later)
    assert all(r["id"] == f"bot-{r['version'] - 1}" for r in later)
    assert [r["version"] for r in rows] == [r["ply"] + 1 for r in rows]  # no move doubled
    assert ack["version"] == ours["version"] + 1 and game["status"] == "active"
    assert game["replays"]
    ours_before = [(r["id"], r["version"]) for r in rows if r["seat"] == ME][: len(acked)]
    assert ours_before == [(a["id"], a["version"]) for a in acked]  # every acknowledged move kept
    log = worker.log_path.read_text()
    assert f"resumed bot turns in games [{game_id}]" in log
    assert "Traceback" not in log
