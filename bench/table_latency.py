"""bench/table_latency: from a player's click to the opponent's screen showing the card in its
new place, in Chromium, between two players at one table (issue 22, "Speed a player feels";
docs/performance.md).

    .venv/bin/python -m bench.table_latency                 # 300 moves: 150 animated, 150 not
    .venv/bin/python -m bench.table_latency --moves 100 --motion reduce

It starts its own daphne (production settings, a SQLite file of its own, the in-memory channel
layer: the ``make run`` site; no job worker, nobody plays a bot), signs two players up in two
browser contexts of one headless Chromium (Debian's, ``/usr/bin/chromium``), makes casual matches
between them (``match_create_between`` through ``manage.py shell``, one game each) and plays:
the player to move clicks a card, then its place (the move a greedy player would choose from
the table's own ``legal_moves``), and waits until both tables have drawn it before the next
click. Every time is taken in the pages, on one clock (``performance.timeOrigin +
performance.now()``, each page's offset from this process's clock measured and taken off):

- **click**: the mover's click on the place (a capture listener on ``window``, before the
  table's own);
- **sent**: the table's ``move`` frame leaves through ``WebSocket.send``;
- **server sent**: a spectator socket of this process (``Spectator``) receives the new
  version's ``state``: the server sends a change's frames to all its sockets in one turn of
  its loop, so this is when it sent the opponent's too (this process's clock);
- **own state**: the mover's page receives its own ``state`` (when its main thread, busy
  drawing the click, gets to it);
- **frame**: the opponent's page receives the ``state`` (before the table's own listener; a
  socket's message waits for the page's main thread);
- **drawn**: the opponent's table has drawn the new version (the first DOM change after it),
  and the next ``requestAnimationFrame``: the frame that first paints the move (the card at its
  place, or taking off);
- **shown**: the card is at its new place and visible (the flight over, when the table
  animates it), and **painted**: the next ``requestAnimationFrame`` after that.

The table's ``render()`` is timed in the opponent's page too; ``--profile`` runs V8's CPU
profiler in both pages and prints where their time went, function by function.

Half the moves are played with the opponent's browser asking for reduced motion (the table
then draws the move at once) and half without (the card flies 300 ms), unless ``--motion``
says one. Prints p50 / p95 / p99 / max of each span and writes
``bench/results/table-latency-<UTC time>.json``. Run with the machine otherwise idle: the
figures are of this machine's one Chromium, one daphne and one SQLite file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as bench/table_latency.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.live import servers as srv

CHROMIUM = os.environ.get("SPITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1280, "height": 800}
PASSWORD = "a-long-Bench-pass-42"
TARGETS_MS = {"p50": 100.0, "p95": 250.0}
TIMEOUT_MS = 30_000  # a generous deadline: a loaded machine is slow, never wrong

#: The bench's settings beside production's: cookies over plain HTTP (no TLS on loopback) and
#: static files from the folders (no collectstatic to run; nothing of a move's path changes).
EXTRA_SETTINGS = """
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
WHITENOISE_USE_FINDERS = True
STORAGES = {**STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
"""

MAKE_MATCHES = """
import json
import engine
from accounts.models import User
from games.services import match_create_between
a, b = User.objects.get(username={a!r}), User.objects.get(username={b!r})
rules = engine.Rules(payoff_size={payoff}, match_target=1)
games = []
for _ in range({count}):
    match = match_create_between(user0=a, user1=b, rules=rules)
    games.append(match.games.get().pk)
print(json.dumps(games))
"""

#: In every page, before its own scripts: the arrival time of every frame any WebSocket
#: receives (kept raw, read after the move: nothing is parsed on the table's path), the time
#: each ``move`` frame is sent, the time of each click on a place, and ``watch``: the opponent's
#: watch over its table for one version.
INIT_SCRIPT = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const bench = (window.__bench = { arrivals: [], sent: {}, clicks: [], renders: [] });
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => bench.arrivals.push([now(), event.data]));
    }
    send(data) {
      const at = now();
      const move = typeof data === "string" && /"type":\s*"move"/.test(data);
      const match = move && /"version":\s*(\d+)/.exec(data);
      if (match) bench.sent[match[1]] = at;
      return super.send(data);
    }
  }
  window.WebSocket = Watched;
  window.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-target]")) bench.clicks.push(now());
  }, true);

  // The opponent's watch: when the table has drawn `version`, and when the card is at its
  // place and visible (no card in flight, the landing card not hidden), then the next frame.
  bench.watch = (version, pile, card) => {
    const w = (bench.watching = { version, pile, card, matched: null });
    const check = () => {
      const table = window.spiteTable;
      if (!table || !table.state || table.state.version < version || w.shown) return;
      if (!w.drawn) {
        w.drawn = now();
        requestAnimationFrame(() => { w.drawnPainted = now(); });
      }
      if (document.querySelector(".pc-flying")) return;
      const top = document.querySelector(`${pile} .pc-card:last-child`);
      const matched = Boolean(top && top.dataset.card === card);
      if (matched && getComputedStyle(top).visibility === "hidden") return;
      w.shown = now();
      w.matched = matched;
      observer.disconnect();
      requestAnimationFrame(() => { w.painted = now(); });
    };
    const observer = new MutationObserver(check);
    const all = { subtree: true, childList: true, attributes: true, characterData: true };
    observer.observe(document.body, all);
    check();
  };
  // How long each of the table's own draws takes (render()), once the table exists.
  bench.timeRenders = () => {
    const table = window.spiteTable;
    const render = table.render.bind(table);
    table.render = () => {
      const start = now();
      render();
      bench.renders.push([start, now() - start]);
    };
  };
})();
"""

READY = """(version) => {
  const t = window.spiteTable;
  return Boolean(t && t.state && t.state.version >= version && !t.pending && !t.busy);
}"""


def percentiles(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    ms = sorted(values)

    def at(share: float) -> float:
        return round(ms[min(len(ms) - 1, math.ceil(share * len(ms)) - 1)], 1)

    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 1),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ms[-1], 1),
    }


