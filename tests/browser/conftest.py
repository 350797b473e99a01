"""Browser tests: a real daphne server (HTTP + WebSockets) driven by Debian's Chromium.

pytest-django's ``live_server`` serves no WebSockets, and Playwright's sync API cannot run
inside an asyncio loop, so browser tests live here, in their own modules, and use these
fixtures (not pytest-django's ``live_server``, whose name is avoided on purpose):

- ``daphne_server`` (session): a :class:`LiveServer` — ``url``, ``database_url``, ``env`` and
  ``manage(*args)`` to run a management command against the server's own database.
- ``live_server_url`` (session): the server's base URL, e.g. ``http://127.0.0.1:41234``
  (no trailing slash).
- ``manage`` (session): ``manage("load_demo")`` — shorthand for ``daphne_server.manage``.
- ``browser`` (session): a Playwright ``Browser`` on ``/usr/bin/chromium``.
- ``page`` (function): a fresh ``Page`` in a new browser context (cookies, storage) per test;
  on failure a screenshot is saved to ``test-results/<test name>.png``.

The server has its own file-based SQLite database, so browser tests never use pytest-django's
``db`` fixture: they create data through the site itself or with ``manage(...)``.
Where Chromium or Playwright is missing, every browser test is skipped with the reason.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtualenv's bin/, where daphne is installed
CHROMIUM = os.environ.get("SPITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
STARTUP_TIMEOUT = 30.0
DEFAULT_TIMEOUT_MS = 10_000


def _skip_reason() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM}: apt-get install -y chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"playwright cannot be imported ({exc}): pip install -e '.[dev]'"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under tests/browser as `browser`, and skip them all when they can't run.

    Skipping here (not in a fixture) means the server is never started for nothing.
    """
    here = Path(__file__).parent
    reason = _skip_reason()
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
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


def _server_env(database_url: str) -> dict[str, str]:
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


@pytest.fixture(scope="session")
def daphne_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Migrate a fresh SQLite file, serve it with daphne on a free port, stop it at the end."""
    workdir = tmp_path_factory.mktemp("live_server")
    database_url = f"sqlite:///{workdir / 'db.sqlite3'}"  # absolute path: sqlite:////tmp/…
    env = _server_env(database_url)
    port = _free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", database_url=database_url, env=env)
    server.manage("migrate", "--noinput")

    log_path = workdir / "daphne.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "spite.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        problem = _wait_until_healthy(server.url, process)
        if problem:
            log_text = log_path.read_text(errors="replace")
            pytest.fail(f"the live server did not start: {problem}\n--- daphne log ---\n{log_text}")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def live_server_url(daphne_server: LiveServer) -> str:
    return daphne_server.url


@pytest.fixture(scope="session")
def manage(daphne_server: LiveServer) -> Any:
    return daphne_server.manage


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    new_page = context.new_page()
    try:
        yield new_page
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            out = ROOT / "test-results"
            out.mkdir(exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in request.node.name)
            try:
                new_page.screenshot(path=str(out / f"{safe}.png"), full_page=True)
            except Exception as exc:  # a failed screenshot must not hide the test's failure
                print(f"screenshot failed: {exc}")
        context.close()
