"""The server side of a bench run: a fresh database, Redis key prefixes, server processes,
players with API tokens made by a Django script, and /proc samples of the processes.

Used by ``bench.live`` and ``bench/deploy_compare.py``. Bench code never imports ``tests/``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SERVERS = ("daphne", "uvicorn", "uvicorn-workers")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def fresh_database(url: str, *, prefix: str = "spite_bench") -> Iterator[str]:
    """A new, empty PostgreSQL database beside ``url``'s (same server, user and password),
    named ``<prefix>_<hex>``; yields its URL. Dropped at the end ``WITH (FORCE)``: servers may
    still hold connections. (tests/live_server.py's ``postgres_database`` too.)"""
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlsplit(url)
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            conn.execute(drop.format(sql.Identifier(name)))


@contextmanager
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of our own under ``redis_url``; its keys are deleted at the end."""
    with redis_prefix_named(redis_url, f"bench{secrets.token_hex(4)}") as prefix:
        yield prefix


@contextmanager
def redis_prefix_named(redis_url: str, prefix: str) -> Iterator[str]:
    """``prefix``'s keys under ``redis_url`` are deleted at the end."""
    import redis

    try:
        yield prefix
    finally:
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
        client.close()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def shell(env: dict[str, str], script: str) -> str:
    """Run ``script`` in ``manage.py shell``; its last line of output."""
    return manage(env, "shell", "--no-imports", "-c", script).strip().splitlines()[-1]


def wait_healthy(url: str, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in processes):
            raise SystemExit("a server process exited; see its log")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"{url}/healthz did not answer 200 within 30 s")


#: How much the job workers lower their priority (as docs/deploy.md's units: Nice=5 for the
#: play queue, 19 for the background queue's reviews).
JOB_WORKER_NICE = 5
BACKGROUND_WORKER_NICE = 19


@dataclass
class Servers:
    urls: list[str]
    pids: list[int]
    #: The job workers' processes (``manage.py qcluster`` and the cluster it started).
    job_worker_pids: list[int] = field(default_factory=list)


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (Linux's /proc)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        path = Path(f"/proc/{current}/task/{current}/children")
        with contextlib.suppress(OSError):
            todo += [int(child) for child in path.read_text().split()]
    return found


def wait_running(log: Path, process: subprocess.Popen[bytes]) -> None:
    """Wait until a job worker (``manage.py qcluster``) says on its output that it runs."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"manage.py qcluster exited; see {log}")
        if log.exists() and "running." in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise SystemExit(f"manage.py qcluster did not run within 30 s; see {log}")


@contextmanager
def servers(
    kind: str,
    count: int,
    env: dict[str, str],
    logdir: Path,
    *,
    job_workers: int = 1,
    background_workers: int = 0,
) -> Iterator[Servers]:
    """Start the servers, and ``job_workers`` job workers (``manage.py qcluster``, the play
    queue: the bots' moves) and ``background_workers`` of the background queue (reviews)
    beside them with the same environment; yield the servers' base
    URLs (one per port) and the process ids. All are stopped (SIGTERM, then SIGKILL after
    15 s) at the end."""
    ports = [free_port() for _ in range(1 if kind == "uvicorn-workers" else count)]
    commands = {
        "daphne": lambda port: [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port)],
        "uvicorn": lambda port: [
            *(str(BIN / "uvicorn"), "--host", "127.0.0.1", "--port", str(port)),
            "--no-access-log",
        ],
        "uvicorn-workers": lambda port: [
            *(str(BIN / "uvicorn"), "--host", "127.0.0.1", "--port", str(port)),
            *("--no-access-log", "--workers", str(count)),
        ],
    }
    processes: list[subprocess.Popen[bytes]] = []
    workers: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            with (logdir / f"{kind}-{port}.log").open("wb") as log:
                command = [*commands[kind](port), "spite.asgi:application"]
                processes.append(
                    subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
                )
        for number in range(job_workers + background_workers):
            log_path = logdir / f"qcluster-{number}.log"
            # INFO: the cluster's "running." line, waited for below
            worker_env = {**env, "JOBS_LOG_LEVEL": "INFO"}
            nice = JOB_WORKER_NICE
            if number >= job_workers:
                worker_env["Q_CLUSTER_NAME"] = "background"
                nice = BACKGROUND_WORKER_NICE
            with log_path.open("wb") as log:
                # at a lower priority, as docs/deploy.md runs them: a table's moves come first
                command = ["nice", "-n", str(nice), sys.executable]
                if number >= job_workers:  # SCHED_IDLE: only what nothing else wants
                    command = ["chrt", "--idle", "0", *command]
                command += [str(ROOT / "manage.py"), "qcluster"]
                workers.append(
                    subprocess.Popen(
                        command,
                        cwd=ROOT,
                        env=worker_env,
                        stdout=log,
                        stderr=log,
                        start_new_session=True,
                    )
                )
            wait_running(log_path, workers[-1])
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url in urls:
            wait_healthy(url, processes + workers)
        worker_pids = [pid for worker in workers for pid in descendants(worker.pid)]
        yield Servers(urls, [p.pid for p in processes], worker_pids)
    finally:
        for process in processes:
            process.terminate()
        for worker in workers:
            worker.terminate()  # the cluster stops its own processes
        for process in processes + workers:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for worker in workers:  # whatever of a cluster outlived its sentinel
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)


def site_env(
    *,
    database_url: str,
    redis_url: str,
    prefix: str,
    logdir: Path,
    lift_throttle: bool,
    extra_settings: str = "",
) -> dict[str, str]:
    """The environment of the site's processes: production settings (DEBUG off), our own
    database and Redis prefixes, the bench floors routed, and a settings module in ``logdir``
    that imports ``spite.settings`` without the cap on sockets per client (the bench is one
    client) and lifting the socket's throttle when asked."""
    overrides = "from spite.settings import *  # noqa: F403\n"
    overrides += "SOCKETS_PER_CLIENT = 0  # every bench socket comes from the one client\n"
    if lift_throttle:
        overrides += "GAMES_WS_THROTTLE = (1_000_000, 1.0)\n"
    (logdir / "bench_settings.py").write_text(overrides + extra_settings)
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CHANNELS_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "BENCH_FLOORS": "true",
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "PYTHONPATH": os.pathsep.join([str(logdir), str(ROOT)]),
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


def new_logdir(prefix: str) -> Path:
    logdir = Path(tempfile.gettempdir()) / prefix
    logdir.mkdir(parents=True, exist_ok=True)
    return logdir


# --- /proc samples (no psutil: it is not installed)

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * _PAGE


@dataclass
class ProcessSamples:
    """CPU% between samples and RSS of one server process."""

    pid: int
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)

    def sample(self) -> None:
        try:
            now, cpu, rss = time.monotonic(), cpu_seconds(self.pid), rss_bytes(self.pid)
        except OSError:
            return
        self.times.append(now)
        self.cpu.append(cpu)
        self.rss.append(rss)

    def cpu_percent(self, since: int = 0) -> float:
        """Average CPU% from sample ``since`` to the last."""
        if len(self.times) - since < 2:
            return 0.0
        spent = self.cpu[-1] - self.cpu[since]
        return 100 * spent / (self.times[-1] - self.times[since])