def sign_up(page: Any, base: str, prefix: str) -> str:
    username = f"{prefix}{secrets.token_hex(4)}"
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")
    return username


def clock_offset(page: Any) -> tuple[float, float]:
    """The page's clock minus this process's (ms), from the closest of 15 readings, and how
    far off it may be (half that reading's round trip)."""
    best: tuple[float, float] | None = None
    for _ in range(15):
        before = time.time() * 1000
        at = page.evaluate("() => performance.timeOrigin + performance.now()")
        after = time.time() * 1000
        if best is None or after - before < best[0]:
            best = (after - before, at - (before + after) / 2)
    assert best is not None
    return best[1], best[0] / 2


class Spectator:
    """A socket of this process watching the game (an anonymous spectator): when the server's
    broadcast of each version reached it, on this process's clock. The server sends a change's
    frames to its sockets one after the other in one turn of its loop, so this is when the
    server sent the opponent's frame too, give or take the loopback."""

    def __init__(self, base: str, game: int) -> None:
        from websockets.sync.client import connect

        url = base.replace("http://", "ws://") + f"/ws/games/{game}/"
        self.socket = connect(url, origin=base, open_timeout=20)  # type: ignore[arg-type]
        self.arrivals: dict[int, float] = {}
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):  # closed
            for data in self.socket:
                at = time.time() * 1000
                frame = json.loads(data)
                if frame.get("type") == "state":
                    self.arrivals.setdefault(frame["version"], at)

    def close(self) -> None:
        self.socket.close()
        self.thread.join(timeout=5)


