"""The client side of a bench run: tables of two players (and tables against the bot) playing
moves at a set rate over the game socket, and the floor probes (echo, echo + commit).

Everything runs on one asyncio loop with the ``websockets`` client. A move's round trip is
send -> the mover's socket has the new version's ``state``; its opponent latency is send -> the
opponent's socket has that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

LATE = 3.0  # seconds the opponent's state may take before it counts as a timeout
TIMEOUT = 10.0  # seconds the mover's own state may take
#: Seconds between a floor socket's frames: often enough for a p99 over a run, rarely enough
#: that the floors (four sockets, half of them committing) add little load of their own.
PROBE_INTERVAL = 0.5


@dataclass
class Figures:
    rtt: list[float] = field(default_factory=list)  # human tables' moves
    first_rtt: list[float] = field(default_factory=list)  # each socket's first move, apart
    opponent: list[float] = field(default_factory=list)
    bot_rtt: list[float] = field(default_factory=list)  # the person's moves at bot tables
    bot_reply: list[float] = field(default_factory=list)  # turn passed -> the bot's first move
    echo: list[float] = field(default_factory=list)
    commit: list[float] = field(default_factory=list)
    loop_lag: list[float] = field(default_factory=list)  # the client's own event loop
    error_frames: Counter[str] = field(default_factory=Counter)
    closed: int = 0  # sockets the server closed
    failed_tables: int = 0  # tables that stopped on an exception (connect, first state, send)
    timeouts: int = 0
    games_finished: int = 0
    out_of_games: int = 0  # tables that stopped: their game ended and no spare game was left
    reconnects: int = 0


@dataclass
class Pool:
    """The games a table takes when its game ends (made ahead, like the tables')."""

    human: list[dict[str, Any]]
    bot: list[dict[str, Any]]


class Sock:
    """One game socket, its latest state and when each version arrived."""

    def __init__(self, conn: Any, figures: Figures) -> None:
        self.conn = conn
        self.figures = figures
        self.state: dict[str, Any] | None = None
        self.arrivals: dict[int, float] = {}
        self.to_move: dict[int, int] = {}  # version -> the seat to move in it
        self.errors = 0
        self.changed = asyncio.Event()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.conn:
                frame = json.loads(raw)
                if frame.get("type") == "state":
                    now = time.perf_counter()
                    self.state = frame
                    self.arrivals.setdefault(frame["version"], now)
                    if frame["game"]["status"] == "active":
                        self.to_move[frame["version"]] = frame["view"]["to_move"]
                    if len(self.arrivals) > 64:
                        for version in sorted(self.arrivals)[:32]:
                            del self.arrivals[version]
                            self.to_move.pop(version, None)
                elif frame.get("type") == "error":
                    self.errors += 1
                    self.figures.error_frames[frame.get("code", "?")] += 1
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        self.figures.closed += 1 if not getattr(self, "closing", False) else 0
        self.changed.set()

    def arrived(self, version: int) -> float | None:
        times = [t for v, t in self.arrivals.items() if v >= version]
        return min(times) if times else None

    async def wait(self, version: int, timeout: float, errors_before: int | None = None) -> bool:
        """Until a state of ``version`` or later came (True), an error frame came after
        ``errors_before``, the socket closed, or ``timeout`` (False)."""
        deadline = time.perf_counter() + timeout
        while self.arrived(version) is None:
            if errors_before is not None and self.errors > errors_before:
                return False
            if self.reader.done():
                return False
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def close(self) -> None:
        self.closing = True
        await self.conn.close()
        await asyncio.gather(self.reader, return_exceptions=True)


async def connect(url: str, path: str, key: str | None, figures: Figures) -> Sock:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    conn = await websockets.connect(
        url.replace("http://", "ws://") + path,
        origin=url,
        additional_headers=headers,
        open_timeout=20,
        max_size=2**22,
    )
    return Sock(conn, figures)


def choose(moves: list[str], rng: random.Random) -> str:
    """A card move at random (pay-off first half the time); never undo or abort."""
    cards = [m for m in moves if m[:2] in ("p-", "h:") or m[:1] == "s"] or moves
    payoff = [m for m in cards if m.startswith("p-")]
    if payoff and rng.random() < 0.5:
        return payoff[0]
    return rng.choice(cards)


async def _first_state(sock: Sock) -> dict[str, Any]:
    await sock.wait(0, TIMEOUT)
    if sock.state is None:
        raise RuntimeError("no state after connecting")
    return sock.state


class Load:
    """The tables of one step, played at ``rate`` moves per second per table until ``end``."""

    def __init__(
        self,
        *,
        urls: list[str],
        tables: list[dict[str, Any]],
        bot_tables: list[dict[str, Any]],
        pool: Pool,
        rate: float,
        reconnect_every: int = 0,
        seed: int = 1,
    ) -> None:
        self.urls = urls
        self.tables = tables
        self.bot_tables = bot_tables
        self.pool = pool
        self.interval = 1.0 / rate
        self.reconnect_every = reconnect_every
        self.rng = random.Random(seed)
        self.figures = Figures()
        self.moves = 0

    async def run(self, duration: float, probes: int = 2) -> Figures:
        """Open every table, then play for ``duration`` seconds: the figures are of the steady
        state, not of hundreds of sockets connecting at once."""
        self.duration = duration
        self.end = float("inf")  # set when the last table is open
        self.opening = len(self.tables) + len(self.bot_tables)
        self.ready = asyncio.Event()
        if not self.opening:
            self._start()
        jobs = [self._human(i, t) for i, t in enumerate(self.tables)]
        jobs += [self._bot(i, t) for i, t in enumerate(self.bot_tables)]
        for i in range(probes):
            jobs.append(self._probe(i, "/ws/bench/echo/", self.figures.echo))
            jobs.append(self._probe(i, "/ws/bench/commit/", self.figures.commit))
        jobs.append(self._lag())
        await asyncio.gather(*jobs)
        return self.figures

    def _start(self) -> None:
        self.end = time.perf_counter() + self.duration
        self.ready.set()

    def _done_opening(self) -> None:
        """One table is open, or gave up before it was: the run starts with the last one."""
        self.opening -= 1
        if self.opening == 0:
            self._start()

    async def _reopen(
        self, socks: list[Sock], table: dict[str, Any], index: int, keys: list[str]
    ) -> list[Sock]:
        """Close ``socks``; open ``keys``' sockets on ``table``, each with its first state."""
        for sock in socks:
            await sock.close()
        socks = await self._open(table, index, keys)
        for sock in socks:
            await _first_state(sock)
        return socks

    async def _lag(self) -> None:
        """How late the client's own loop wakes from a 50 ms sleep: when it is late, the
        client, not the server, is the bottleneck and every figure above is inflated."""
        await self.ready.wait()
        while time.perf_counter() < self.end:
            before = time.perf_counter()
            await asyncio.sleep(0.05)
            self.figures.loop_lag.append(time.perf_counter() - before - 0.05)

    async def _pace(self, next_at: float) -> float:
        now = time.perf_counter()
        if next_at > now:
            await asyncio.sleep(next_at - now)
        return max(next_at + self.interval, time.perf_counter())

    async def _open(self, table: dict[str, Any], index: int, keys: list[str]) -> list[Sock]:
        path = f"/ws/games/{table['game']}/"
        return [
            await connect(self.urls[(index + seat) % len(self.urls)], path, key, self.figures)
            for seat, key in enumerate(keys)
        ]

    async def _move(self, sock: Sock, state: dict[str, Any], into: list[float]) -> float | None:
        version = state["version"]
        move = choose(state["view"]["legal_moves"], self.rng)
        errors = sock.errors
        sent = time.perf_counter()
        await sock.conn.send(
            json.dumps({"type": "move", "move": move, "version": version, "id": f"m{version}"})
        )
        if await sock.wait(version + 1, TIMEOUT, errors):
            into.append(sock.arrived(version + 1) - sent)  # type: ignore[operator]
            self.moves += 1
            return sent
        if sock.errors == errors and not sock.reader.done():
            self.figures.timeouts += 1
        await sock.conn.send(json.dumps({"type": "sync"}))
        return None

    async def _human(self, index: int, table: dict[str, Any]) -> None:
        socks: list[Sock] = []
        opened = False
        try:
            socks = await self._reopen([], table, index, table["keys"])
            opened = True
            self._done_opening()
            await self.ready.wait()
            next_at = time.perf_counter() + self.rng.random() * self.interval
            played = 0
            fresh = {id(s) for s in socks}  # sockets that have not moved yet
            while True:
                next_at = await self._pace(next_at)
                if time.perf_counter() >= self.end:
                    return
                if any(s.reader.done() for s in socks):
                    return
                latest = max((s.state for s in socks), key=lambda st: st["version"])  # type: ignore[arg-type,return-value]
                if latest["game"]["status"] != "active":
                    self.figures.games_finished += 1
                    if not self.pool.human:
                        self.figures.out_of_games += 1
                        return
                    table = self.pool.human.pop()
                    socks = await self._reopen(socks, table, index, table["keys"])
                    fresh = {id(s) for s in socks}
                    continue
                to_move = latest["view"]["to_move"]
                mover = next((s for s in socks if s.state["you"] == to_move), None)  # type: ignore[index]
                if mover is None or mover.state["version"] < latest["version"]:  # type: ignore[index]
                    continue
                other = socks[1 - socks.index(mover)]
                version = latest["version"]
                into = self.figures.first_rtt if id(mover) in fresh else self.figures.rtt
                fresh.discard(id(mover))
                sent = await self._move(mover, mover.state, into)  # type: ignore[arg-type]
                if sent is not None:
                    if await other.wait(version + 1, LATE):
                        self.figures.opponent.append(other.arrived(version + 1) - sent)  # type: ignore[operator]
                    else:
                        self.figures.timeouts += 1
                        await other.conn.send(json.dumps({"type": "sync"}))
                played += 1
                if self.reconnect_every and played % self.reconnect_every == 0:
                    socks = await self._reopen(socks, table, index, table["keys"])
                    fresh = {id(s) for s in socks}
                    self.figures.reconnects += 1
        except (OSError, websockets.WebSocketException, RuntimeError):
            self.figures.failed_tables += 1
        finally:
            if not opened:
                self._done_opening()
            for sock in socks:
                await sock.close()

    async def _bot(self, index: int, table: dict[str, Any]) -> None:
        sock: Sock | None = None
        opened = False
        try:
            [sock] = await self._reopen([], table, index, [table["key"]])
            opened = True
            self._done_opening()
            await self.ready.wait()
            next_at = time.perf_counter() + self.rng.random() * self.interval
            while True:
                next_at = await self._pace(next_at)
                if time.perf_counter() >= self.end or sock.reader.done():
                    return
                state = sock.state
                assert state is not None
                if state["game"]["status"] != "active":
                    self.figures.games_finished += 1
                    if not self.pool.bot:
                        self.figures.out_of_games += 1
                        return
                    table = self.pool.bot.pop()
                    [sock] = await self._reopen([sock], table, index, [table["key"]])
                    continue
                if state["view"]["to_move"] == state["you"]:
                    version = state["version"]
                    sent = await self._move(sock, state, self.figures.bot_rtt)
                    passed = sock.to_move.get(version + 1, state["you"]) != state["you"]
                    if sent is not None and passed:
                        # the move ended the turn: time until the bot's first move arrives
                        if await sock.wait(version + 2, LATE):
                            self.figures.bot_reply.append(sock.arrived(version + 2) - sent)  # type: ignore[operator]
                        else:
                            self.figures.timeouts += 1
        except (OSError, websockets.WebSocketException, RuntimeError):
            self.figures.failed_tables += 1
        finally:
            if not opened:
                self._done_opening()
            if sock is not None:
                await sock.close()

    async def _probe(self, index: int, path: str, into: list[float]) -> None:
        """A floor: one socket sending a short frame every ``PROBE_INTERVAL`` and timing its
        echo."""
        url = self.urls[index % len(self.urls)]
        await self.ready.wait()
        try:
            conn = await websockets.connect(
                url.replace("http://", "ws://") + path, origin=url, open_timeout=20
            )
        except (OSError, websockets.WebSocketException):
            self.figures.closed += 1
            return
        try:
            n = 0
            while time.perf_counter() < self.end:
                n += 1
                sent = time.perf_counter()
                await conn.send(json.dumps({"n": n}))
                await asyncio.wait_for(conn.recv(), TIMEOUT)
                into.append(time.perf_counter() - sent)
                await asyncio.sleep(PROBE_INTERVAL)
        except (TimeoutError, websockets.WebSocketException):
            self.figures.timeouts += 1
        finally:
            await conn.close()
