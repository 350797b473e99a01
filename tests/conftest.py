"""Fixtures shared by the whole suite."""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Games run their bots inline, think in the calling thread (no worker processes) and sweep
    nothing under test (docs/games.md).

    Set for the whole session, before any test module imports ``spite.asgi`` (which starts
    the sweeper unless its interval is 0); a test may still override them with ``settings``.
    """
    from django.conf import settings

    settings.GAMES_BOT_RUNNER = "inline"
    settings.GAMES_BOT_THINK = "thread"
    settings.GAMES_BOT_MOVE_DELAY = 0
    settings.GAMES_SWEEPER_INTERVAL = 0


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