class Table:
    """The two players' pages at one game, in a browser context each; with ``profile``, V8's
    CPU profiler runs in both pages and ``self_ms`` / ``total_ms`` add up each function's time."""

    def __init__(self, browser: Any, storage: list[Any], motion: str, profile: bool) -> None:
        self.contexts = [
            browser.new_context(viewport=VIEWPORT, storage_state=s, reduced_motion=motion)
            for s in storage
        ]
        self.pages = []
        for context in self.contexts:
            context.set_default_timeout(TIMEOUT_MS)
            context.add_init_script(INIT_SCRIPT)
            self.pages.append(context.new_page())
        self.offsets = [0.0, 0.0]
        self.uncertainty = 0.0  # ms: the worst of the offsets' errors
        pairs = zip(self.contexts, self.pages, strict=True)
        self.cdp = [c.new_cdp_session(p) for c, p in pairs] if profile else []
        self.self_ms: dict[str, float] = {}
        self.total_ms: dict[str, float] = {}
        self.spectator: Spectator | None = None

    def open(self, base: str, game: int) -> None:
        self.profile_collect()
        if self.spectator:
            self.spectator.close()
        self.spectator = Spectator(base, game)
        for page in self.pages:
            page.goto(f"{base}/play/games/{game}/")
        for page in self.pages:  # a game over opens no socket: play_move moves on
            page.wait_for_function(
                "() => { const t = window.spiteTable; return Boolean(t && t.state) && (t.gameOver"
                " || document.querySelector('[data-part=conn]').dataset.state === 'open'); }"
            )
            page.evaluate("() => window.__bench.timeRenders()")
        readings = [clock_offset(page) for page in self.pages]
        self.offsets = [offset for offset, _ in readings]
        self.uncertainty = max(self.uncertainty, *(error for _, error in readings))
        for cdp in self.cdp:
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 250})  # µs
            cdp.send("Profiler.start")

    def profile_collect(self) -> None:
        """Stop the profilers (if running) and add their samples up by function."""
        for cdp in self.cdp:
            try:
                profile = cdp.send("Profiler.stop")["profile"]
            except Exception:  # not started yet
                continue
            add_profile(profile, self.self_ms, self.total_ms)

    def close(self) -> None:
        self.profile_collect()
        if self.spectator:
            self.spectator.close()
        for context in self.contexts:
            context.close()


def add_profile(
    profile: dict[str, Any], self_ms: dict[str, float], total_ms: dict[str, float]
) -> None:
    """Add a V8 CPU profile's time to ``self_ms`` (in the function itself) and ``total_ms``
    (with what it called), keyed by function, file and line; idle time is left out."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    # a sample stands for the time until the next one (timeDeltas[i] is the time before it)
    own: dict[int, float] = {}
    moments, at = [], profile["startTime"]
    for delta in profile["timeDeltas"]:
        at += delta
        moments.append(at)
    moments.append(profile["endTime"])
    for i, node_id in enumerate(profile["samples"]):
        own[node_id] = own.get(node_id, 0.0) + max(0, moments[i + 1] - moments[i]) / 1000

    def key(node: dict[str, Any]) -> str:
        frame = node["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        where = frame["url"].rsplit("/", 1)[-1]
        return f"{name} {where}:{frame['lineNumber'] + 1}" if where else name

    def walk(node_id: int, open_keys: frozenset[str]) -> float:
        node = nodes[node_id]
        spent = own.get(node_id, 0.0)
        spent += sum(walk(child, open_keys | {key(node)}) for child in node.get("children", []))
        name = key(node)
        if name != "(idle)":
            self_ms[name] = self_ms.get(name, 0.0) + own.get(node_id, 0.0)
            if name not in open_keys:  # a recursive call is counted once
                total_ms[name] = total_ms.get(name, 0.0) + spent
        return spent

    walk(profile["nodes"][0]["id"], frozenset())


def moved_card(view: dict[str, Any], source: str) -> str | None:
    """The card a move from ``source`` takes, in the mover's view: a hand card is named by its
    source; the pay-off pile's and a side stack's is its top card."""
    if source.startswith("h:"):
        return source[2:]
    me = view["players"][view["to_move"]]
    if source == "p":
        return me["payoff_top"]
    stack = me["sides"][int(source[1:]) - 1]
    return stack[-1] if stack else None


def frame_arrival(arrivals: list[list[Any]], version: int) -> tuple[float | None, int]:
    """When a page's socket received the ``state`` of ``version`` (its clock), and its size."""
    for at, data in arrivals:
        frame = json.loads(data)
        if frame.get("type") == "state" and frame.get("version") == version:
            return at, len(data)
    return None, 0


