"""The front door in a real browser, on a phone and a laptop: a visitor plays a quick game
against a bot to its end without signing up (on the phone every move of it, the whole table
fitting the screen at every state; on the laptop a few moves, then a resignation), then signs
up and finds it in their history; a new player is at a table within three clicks of the home
page."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from tests.browser.fit import assert_table_fits

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Browser-pass-42"
VIEWPORTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}


@pytest.fixture(params=list(VIEWPORTS))
def sized_page(browser: Any, request: pytest.FixtureRequest) -> Any:
    context = browser.new_context(viewport=VIEWPORTS[request.param], reduced_motion="reduce")
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def play_the_match(page: Any, *, fits: bool = False) -> None:
    """Play the match through the table to its end: every game (a tied game leaves the
    match on, and its table links to the next game). ``fits``: check at every state the
    player sees that the whole table fits the screen (tests/browser/fit.py)."""
    for _ in range(10):
        play_to_the_end(page, fits=fits)
        if page.evaluate("() => window.spiteTable.matchOver"):
            return
        page.locator("[data-part=next-game]").click()
        page.wait_for_function("() => window.spiteTable && !window.spiteTable.gameOver")
    raise AssertionError("the quick match did not end in 10 games")


def play_to_the_end(page: Any, *, fits: bool = False) -> None:
    """Play our turns through the table until the game is over (``play``)."""
    if not play(page, fits=fits, moves=400):
        raise AssertionError("the quick game did not end in 400 moves")


def play(page: Any, *, fits: bool = False, moves: int) -> bool:
    """Play up to ``moves`` moves of ours through the table (click a card, then its place),
    each the one the greedy bot would choose from the table's own view (so the game is short);
    the server's bot answers on its own. True once the game is over. ``fits``: check at every
    state the player sees that the whole table fits the screen (tests/browser/fit.py)."""
    import engine

    player = engine.bot("greedy", seed=0)
    for _ in range(moves):
        page.wait_for_function(
            "() => { const t = window.spiteTable; return Boolean(t) && (t.gameOver || "
            "(t.view.legal_moves.length > 0 && !t.pending)); }",
            timeout=30_000,
        )
        if fits:
            assert_table_fits(page, tap=40)
        if page.evaluate("() => window.spiteTable.gameOver"):
            return True
        view = page.evaluate("() => window.spiteTable.view")
        source, target = str(player.choose_from_view(view)).rsplit("-", 1)
        before = page.evaluate("() => window.spiteTable.state.version")
        page.locator(f'[data-source="{source}"]').first.click()
        page.locator(f'[data-target="{target}"]').first.click()
        page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
    return bool(page.evaluate("() => window.spiteTable.gameOver"))


def sign_up_from(page: Any, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Sign up").click()


def test_a_visitor_plays_a_quick_game_to_its_end_then_signs_up_and_finds_it(
    sized_page, live_server_url
) -> None:
    from playwright.sync_api import expect

    page = sized_page
    page.goto(f"{live_server_url}/")
    play_now = page.get_by_test_id("play-now")
    expect(play_now).to_contain_text("No account needed")
    expect(play_now.get_by_label("Opponent")).to_have_value("random")
    play_now.get_by_role("button", name="Play now").click()

    expect(page).to_have_url(re.compile(r"/play/games/\d+/$"))
    first_game = re.search(r"/play/games/(\d+)/", page.url).group(1)
    expect(page.locator("[data-part=status]")).to_be_visible()
    if page.viewport_size["width"] < 500:  # the phone: the whole game, checking every state
        play_the_match(page, fits=True)
    else:  # the laptop: a few moves, then the visitor resigns
        play(page, moves=3)
        page.get_by_role("button", name="Resign match").click()
        page.get_by_role("dialog").get_by_role("button", name="Yes, resign").click()
    expect(page.locator("[data-part=result]")).to_be_visible()

    page.goto(f"{live_server_url}/")
    expect(page.get_by_test_id("sign-up")).to_contain_text("You are playing as a guest")
    page.get_by_test_id("sign-up").get_by_role("link", name="Sign up free").click()
    username = f"guest{secrets.token_hex(3)}"
    sign_up_from(page, username)
    expect(page).to_have_url(f"{live_server_url}/")
    expect(page.get_by_test_id("welcome")).to_contain_text(f"Welcome back, {username}")

    page.goto(f"{live_server_url}/play/history/{username}/")
    row = page.get_by_role("row").filter(has_text="Random bot")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(re.compile("won|lost"))
    expect(row.locator(f'a[href="/play/games/{first_game}/replay/"]')).to_have_count(1)


def test_a_new_player_is_at_a_table_within_three_clicks_of_the_home_page(
    sized_page, live_server_url
) -> None:
    from playwright.sync_api import expect

    page = sized_page
    clicks = 0
    page.goto(f"{live_server_url}/")
    page.get_by_test_id("sign-up").get_by_role("link", name="Sign up free").click()
    clicks += 1
    sign_up_from(page, f"new{secrets.token_hex(3)}")
    clicks += 1
    expect(page).to_have_url(f"{live_server_url}/")
    expect(page.get_by_test_id("welcome")).to_contain_text("Welcome, new")
    page.get_by_test_id("play-now").get_by_role("button", name="Play now").click()
    clicks += 1
    expect(page).to_have_url(re.compile(r"/play/games/\d+/$"))
    expect(page.locator("[data-part=status]")).to_be_visible()
    assert clicks <= 3
