"""A real daphne server (HTTP + WebSockets) on a fresh SQLite file, for tests that need the
whole site over the network: the browser tests (tests/browser) and the example bot client
(tests/examples).

pytest-django's ``live_server`` serves no WebSockets, so these tests start daphne in a
subprocess instead:

- ``serve(workdir, env=..., unavailable=...)``: a context manager that makes
  ``workdir/db.sqlite3`` a copy of a migrated database (migrated once per test process,
  ``migrated``), serves it with daphne on a free port beside a job worker (``manage.py
  qcluster``: the bots' moves) and stops both on exit, yielding a :class:`LiveServer` —
  ``url``, ``database_url``, ``env`` and ``manage(*args)`` to run a management command against
  the server's own database. ``job_worker(env, log)`` starts another worker (a
  :class:`JobWorker`).
- ``serve(..., database_url=url, migrate=False)``: another server on a database already made
  (several processes serving one site; ``postgres_database(url)`` makes a fresh PostgreSQL
  database beside ``url``'s and drops it on exit).
- ``LiveServer.kill()`` (SIGKILL, a crash), ``stop()`` and ``start()`` (again, same port
  and database); ``LiveServer.shell(code)`` runs code in ``manage.py shell`` and
  returns the JSON it printed last.
- ``live_database(workdir)``: PostgreSQL of its own when the run's ``DATABASE_URL`` is, else a
  SQLite file; ``player_with_games``, ``game_socket`` and ``recv_until`` play over the network
  with an API token (tests/games/test_durability.py, test_races.py).
- ``daphne_server`` (session fixture): ``serve`` with the defaults; ``live_server_url`` and
  ``manage`` (session) are shorthands. A conftest imports the three to use them.

The test process never opens the server's database: data is made through the site itself or
with ``manage(...)``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Coroutine, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bench.live.servers import free_port, fresh_database, redis_prefix_named

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the virtualenv's bin/, where daphne is installed
STARTUP_TIMEOUT = 30.0


@dataclass
class LiveServer:
    url: str
    database_url: str
    env: dict[str, str] = field(repr=False)
    #: The running daphne (``serve`` sets it; ``start`` replaces it) and where it logs.
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    log_path: Path | None = field(default=None, repr=False)
    #: The job workers ``serve`` started beside it (the bots' moves run there).
    workers: list[JobWorker] = field(default_factory=list, repr=False)
    #: Where ``manage`` runs its commands when ``serve`` made the server: forks of one process
    #: that has set Django up (``ManageForks``); else a ``manage.py`` process each.
    forks: ManageForks | None = field(default=None, repr=False)

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run `manage.py <args>` against the server's database; output is captured."""
        if self.forks is not None:
            result = self.forks.run(args, timeout=120)
        else:
            result = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), *args],
                cwd=ROOT,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=120,
            )
        if check and result.returncode != 0:
            raise AssertionError(
                f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
                f"{result.stdout}\n{result.stderr}"
            )
        return result

    def shell(self, code: str) -> Any:
        """Run ``code`` in ``manage.py shell`` on the server's database; the JSON it printed
        last (its last line of output)."""
        output = self.manage("shell", "--no-imports", "-c", code).stdout
        return json.loads(output.strip().splitlines()[-1])

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """The rows of a read-only SQL query (``%s`` placeholders) on the server's database,
        read directly: a poll or a check that needs no ``manage.py`` process (each costs a
        Django start, a second or more of CPU)."""
        if self.database_url.startswith("sqlite:///"):
            path = self.database_url.removeprefix("sqlite:///")
            with contextlib.closing(sqlite3.connect(path, timeout=10)) as connection:
                return connection.execute(sql.replace("%s", "?"), params).fetchall()
        import psycopg

        with psycopg.connect(self.database_url) as connection:
            return connection.execute(sql, params).fetchall()

    def kill(self) -> None:
        """SIGKILL the server, as a crash would: no shutdown, its sockets just drop."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server politely (SIGTERM), or kill it after 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def start(self) -> None:
        """Start daphne again on the same port and database (after ``kill`` or ``stop``) and
        wait for /healthz; its log goes on in the same file."""
        assert self.log_path is not None, "start() restarts a server that serve() made"
        port = urllib.parse.urlsplit(self.url).port
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "spite.asgi:application"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        problem = _wait_until_healthy(self.url, self.process)
        if problem:
            log_text = self.log_path.read_text(errors="replace")
            raise AssertionError(f"the server did not restart: {problem}\n{log_text}")


class ManageForks:
    """``manage.py`` commands run with ``env``, each in a process forked from one that imported
    the site and set Django up once (tests/manage_forks.py), which starts on the first command:
    about a second of CPU less a command than a ``manage.py`` process of its own. A command
    behaves as in ``manage.py``: its own process, database connections, output and exit code."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.process: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()  # one command at a time, whichever thread asks

    def run(self, args: tuple[str, ...], *, timeout: float) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(ROOT / "manage.py"), *args]
        with self.lock:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    [sys.executable, str(ROOT / "tests" / "manage_forks.py")],
                    cwd=ROOT,
                    env=self.env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps({"args": args, "timeout": timeout}) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        if not line:
            raise AssertionError(f"tests/manage_forks.py ended (code {self.process.poll()})")
        reply = json.loads(line)
        if reply["timed_out"]:
            raise subprocess.TimeoutExpired(command, timeout, reply["stdout"], reply["stderr"])
        return subprocess.CompletedProcess(
            command, reply["returncode"], reply["stdout"], reply["stderr"]
        )

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.stdin is not None:
            self.process.stdin.close()  # it ends at the end of its input
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