def play_move(table: Table, player: Any) -> dict[str, Any] | None:
    """The player to move plays one move by clicking; its timings (ms from the click), or None
    when the game is over."""
    pages = table.pages
    state = pages[0].evaluate(
        "() => { const t = window.spiteTable; return {over: t.gameOver, version: t.state.version,"
        " to_move: t.view.to_move, me: t.me}; }"
    )
    if state["over"]:
        return None
    mover_index = 0 if state["to_move"] == state["me"] else 1
    mover, other = pages[mover_index], pages[1 - mover_index]
    version = state["version"]
    mover.wait_for_function(READY, arg=version)
    other.wait_for_function(READY, arg=version)
    view = mover.evaluate(
        "() => { const b = window.__bench; b.arrivals = []; b.clicks = [];"
        " return window.spiteTable.view; }"
    )
    move = str(player.choose_from_view(view))
    source, target = move.rsplit("-", 1)
    # on the opponent's screen the mover sits at the top; the center stacks are shared
    pile = f'[data-pile="{target}"]'
    if not target.startswith("c"):
        pile = f"[data-area=top] {pile}"
    other.evaluate(
        "([v, pile, card]) => { const b = window.__bench; b.arrivals = []; b.renders = [];"
        " b.watch(v, pile, card); }",
        [version + 1, pile, moved_card(view, source)],
    )

    mover.locator(f'[data-source="{source}"]').first.click()
    area = "[data-part=centers]" if target.startswith("c") else "[data-area=bottom]"
    mover.locator(f'{area} [data-target="{target}"]').click()

    other.wait_for_function(
        "() => Boolean(window.__bench.watching.painted && window.__bench.watching.drawnPainted)"
    )
    mover.wait_for_function(READY, arg=version + 1)
    mine = mover.evaluate(
        "(v) => { const b = window.__bench; const out = {clicks: b.clicks, sent: b.sent[v],"
        " arrivals: b.arrivals}; b.arrivals = []; return out; }",
        version,
    )
    seen = other.evaluate(
        "() => { const b = window.__bench; const out = {...b.watching, renders: b.renders,"
        " arrivals: b.arrivals}; b.arrivals = []; return out; }"
    )
    own_at, _ = frame_arrival(mine["arrivals"], version + 1)
    frame_at, size = frame_arrival(seen["arrivals"], version + 1)
    assert table.spectator is not None
    server_sent = table.spectator.arrivals.get(version + 1)
    if not mine["clicks"] or mine["sent"] is None or own_at is None or frame_at is None:
        raise SystemExit(f"move {move} at version {version}: a time is missing ({mine}, {seen})")
    m_off, o_off = table.offsets[mover_index], table.offsets[1 - mover_index]
    click = mine["clicks"][-1] - m_off

    def since_click(at: float, offset: float) -> float:
        return round(at - offset - click, 2)

    # the opponent's table's first draw once the frame is in (its draw of the move)
    render = next((r for r in seen["renders"] if r[0] >= frame_at), None)
    return {
        "move": move,
        "version": version + 1,
        "frame_bytes": size,
        "card_matched": seen["matched"],
        "sent": since_click(mine["sent"], m_off),
        "server_sent": since_click(server_sent, 0.0) if server_sent else None,
        "own_state": since_click(own_at, m_off),
        "frame": since_click(frame_at, o_off),
        "drawn": since_click(seen["drawn"], o_off),
        "drawn_painted": since_click(seen["drawnPainted"], o_off),
        "shown": since_click(seen["shown"], o_off),
        "painted": since_click(seen["painted"], o_off),
        "render_ms": round(render[1], 2) if render else None,
        "render_start": since_click(render[0], o_off) if render else None,
    }


