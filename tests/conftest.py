"""Fixtures shared by the whole suite."""

import functools
import os
import secrets
import types

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--docs-img",
        action="store_true",
        help="the browser tests that illustrate docs/ write their screenshots to docs/img/ "
        "(make docs-img); without it nothing under docs/ is written",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Jobs (a bot's moves) run inline, in the calling thread once the transaction commits; the
    sweeper and the convergence timer run nothing under test, nor do game reviews unless a test
    asks (docs/testing.md). Passwords are
    hashed with MD5: PBKDF2's million rounds cost a third of a second of CPU for each user a
    test makes with a password and each log-in (tests/accounts/test_password.py checks the
    site's own).

    Set for the whole session, before any test module imports ``spite.asgi`` (which starts
    the sweeper unless its interval is 0); a test may still override them with ``settings``.
    """
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.JOBS_INLINE = True
    settings.GAMES_BOT_MOVE_DELAY = 0
    settings.GAMES_SWEEPER_INTERVAL = 0
    settings.GAMES_REVIEWS = False  # seconds of CPU a game: tests/games/test_reviews.py asks
    settings.SOCKETS_CONVERGE_INTERVAL = 0  # a test runs the convergence check when it means to


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """gettext (and its kin) answer "[<active language>]<English>": a test sees in which
    language a text was read, whatever the catalogs say (tests/test_catalogs.py checks those)."""
    from django.utils import translation

    trans = translation._trans

    def mark(text: str) -> str:
        return f"[{translation.get_language()}]{text}"

    monkeypatch.setattr(trans, "gettext", mark, raising=False)
    monkeypatch.setattr(trans, "ngettext", lambda s, p, n: mark(s if n == 1 else p), raising=False)
    monkeypatch.setattr(trans, "pgettext", lambda _context, m: mark(m), raising=False)


@pytest.fixture(autouse=True)
def _games_replay_check(request: pytest.FixtureRequest):
    """After every test that uses the database, before it rolls back: each game's seed and
    Move rows, replayed through the engine, give exactly its stored state."""
    uses_db = (
        request.node.get_closest_marker("django_db") is not None
        or "_django_db_helper" in request.fixturenames
    )
    if not uses_db:
        yield
        return
    request.getfixturevalue("db")  # set up the database first, so this check runs before teardown
    yield
    from games.models import Game
    from games.selectors import game_replay

    for game in Game.objects.select_related("match").order_by("pk"):
        replayed = game_replay(game).to_dict()
        assert replayed == game.state, f"game {game.pk} does not replay to its stored state"


# --- what one test leaves behind in its worker's thread -------------------------------------------


@pytest.fixture(autouse=True)
def _no_language_from_earlier_tests() -> None:
    """A request through the test client (LocaleMiddleware, the language switcher) leaves its
    language active in the thread; whichever test an xdist worker runs next starts in the
    default language instead."""
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_sockets_from_earlier_tests() -> None:
    """A socket an earlier test left open still counts against the per-client cap
    (core/socket_cap.py), and every test's communicator is the same client: each test starts
    with none counted."""
    from core.socket_cap import OPEN

    OPEN.clear()


# --- the `services` marker: tests that need the database, the channel layer or a real server ------

#: pytest-django's fixtures that open the test database.
DATABASE_FIXTURES = frozenset(
    {
        "_django_db_helper",
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
    }
)
#: Where the socket helpers, the channel layer and the real-server machinery live: a test module
#: that imports anything of theirs (or their submodules'), or a test using a fixture defined
#: there, needs the services.
SERVICE_MODULES = (
    "tests.sockets",
    "tests.live_server",
    "tests.browser.conftest",
    "channels.testing",
    "channels.layers",
)


def _is_service_module(name: object) -> bool:
    return isinstance(name, str) and any(
        name == module or name.startswith(f"{module}.") for module in SERVICE_MODULES
    )


@functools.cache
def _module_uses_services(module: types.ModuleType) -> bool:
    for value in vars(module).values():
        if isinstance(value, types.ModuleType):
            origin = value.__name__
        else:
            origin = getattr(value, "__module__", None)
        if _is_service_module(origin):
            return True
    return False


def needs_services(item: pytest.Item) -> bool:
    """Whether ``item`` uses the database (``django_db`` or a database fixture), a socket helper
    or the channel layer (tests/sockets.py, channels.testing, channels.layers, imported into
    its module) or a real server (a fixture from tests/live_server.py or the browser
    conftest, anything imported from tests/live_server.py). A browser test drives pages whose
    server code those tests run on both databases and layers, so it runs once, unless its module
    builds sites of its own on PostgreSQL and Redis (imports from tests/live_server.py: the
    fault tests in Chromium)."""
    module = getattr(item, "module", None)
    if item.get_closest_marker("browser"):
        return module is not None and _module_uses_services(module)
    if item.get_closest_marker("django_db"):
        return True
    if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    info = getattr(item, "_fixtureinfo", None)
    if info is not None:
        for definitions in info.name2fixturedefs.values():
            for definition in definitions:
                if _is_service_module(getattr(definition.func, "__module__", None)):
                    return True
    return module is not None and _module_uses_services(module)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark `services` every test that needs the database, the channel layer or a real server
    (CI's PostgreSQL + Redis pass runs only those: ``-m services``). Never set by hand.

    A plain hook, not ``trylast``: it must run before pytest's own, which applies ``-m``.

    And no two tests may share a node id: pytest-xdist keys tests by id, so it would run only
    one of them, and say nothing."""
    seen: set[str] = set()
    for item in items:
        if item.nodeid in seen:
            raise pytest.UsageError(f"two tests have the id {item.nodeid}: give each its own")
        seen.add(item.nodeid)
        if needs_services(item):
            item.add_marker(pytest.mark.services)


# --- Redis key prefixes of this test process alone ------------------------------------------------


def pytest_sessionstart(session: pytest.Session) -> None:
    """With ``REDIS_URL`` set, the channel layer and the cache take ``CHANNELS_PREFIX`` and
    ``CACHE_PREFIX`` from the environment (spite/settings.py); here both become
    ``<prefix or "spite">-<run>-<worker>``: ``<worker>`` is pytest-xdist's
    ``PYTEST_XDIST_WORKER`` (``gw0``, ``gw1``, …; ``main`` without xdist) and ``<run>`` xdist's
    run id (random without xdist), so neither two workers of one run nor two runs sharing one
    Redis see each other's groups or keys. Server processes that tests start get prefixes of
    their own (tests/live_server.py).

    pytest-django reads the settings before any conftest is imported, so the new prefixes go
    into the environment (for processes the tests start) and into the settings themselves,
    before any test has made a channel layer or a cache."""
    from django.conf import settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:8] or secrets.token_hex(4)
    prefixes = {}
    for name in ("CHANNELS_PREFIX", "CACHE_PREFIX"):
        # xdist's workers inherit the controller's environment, where this ran already: each
        # builds on the value from before the run, kept aside.
        base = os.environ.setdefault(f"{name}_BEFORE_TESTS", os.environ.get(name, "spite"))
        prefixes[name] = os.environ[name] = f"{base}-{run}-{worker}"
    layer = settings.CHANNEL_LAYERS["default"]
    if "prefix" in layer.get("CONFIG", {}):  # Redis
        layer = {**layer, "CONFIG": {**layer["CONFIG"], "prefix": prefixes["CHANNELS_PREFIX"]}}
        settings.CHANNEL_LAYERS = {**settings.CHANNEL_LAYERS, "default": layer}
    cache = settings.CACHES["default"]
    if "KEY_PREFIX" in cache:  # Redis
        cache = {**cache, "KEY_PREFIX": prefixes["CACHE_PREFIX"]}
        settings.CACHES = {**settings.CACHES, "default": cache}