@dataclass
class JobWorker:
    """A job worker (``manage.py qcluster``: a cluster of processes) beside a server, in a
    process group of its own so that ``kill`` takes the whole cluster, as a crash would."""

    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_running(self, timeout: float = STARTUP_TIMEOUT) -> None:
        """Until the cluster says it runs (or fail with its log)."""
        deadline = time.monotonic() + timeout
        while "running." not in self.log():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the job worker did not start:\n{self.log()}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL every process of the cluster."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM the cluster (it finishes the job under way), then SIGKILL whatever of it is
        left after 5 s."""
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        self.kill()


def job_worker(
    env: Mapping[str, str],
    log_path: Path,
    *,
    queue: str = "play",
    extra: Mapping[str, str] | None = None,
) -> JobWorker:
    """Start a job worker for ``queue`` with the server's environment ``env`` (plus ``extra``)."""
    worker_env = {**env, "Q_CLUSTER_NAME": queue, "JOBS_LOG_LEVEL": "INFO", **(extra or {})}
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "qcluster"],
            cwd=ROOT,
            env=worker_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return JobWorker(process, log_path)


def server_env(database_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The server's environment: this one without the deployment's variables, DEBUG on, the
    given SQLite file, no Redis, the site's settings with a fast password hasher
    (tests/server_settings.py), then ``extra``."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "EMAIL_URL"):
        env.pop(name, None)
    python_path = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "tests.server_settings",  # the site's, a fast hasher
            "PYTHONPATH": python_path,
            "DATABASE_URL": database_url,
            "DEBUG": "true",
            "PYTHONUNBUFFERED": "1",
            "JOBS_PLAY_WORKERS": "1",
        }
    )
    env.update(extra or {})
    return env


def postgres_database(url: str, *, prefix: str = "spite_live") -> AbstractContextManager[str]:
    """A fresh, empty PostgreSQL database on the server ``url`` names, as a URL; dropped on
    exit (the bench's ``fresh_database``)."""
    return fresh_database(url, prefix=prefix)


# A migrated database of each kind, made once per test process, which each new server's
# database copies (a file copy, or PostgreSQL's CREATE DATABASE … TEMPLATE) instead of running
# every migration again; keyed by "sqlite" or the PostgreSQL server's address. Removed when the
# process exits.
_MIGRATED_TEMPLATES: dict[str, str] = {}
_TEMPLATES_STACK = ExitStack()
atexit.register(_TEMPLATES_STACK.close)


def _migrated_template(database_url: str) -> str:
    """The URL of this process's migrated template of ``database_url``'s kind, made and
    migrated on first use."""
    parts = urllib.parse.urlsplit(database_url)
    key = "sqlite" if parts.scheme == "sqlite" else parts.netloc
    if key not in _MIGRATED_TEMPLATES:
        if key == "sqlite":
            directory = _TEMPLATES_STACK.enter_context(
                tempfile.TemporaryDirectory(prefix="spite_template_")
            )
            url = f"sqlite:///{Path(directory) / 'db.sqlite3'}"
        else:
            url = _TEMPLATES_STACK.enter_context(
                fresh_database(database_url, prefix="spite_template")
            )
        LiveServer(url=url, database_url=url, env=server_env(url)).manage("migrate", "--noinput")
        _MIGRATED_TEMPLATES[key] = url
    return _MIGRATED_TEMPLATES[key]


def migrated(database_url: str) -> None:
    """Give the empty database ``database_url`` every migration's schema, as a copy of this
    process's migrated template: the SQLite file is copied (it must not exist yet); the
    PostgreSQL database, just made and with nobody connected, is made again from the
    template."""
    template = _migrated_template(database_url)
    parts = urllib.parse.urlsplit(database_url)
    if parts.scheme == "sqlite":
        source, target = Path(urllib.parse.urlsplit(template).path), Path(parts.path)
        assert not target.exists(), f"{target} exists: migrated() fills a new database"
        for suffix in ("", "-wal"):  # the write-ahead log, if the migration left one
            if source.with_name(source.name + suffix).exists():
                shutil.copyfile(source.with_name(source.name + suffix), f"{target}{suffix}")
        return
    import psycopg
    from psycopg import sql

    name, template_name = parts.path.lstrip("/"), urllib.parse.urlsplit(template).path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))
        create = sql.SQL("CREATE DATABASE {} TEMPLATE {}")
        conn.execute(create.format(sql.Identifier(name), sql.Identifier(template_name)))