#: The spans printed, in the order of a move's path: (from, to) of ``play_move``'s times.
SPANS = {
    "click → sent": ("click", "sent"),
    "sent → server sent (spectator)": ("sent", "server_sent"),
    "server sent → opponent's frame": ("server_sent", "frame"),
    "frame → drawn": ("frame", "drawn"),
    "drawn → painted": ("drawn", "drawn_painted"),
    "drawn → shown (the flight)": ("drawn", "shown"),
    "shown → painted": ("shown", "painted"),
    "click → opponent's frame": ("click", "frame"),
    "click → move first painted": ("click", "drawn_painted"),
    "click → card painted at rest": ("click", "painted"),
    "sent → mover's own state": ("sent", "own_state"),
}


def summary(moves: list[dict[str, Any]]) -> dict[str, Any]:
    def span(a: str, b: str) -> list[float]:
        pairs = [(0.0 if a == "click" else m[a], m[b]) for m in moves]
        return [end - start for start, end in pairs if start is not None and end is not None]

    out = {name: percentiles(span(a, b)) for name, (a, b) in SPANS.items()}
    out["render() of the opponent's table"] = percentiles(
        [m["render_ms"] for m in moves if m["render_ms"] is not None]
    )
    out["frame → render() starts"] = percentiles(
        [m["render_start"] - m["frame"] for m in moves if m["render_start"] is not None]
    )
    return out


