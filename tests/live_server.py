"""A real daphne server (HTTP + WebSockets) on a fresh SQLite file, for tests that need the
whole site over the network: the browser tests (tests/browser) and the example bot client
(tests/examples).

pytest-django's ``live_server`` serves no WebSockets, so these tests start daphne in a
subprocess instead:

- ``serve(workdir, env=..., unavailable=...)``: a context manager that migrates
  ``workdir/db.sqlite3``, serves it with daphne on a free port and stops it on exit, yielding a
  :class:`LiveServer` — ``url``, ``database_url``, ``env`` and ``manage(*args)`` to run a
  management command against the server's own database.
- ``daphne_server`` (session fixture): ``serve`` with the defaults; ``live_server_url`` and
  ``manage`` (session) are shorthands. A conftest imports the three to use them.

The test process never opens the server's database: data is made through the site itself or
with ``manage(...)``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the virtualenv's bin/, where daphne is installed
STARTUP_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    database_url: str
    env: dict[str, str] = field(repr=False)

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run `manage.py <args>` against the server's database; output is captured."""
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


def server_env(database_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The server's environment: this one without the deployment's variables, DEBUG on, the
    given SQLite file, no Redis, then ``extra``."""
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "EMAIL_URL"):
        env.pop(name, None)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "spite.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "true",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


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
) -> Iterator[LiveServer]:
    """Migrate a fresh SQLite file in ``workdir``, serve it with daphne on a free port (with
    ``env`` added to the server's environment), stop it on exit. If daphne cannot start,
    ``unavailable(reason)`` is called (``pytest.fail`` by default; ``pytest.skip`` for tests
    that only make sense with a server) with daphne's log in the reason."""
    database_url = f"sqlite:///{workdir / 'db.sqlite3'}"  # absolute path: sqlite:////tmp/…
    port = free_port()
    server = LiveServer(
        url=f"http://127.0.0.1:{port}",
        database_url=database_url,
        env=server_env(database_url, env),
    )
    daphne = BIN / "daphne"
    if not daphne.exists():
        unavailable(f"daphne not found at {daphne}: pip install -e '.[dev]'")
    server.manage("migrate", "--noinput")

    log_path = workdir / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(port), "spite.asgi:application"],
            cwd=ROOT,
            env=server.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        problem = _wait_until_healthy(server.url, process)
        if problem:
            log_text = log_path.read_text(errors="replace")
            unavailable(f"the live server did not start: {problem}\n--- daphne log ---\n{log_text}")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


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
