#!/usr/bin/env python3
"""A bot that plays Spite & Malice online through the public API: the example to copy.

It follows its events on the per-user socket ``/ws/me/`` (challenges received, games started,
your turn), accepts every challenge, can start matches against a server bot, and plays each of
its turns with one of the engine's bots through ``POST /api/v1/games/<id>/moves/``.

    export SPITE_TOKEN=<a key made at /accounts/tokens/>
    python examples/bot_client.py                                  # accept challenges, forever
    python examples/bot_client.py --challenge-bot random --matches 1

Needs httpx and websockets, and the project's ``engine`` package for the bots (run it with the
project's virtualenv). The socket is only a doorbell: the client also looks at each of its games
every few seconds, so a lost event never stalls a game. Exit codes: 0 when ``--matches`` are
over, 2 when the server refuses the token, 130 on Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import sys
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets
from websockets.typing import Origin

import engine

LEVELS = ("random", "greedy", "expert")
POLL_SECONDS = 3.0  # how often a game in progress is looked at without being told
CHALLENGES_POLL_SECONDS = 30.0  # how often the pending challenges are read without being told
MAX_BACKOFF = 30.0  # the longest wait before reconnecting or resending
RETRY_CODES = {"stale_version", "not_your_turn", "game_over"}  # the table moved on: look again

State = dict[str, Any]  # the state frame of docs/protocol.md, as GET /api/v1/games/<id>/ gives it


class Stop(Exception):
    """Something the client cannot mend: it says why and exits with ``code``."""

    code = 1


class TokenRefused(Stop):
    """The server does not know the token (HTTP 401, or the socket closed with 4401)."""

    code = 2


def say(text: str) -> None:
    print(text, flush=True)


@dataclass(frozen=True)
class Options:
    server: str
    token: str
    bot: str
    seed: int
    accept: bool
    challenge_bot: str | None
    payoff: int | None
    target: int | None
    matches: int | None


class Api:
    """HTTP with the token. A request is sent again after a network error (the same body, so a
    move keeps its id and is applied once) and after 429, once ``Retry-After`` has passed."""

    def __init__(self, server: str, token: str) -> None:
        self.http = httpx.AsyncClient(
            base_url=server, headers={"Authorization": f"Bearer {token}"}, timeout=15
        )

    async def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        delay = 1.0
        while True:
            try:
                response = await self.http.request(method, path, json=body)
            except (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError) as exc:
                say(f"network error on {method} {path} ({exc!r}); again in {delay:.0f} s")
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_BACKOFF)
                continue
            if response.status_code == 429:
                wait = float(response.headers.get("Retry-After", "1"))
                say(f"throttled: waiting {wait:.0f} s")
                await asyncio.sleep(wait)
                continue
            if response.status_code == 401:
                raise TokenRefused(response.json().get("message", "401"))
            return response

    async def close(self) -> None:
        await self.http.aclose()


def refusal(response: httpx.Response) -> tuple[str, str]:
    """The code and the message (with any field errors) of an error answer."""
    try:
        body = response.json()
    except ValueError:
        return str(response.status_code), response.text[:200]
    message = str(body.get("message", ""))
    errors = (body.get("params") or {}).get("errors")
    if errors:
        message += f" {json.dumps(errors)}"
    return str(body.get("code", response.status_code)), message


class Player:
    """Follows the events, accepts challenges, and plays its games one move at a time."""

    def __init__(self, options: Options, api: Api) -> None:
        self.options = options
        self.api = api
        self.bot = engine.bot(options.bot, seed=options.seed)
        self.active: set[int] = set()  # our games in progress
        self.started: set[int] = set()  # matches this client started against a server bot
        self.games_over: set[int] = set()
        self.matches_over: set[int] = set()
        self.queue: asyncio.Queue[int] = asyncio.Queue()
        self.queued: set[int] = set()
        self.done = asyncio.Event()

    # --- events --------------------------------------------------------------------------

    async def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "challenges":
            await self.accept_received(frame["challenges"])
        elif kind == "challenge" and frame["state"] == "received":
            await self.accept(frame)
        elif kind == "games":
            for entry in frame["games"]:
                self.follow(entry["game"])
        elif kind in ("game_started", "your_turn"):
            self.follow(frame["game"])
        elif kind == "error":
            say(f"the socket says {frame.get('code')}: {frame.get('message')}")

    def follow(self, game_id: int) -> None:
        """Look at ``game_id`` soon (once, however often we are told)."""
        if game_id in self.games_over:
            return
        self.active.add(game_id)
        if game_id not in self.queued:
            self.queued.add(game_id)
            self.queue.put_nowait(game_id)

    async def accept_received(self, challenges: list[dict[str, Any]]) -> None:
        for challenge in challenges:
            if challenge["state"] == "received":
                await self.accept(challenge)

    async def accept(self, challenge: dict[str, Any]) -> None:
        if not self.options.accept:
            return
        who = challenge["from"]["name"]
        response = await self.api.call("POST", f"/api/v1/challenges/{challenge['id']}/accept/")
        if response.status_code != 200:
            code, message = refusal(response)
            say(f"could not accept {who}'s challenge: {code} ({message})")
            return
        body = response.json()
        say(f"accepted {who}'s challenge ({challenge['summary']}): match {body['match']}")
        self.follow(body["game"])

    async def start_match(self) -> None:
        """A new match against the server bot ``--challenge-bot``, under the knobs given."""
        rules = {"payoff_size": self.options.payoff, "match_target": self.options.target}
        body = {
            "bot": self.options.challenge_bot,
            "rules": {k: v for k, v in rules.items() if v is not None},
        }
        response = await self.api.call("POST", "/api/v1/matches/", body)
        if response.status_code != 201:
            code, message = refusal(response)
            raise Stop(f"could not start a match: {code} ({message})")
        match = response.json()
        self.started.add(match["id"])
        say(f"match {match['id']} against the {self.options.challenge_bot} bot starts")
        self.follow(match["games"][0]["id"])

    # --- playing -------------------------------------------------------------------------

    async def fetch(self, game_id: int) -> State | None:
        response = await self.api.call("GET", f"/api/v1/games/{game_id}/")
        if response.status_code != 200:
            code, message = refusal(response)
            say(f"game {game_id}: {code} ({message})")
            return None
        state: State = response.json()
        return state

    async def play(self, game_id: int) -> None:
        """Play every move that is ours in ``game_id`` now; note the game's end."""
        state = await self.fetch(game_id)
        while state is not None:
            if state["game"]["status"] != "active":
                await self.game_over(state)
                return
            view, seat = state["view"], state["you"]
            if seat is None or view["to_move"] != seat or not view["legal_moves"]:
                return  # not our turn: the your_turn event (or the next look) brings us back
            move = str(self.bot.choose_from_view(view))
            state = await self.send_move(game_id, move, state["version"])

    async def send_move(self, game_id: int, move: str, version: int) -> State | None:
        """Post ``move`` (chosen at ``version``); the state after it, or a fresh one if the
        table moved on, or None after a refusal we cannot mend."""
        body = {"move": move, "version": version, "id": f"v{version}"}
        response = await self.api.call("POST", f"/api/v1/games/{game_id}/moves/", body)
        if response.status_code in (200, 201):
            say(f"game {game_id}: played {move}")
            state: State = response.json()["state"]
            return state
        code, message = refusal(response)
        if code in RETRY_CODES:
            return await self.fetch(game_id)
        say(f"game {game_id}: {move} refused: {code} ({message})")
        return None

    async def game_over(self, state: State) -> None:
        game, match, seat = state["game"], state["match"], state["you"]
        self.active.discard(game["id"])
        if game["id"] not in self.games_over:
            self.games_over.add(game["id"])
            outcome = game["outcome"] or {}
            result = outcome_word(outcome.get("winner"), seat)
            mine, theirs = match["scores"][seat], match["scores"][1 - seat]
            points = outcome.get("points", 0)
            say(
                f"game {game['id']} over: {result}, {points} point{'' if points == 1 else 's'} "
                f"({outcome.get('reason')}); match {match['id']} stands {mine}-{theirs}"
            )
        if match["status"] == "active":
            if match["next_game"]:
                self.follow(match["next_game"])
            return
        if match["id"] in self.matches_over:
            return
        self.matches_over.add(match["id"])
        mine, theirs = match["scores"][seat], match["scores"][1 - seat]
        say(
            f"match {match['id']} over: {outcome_word(match['winner'], seat)} {mine}-{theirs} "
            f"({match['reason']}); {len(self.matches_over)} finished"
        )
        wanted = self.options.matches
        if wanted is not None and len(self.matches_over) >= wanted:
            self.done.set()
        elif self.options.challenge_bot and match["id"] in self.started:
            await self.start_match()

    # --- the three loops -----------------------------------------------------------------

    async def worker(self) -> None:
        """Plays the games we were told about, one at a time (so never two moves at once)."""
        while True:
            game_id = await self.queue.get()
            self.queued.discard(game_id)
            await self.play(game_id)

    async def poller(self) -> None:
        """Looks at every game in progress every few seconds, and at the pending challenges
        now and then: a lost event never stalls a game nor leaves a challenge unanswered."""
        loop = asyncio.get_running_loop()
        challenges_read = loop.time()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            for game_id in list(self.active):
                self.follow(game_id)
            if self.options.accept and loop.time() - challenges_read >= CHALLENGES_POLL_SECONDS:
                challenges_read = loop.time()
                response = await self.api.call("GET", "/api/v1/challenges/")
                if response.status_code == 200:
                    await self.accept_received(response.json()["results"])

    async def listen(self) -> None:
        """The event stream: /ws/me/ with the token, reconnected with a growing, jittered
        delay. On each connect the server sends ``challenges`` and ``games`` again."""
        parts = urlsplit(self.options.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        url = f"{scheme}://{parts.netloc}/ws/me/"
        origin = f"{parts.scheme}://{parts.netloc}"
        headers = {"Authorization": f"Bearer {self.options.token}"}
        delay = 1.0
        while True:
            try:
                async with websockets.connect(
                    url, additional_headers=headers, origin=Origin(origin)
                ) as socket:
                    say("listening for events")
                    delay = 1.0
                    async for text in socket:
                        await self.on_frame(json.loads(text))
            except websockets.ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == 4401:
                    raise TokenRefused("the socket refused the token") from None
            except (OSError, websockets.WebSocketException) as exc:
                say(f"socket: {exc!r}")
            wait = delay * random.uniform(0.5, 1.0)
            say(f"socket closed; reconnecting in {wait:.1f} s")
            await asyncio.sleep(wait)
            delay = min(delay * 2, MAX_BACKOFF)


def outcome_word(winner: int | None, seat: int) -> str:
    if winner is None:
        return "no winner"
    return "won" if winner == seat else "lost"


async def run(options: Options) -> int:
    api = Api(options.server, options.token)
    try:
        me = await api.call("GET", "/api/v1/me/")
        say(f"playing as {me.json()['username']} with the {options.bot} bot (seed {options.seed})")
        player = Player(options, api)
        loops = [
            asyncio.create_task(loop()) for loop in (player.listen, player.worker, player.poller)
        ]
        if options.challenge_bot:
            await player.start_match()
        finished = asyncio.create_task(player.done.wait())
        ended, _ = await asyncio.wait([finished, *loops], return_when=asyncio.FIRST_COMPLETED)
        for task in [finished, *loops]:
            task.cancel()
        for task in loops:
            if task in ended and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]  # a loop ended: it failed
        return 0
    except TokenRefused as exc:
        say(f"the server refused the token ({exc}): make one at /accounts/tokens/")
        return exc.code
    except Stop as exc:
        say(str(exc))
        return exc.code
    finally:
        await api.close()


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument(
        "--token", default=os.environ.get("SPITE_TOKEN", ""), help="API key (env SPITE_TOKEN)"
    )
    parser.add_argument("--bot", choices=LEVELS, default="greedy", help="who chooses the moves")
    parser.add_argument("--seed", type=int, default=None, help="the bot's seed (default: random)")
    parser.add_argument(
        "--accept",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="accept every challenge received (default: yes)",
    )
    parser.add_argument(
        "--challenge-bot", choices=LEVELS, default=None, help="start a match against this bot"
    )
    parser.add_argument("--payoff", type=int, default=None, help="its pay-off pile size")
    parser.add_argument("--target", type=int, default=None, help="its points to win")
    parser.add_argument(
        "--matches", type=int, default=None, help="stop after this many matches are over"
    )
    given = parser.parse_args(argv)
    if not given.token:
        parser.error("give --token or set SPITE_TOKEN (make one at /accounts/tokens/)")
    return Options(
        server=given.server.rstrip("/"),
        token=given.token,
        bot=given.bot,
        seed=given.seed if given.seed is not None else secrets.randbelow(2**31),
        accept=given.accept,
        challenge_bot=given.challenge_bot,
        payoff=given.payoff,
        target=given.target,
        matches=given.matches,
    )


def main() -> int:
    options = parse()
    try:
        return asyncio.run(run(options))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