def print_summary(motion: str, figures: dict[str, Any]) -> None:
    print(f"  opponent's browser: {'reduced motion' if motion == 'reduce' else 'animated'}")
    print(f"    {'ms':<34} {'n':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    for name, p in figures.items():
        print(
            f"    {name:<34} {p['n']:>5} {p['p50']:>7.1f} {p['p95']:>7.1f} {p['p99']:>7.1f}"
            f" {p['max']:>7.1f}"
        )


def top(spent: dict[str, float], count: int) -> dict[str, float]:
    ranked = sorted(spent.items(), key=lambda item: -item[1])[:count]
    return {name: round(ms, 1) for name, ms in ranked}


def print_profile(table: Table) -> None:
    """The functions the two pages spent most time in, themselves and with what they called
    ((program): the browser's own work outside JavaScript: style, layout, paint, input)."""
    print("    profile, both pages, ms in the function itself:")
    for name, ms in top(table.self_ms, 15).items():
        print(f"      {ms:>9.1f}  {name}")
    print("    ms in the function with what it called (table.js and cards.js):")
    ours = {k: v for k, v in table.total_ms.items() if "table.js" in k or "cards.js" in k}
    for name, ms in top(ours, 15).items():
        print(f"      {ms:>9.1f}  {name}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.table_latency", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--moves", type=int, default=300, help="moves to time (all passes)")
    parser.add_argument(
        "--motion",
        choices=["both", "no-preference", "reduce"],
        default="both",
        help="the browsers' prefers-reduced-motion: both (half the moves each, default), "
        "no-preference (the table animates each move) or reduce",
    )
    parser.add_argument("--payoff", type=int, default=10, help="pay-off pile size (10: Standard)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="run V8's CPU profiler in both pages and print where their time went, by function "
        "(the profiler slows the pages: its run's times are not the figures)",
    )
    parser.add_argument("--json", type=Path, help="default bench/results/table-latency-<UTC>.json")
    parser.add_argument(
        "--database",
        type=Path,
        help="an SQLite file with every migration already applied, to use instead of migrating "
        "a new one (the smoke test passes a copy of its migrated template)",
    )
    return parser.parse_args(argv)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")  # the finally blocks clean up


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    signal.signal(signal.SIGTERM, _stop)
    from playwright.sync_api import sync_playwright

    import engine

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium")
    motions = ["no-preference", "reduce"] if args.motion == "both" else [args.motion]
    share = [
        args.moves // len(motions) + (i < args.moves % len(motions)) for i in range(len(motions))
    ]
    prefix = f"benchtl{secrets.token_hex(4)}"
    logdir = srv.new_logdir(prefix)
    out = args.json or (
        srv.ROOT / "bench" / "results" / f"table-latency-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=srv.ROOT, capture_output=True, text=True
    ).stdout.strip()
    result: dict[str, Any] = {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "moves": args.moves,
        "payoff_size": args.payoff,
        "profiled": args.profile,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "targets_ms": TARGETS_MS,
        "passes": [],
    }
    print(f"bench/table_latency: {args.moves} moves ({', '.join(motions)}); logs in {logdir}")
    database = args.database or logdir / "bench.sqlite3"
    env = srv.site_env(
        database_url=f"sqlite:///{database}",
        redis_url="",
        prefix=prefix,
        logdir=logdir,
        lift_throttle=True,  # a player here sends a move every few hundred ms, all turn long
        extra_settings=EXTRA_SETTINGS,
    )
    env["LOG_LEVEL"] = "WARNING"
    try:
        if args.database is None:
            srv.manage(env, "migrate", "--noinput")
        with (
            srv.servers("daphne", 1, env, logdir, job_workers=0) as running,
            sync_playwright() as playwright,
        ):
            base = running.urls[0]
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            storage, names = [], []
            for prefix_ in ("tla", "tlb"):
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                names.append(sign_up(page, base, prefix_))
                storage.append(context.storage_state())
                context.close()
            # a game of ~60-120 moves with these choices: plenty made ahead, one game each
            games = json.loads(
                srv.shell(
                    env,
                    MAKE_MATCHES.format(
                        a=names[0], b=names[1], payoff=args.payoff, count=args.moves // 20 + 4
                    ),
                )
            )
            player = engine.bot("greedy", seed=0)
            started = time.perf_counter()
            for motion, count in zip(motions, share, strict=True):
                table = Table(browser, storage, motion, args.profile)
                moves: list[dict[str, Any]] = []
                try:
                    began = time.perf_counter()
                    table.open(base, games[0])
                    skew = round(table.offsets[0] - table.offsets[1], 2)
                    while len(moves) < count:
                        timed = play_move(table, player)
                        if timed is None:  # the game is over: the next match
                            games.pop(0)
                            if not games:
                                raise SystemExit("out of games: raise MAKE_MATCHES' count")
                            table.open(base, games[0])
                            continue
                        moves.append(timed)
                    played = time.perf_counter() - began
                finally:
                    table.close()
                figures = summary(moves)
                print_summary(motion, figures)
                print(
                    f"    {len(moves)} moves in {played:.0f} s; the pages' clocks agree within"
                    f" {table.uncertainty:.1f} ms"
                )
                if args.profile:
                    print_profile(table)
                result["passes"].append(
                    {
                        "motion": motion,
                        "clock_skew_between_pages_ms": skew,
                        "clock_offsets_error_ms": round(table.uncertainty, 2),
                        "played_s": round(played, 1),
                        "frame_bytes_mean": round(statistics.mean(m["frame_bytes"] for m in moves)),
                        "card_at_its_place": sum(bool(m["card_matched"]) for m in moves),
                        "figures": figures,
                        "profile_self_ms": top(table.self_ms, 40) if args.profile else None,
                        "profile_total_ms": top(table.total_ms, 40) if args.profile else None,
                        "moves": moves,
                    }
                )
            result["duration_s"] = round(time.perf_counter() - started, 1)
            browser.close()
    finally:
        for path in logdir.glob("bench.sqlite3*"):
            path.unlink()
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    for entry in result["passes"]:
        total = entry["figures"]["click → card painted at rest"]
        verdict = all(total[k] <= v for k, v in TARGETS_MS.items())
        entry["within_target"] = verdict
        print(
            f"  {entry['motion']}: click → painted p50 {total['p50']} ms, p95 {total['p95']} ms"
            f" (target p50 ≤ {TARGETS_MS['p50']:.0f}, p95 ≤ {TARGETS_MS['p95']:.0f}):"
            f" {'within' if verdict else 'NOT within'}"
        )
    print(
        f"  load average before {result['load_average_before']}, after"
        f" {result['load_average_after']} (the machine should be idle)"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"JSON: {out}")
    return result


if __name__ == "__main__":
    main()
