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
