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
- ``docs_img`` (function): ``docs_img(page, "name")`` saves the page as ``docs/img/name.png``
  when the run has ``--docs-img`` (``make docs-img``), and does nothing otherwise.
- ``page`` (function): a fresh ``Page`` in a new browser context (cookies, storage) per test;
  on failure a screenshot is saved to ``test-results/<test name>.png``.

The live-server machinery lives in ``tests/live_server.py`` (shared with the example client's
tests). The server has its own database — a SQLite file, or, when the run has both
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (CI's second pass), a fresh PostgreSQL database
beside the run's and Redis under a key prefix of its own — so browser tests never use
pytest-django's ``db`` fixture: they create data through the site itself or with
``manage(...)``, which runs with the server's own environment (same database, same Redis).
Where Chromium or Playwright is missing, every browser test is skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import (  # noqa: F401  (the live-server fixtures, shared with tests/examples)
    ROOT,
    LiveServer,
    live_server_url,
    manage,
    serve_like_the_run,
)

CHROMIUM = os.environ.get("SPITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DEFAULT_TIMEOUT_MS = 10_000


#: The server's bots pause this long before each move (production: 0.4 s): still a frame a
#: move, but a bot's turn no longer holds a test up for seconds.
#: And the cap on a player's bot matches in progress is lifted: the fixtures seat one player at
#: many bot matches at once, and the demo players' matches add up over a session.
SERVER_ENV = {"GAMES_BOT_MOVE_DELAY": "0.05", "GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT": "1000"}


@pytest.fixture(scope="session")
def daphne_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The browser tests' server for the whole session (per xdist worker), on the kind of site
    the run uses (``serve_like_the_run``: PostgreSQL and Redis in CI's second pass, else SQLite
    and the in-memory layer). ``manage(...)`` runs with the server's environment, so the data a
    test makes lands in the database the server serves."""
    workdir = tmp_path_factory.mktemp("live_server")
    with serve_like_the_run(workdir, name="spitebr", env=SERVER_ENV) as server:
        yield server


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


@pytest.fixture
def docs_img(request: pytest.FixtureRequest) -> Any:
    """``shoot(page, name)``: the page's viewport as ``docs/img/<name>.png``, only in a run with
    ``--docs-img`` — the docs' pictures are made on purpose, never rewritten by every run."""
    wanted = request.config.getoption("--docs-img")

    def shoot(page: Any, name: str) -> None:
        if wanted:
            out = ROOT / "docs" / "img"
            out.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out / f"{name}.png"))

    return shoot