def until(condition: Callable[[], bool], what: str, within: float = 30.0) -> float:
    """Seconds until ``condition()`` held, polled every 0.1 s; fails after ``within``."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > within:
            raise AssertionError(f"{what} did not happen within {within:.0f} s")
        time.sleep(0.1)
    return time.monotonic() - start


def healthz_status(server: LiveServer) -> int:
    """The status ``/healthz`` answers (0: no answer within 10 s)."""
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 0


def _wait_until_healthy(url: str, process: subprocess.Popen[bytes]) -> str | None:
    """None once /healthz answers 200; otherwise why the server is not up."""
    deadline = time.monotonic() + STARTUP_TIMEOUT
    last = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"daphne exited with code {process.returncode}"
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return None
                last = f"/healthz answered {response.status}"
        except urllib.error.HTTPError as exc:
            last = f"/healthz answered {exc.code}"
        except OSError as exc:
            last = f"{exc.__class__.__name__}: {exc}"
        time.sleep(0.2)
    return f"/healthz did not answer 200 within {STARTUP_TIMEOUT:.0f} s ({last})"


@contextmanager
def serve(
    workdir: Path,
    *,
    env: Mapping[str, str] | None = None,
    unavailable: Callable[[str], Any] = pytest.fail,
    database_url: str | None = None,
    migrate: bool = True,
    job_workers: int | None = None,
) -> Iterator[LiveServer]:
    """Migrate a fresh SQLite file in ``workdir``, serve it with daphne on a free port (with
    ``env`` added to the server's environment), stop it on exit. If daphne cannot start,
    ``unavailable(reason)`` is called (``pytest.fail`` by default; ``pytest.skip`` for tests
    that only make sense with a server) with daphne's log in the reason.

    ``database_url`` serves that database instead (e.g. ``postgres_database``'s);
    ``migrate=False`` leaves it as it is (a second server on a database already migrated);
    otherwise the database, new and empty, becomes a copy of a migrated one (``migrated``).
    ``job_workers`` play-queue workers start beside it and stop with it (the bots' moves; by
    default one, none for a second server on a database already made: its site has one)."""
    if database_url is None:
        database_url = f"sqlite:///{workdir / 'db.sqlite3'}"  # absolute path: sqlite:////tmp/…
    server = LiveServer(url="", database_url=database_url, env=server_env(database_url, env))
    server.forks = ManageForks(server.env)
    daphne = BIN / "daphne"
    if not daphne.exists():
        unavailable(f"daphne not found at {daphne}: pip install -e '.[dev]'")
    if migrate:
        migrated(database_url)
    # Picked after the migration, just before daphne binds it: the port lies free for as short a
    # time as can be, where another process (another xdist worker's server) could take it.
    port = free_port()
    server.url = f"http://127.0.0.1:{port}"

    log_path = workdir / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(port), "spite.asgi:application"],
            cwd=ROOT,
            env=server.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    if job_workers is None:
        job_workers = 1 if migrate else 0
    server.workers = [job_worker(server.env, workdir / f"jobs-{n}.log") for n in range(job_workers)]
    try:
        problem = _wait_until_healthy(server.url, process)
        if problem:
            log_text = log_path.read_text(errors="replace")
            unavailable(f"the live server did not start: {problem}\n--- daphne log ---\n{log_text}")
        server.process, server.log_path = process, log_path
        yield server
    finally:
        server.process = server.process or process
        server.stop()  # the process now running: a restart may have replaced the first
        for worker in server.workers:
            worker.stop()
        server.forks.close()


@pytest.fixture(scope="session")
def daphne_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server for the whole session (per xdist worker)."""
    with serve(tmp_path_factory.mktemp("live_server")) as server:
        yield server


@pytest.fixture(scope="session")
def live_server_url(daphne_server: LiveServer) -> str:
    return daphne_server.url


@pytest.fixture(scope="session")
def manage(daphne_server: LiveServer) -> Any:
    return daphne_server.manage


# --- crashes and races: a database like the test run's, sockets of a program --------------------


@contextmanager
def live_database(workdir: Path) -> Iterator[str]:
    """A database for server processes, of the kind the test run uses: a fresh PostgreSQL
    database beside ``DATABASE_URL``'s when that is PostgreSQL (dropped on exit), else a
    SQLite file in ``workdir``. Yields its URL, still empty (``serve`` migrates it)."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        with postgres_database(url) as database_url:
            yield database_url
    else:
        yield f"sqlite:///{workdir / 'db.sqlite3'}"


def postgres_and_redis() -> tuple[str, str] | None:
    """``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` when both are set, as in CI's second
    pass; else None (the caller skips, or serves SQLite)."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if database_url.startswith(("postgres://", "postgresql://")) and redis_url:
        return database_url, redis_url
    return None


@contextmanager
def redis_site_env(redis_url: str, name: str, *, pool_max: int = 4) -> Iterator[dict[str, str]]:
    """The environment of server processes that share Redis under a key prefix of their own
    (``name`` and a random suffix; its keys are deleted at the end), with a small database pool
    each."""
    with redis_prefix_named(redis_url, f"{name}{secrets.token_hex(4)}") as prefix:
        yield {
            "REDIS_URL": redis_url,
            "CHANNELS_PREFIX": prefix,
            "CACHE_PREFIX": prefix,
            "DATABASE_POOL_MIN": "1",
            "DATABASE_POOL_MAX": str(pool_max),
        }


@contextmanager
def serve_like_the_run(
    workdir: Path,
    *,
    name: str,
    env: Mapping[str, str] | None = None,
    unavailable: Callable[[str], Any] = pytest.fail,
    pool_max: int = 8,
) -> Iterator[LiveServer]:
    """``serve`` on the kind of site the test run uses: when ``DATABASE_URL`` is PostgreSQL and
    ``REDIS_URL`` is set (CI's second pass), a fresh PostgreSQL database beside the run's
    (dropped at the end) and Redis under a key prefix of its own named after ``name`` (its keys
    deleted at the end); else a SQLite file and the in-memory layer. ``env`` is added to the
    server's environment either way."""
    urls = postgres_and_redis()
    if urls is None:
        with serve(workdir, env=env, unavailable=unavailable) as server:
            yield server
        return
    database_url, redis_url = urls
    with (
        redis_site_env(redis_url, name, pool_max=pool_max) as site,
        postgres_database(database_url, prefix=f"spite_{name}") as database,
        serve(
            workdir, env={**site, **(env or {})}, database_url=database, unavailable=unavailable
        ) as server,
    ):
        yield server


def player_with_games(server: LiveServer, *, games: int, payoff: int = 5) -> dict[str, Any]:
    """A new player with an API token and ``games`` casual matches against the greedy bot
    (pay-off piles of ``payoff``, first to 10 points), each dealt so that the player (seat 0)
    starts with two center plays open; returns ``{"username", "key", "games": [first game
    ids]}``."""
    return server.shell(
        "import itertools, json, secrets\n"
        "import engine\n"
        "from accounts.models import User\n"
        "from api.services import api_token_create\n"
        "from games import services\n"
        f"rules = engine.Rules(payoff_size={payoff}, match_target=10)\n"
        "def opens(seed):\n"
        "    game = engine.Game.new(seed=seed, rules=rules)\n"
        "    center = [m for m in game.legal_moves() if '-c' in m.text]\n"
        "    return game.to_move == 0 and len(center) >= 2\n"
        "seed = next(s for s in itertools.count(1) if opens(s))\n"
        "services._new_seed = lambda: seed\n"
        "name = 'p' + secrets.token_hex(4)\n"
        "user = User.objects.create_user(username=name, password=secrets.token_hex(8))\n"
        "key = api_token_create(user=user, name='tests')[1]\n"
        "def deal():\n"
        "    match = services.match_create(user=user, bot='greedy', rules=rules)\n"
        "    return match.games.get(number=1).pk\n"
        f"ids = [deal() for _ in range({games})]\n"
        "print(json.dumps({'username': name, 'key': key, 'games': ids}))"
    )


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: Playwright's sync API (the browser tests, earlier
    in the same process) leaves an event loop running on the main thread, where
    ``asyncio.run`` refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def game_socket(server: LiveServer, game_id: int, key: str) -> Any:
    """A connected ``websockets`` client on the game's socket, authenticated by the API token
    ``key`` and sending the server's own Origin."""
    import websockets

    return await websockets.connect(
        server.url.replace("http://", "ws://") + f"/ws/games/{game_id}/",
        additional_headers={"Authorization": f"Bearer {key}"},
        origin=server.url,
        open_timeout=10,
    )


async def recv_until(
    socket: Any, done: Callable[[dict[str, Any]], bool], *, timeout: float = 10.0
) -> list[dict[str, Any]]:
    """Frames from ``socket`` up to and including the first one ``done`` accepts; fails the
    test if none arrives within ``timeout`` seconds."""
    import asyncio

    received: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        left = deadline - loop.time()
        if left <= 0:
            raise AssertionError(f"no awaited frame within {timeout} s; got {received}")
        try:
            frame = json.loads(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            continue
        received.append(frame)
        if done(frame):
            return received
