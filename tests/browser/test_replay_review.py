"""The expert's review on the replay page in Chromium: a game the player played at random against
the bot, resigned and reviewed (the review job run in the server's own database, one turn
marked) shows each
reviewed player's accuracy, the marked turns with the player's moves beside the expert's, and
marks on the moves of the list; a marked turn's link takes the replay to that position. At
1280x800 in English and 375x812 in Bengali, with no sideways scroll (screenshots of both)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.test_table import PASSWORD, SHOTS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def reviewed(daphne_server) -> dict[str, Any]:
    seated = positions.seat_player(daphne_server, positions.first_deal(4), password=PASSWORD)
    game = seated["games"][0]
    daphne_server.shell(
        "import json\n"
        "import engine\n"
        "from games import reviews, services\n"
        "from games.bots import bot_move\n"
        "from games.models import Game\n"
        "from django.conf import settings\n"
        "settings.GAMES_REVIEW_PLAYOUTS = 8  # seconds, not a minute, of this test's CPU\n"
        "settings.GAMES_REVIEW_CPU_SHARE = 1  # and no pauses\n"
        f"game = Game.objects.select_related('match__user0').get(pk={game})\n"
        "alice = game.match.user0\n"
        "player = engine.bot('random', 3)\n"
        "for _ in range(2):\n"
        "    game.refresh_from_db()\n"
        "    while game.is_active and game.to_move == 0:\n"
        "        move = player.choose(engine.Game.from_dict(game.state), 0).text\n"
        "        services.game_play_move(game_id=game.pk, user=alice, move=move, "
        "version=game.version)\n"
        "        game.refresh_from_db()\n"
        "    while bot_move(game.pk, Game.objects.get(pk=game.pk).version):\n"
        "        pass\n"
        "game.refresh_from_db()\n"
        "if game.is_active:\n"
        "    services.game_resign(game_id=game.pk, user=alice, scope='match')\n"
        "reviews.review_run(game.pk)\n"
        # A turn the expert would have played otherwise, marked whatever its estimate said at
        # these few playouts: the marks' logic is tested in tests/engine/test_coach.py, the
        # page's drawing of them here.
        "review = game.review\n"
        "turn = next(t for t in review.data['turns'] if not all(d['agrees'] for d in "
        "t['decisions']))\n"
        "turn['mark'], turn['loss'] = 'mistake', 0.12\n"
        "review.save(update_fields=['data'])\n"
        "print(json.dumps(True))"
    )
    return {**seated, "game": game}


@pytest.mark.parametrize(
    ("size", "language"),
    [((1280, 800), "en"), ((375, 812), "bn")],
    ids=["desktop-en", "phone-bn"],
)
def test_the_replay_shows_the_experts_review(browser, live_server_url, reviewed, size, language):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])
    try:
        page = context.new_page()
        page.goto(f"{live_server_url}/play/games/{reviewed['game']}/replay/")
        review = page.locator("[data-part=review]")
        expect(review).to_be_visible()
        if language == "en":
            expect(review).to_contain_text(re.compile(r"\d+% accuracy"))
            expect(review.get_by_text("How the review works")).to_be_visible()
        marks = review.locator("[data-review-frame]")
        expect(marks.first).to_be_visible()
        frame = int(marks.first.get_attribute("data-review-frame"))
        marks.first.click()
        page.wait_for_function(f"() => window.spiteReplay.index === {frame}")
        expect(page.locator("[data-part=log] .log-mark")).to_have_count(marks.count())
        if language == "en":
            expect(review).to_contain_text("points of winning chances")
            expect(review.locator(".review-lines").first).to_contain_text("The expert would play")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        SHOTS.mkdir(exist_ok=True)
        review.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"replay-review-{language}-{size[0]}.png"), full_page=True)
    finally:
        context.close()
