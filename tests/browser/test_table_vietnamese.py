"""The table in Vietnamese: a player switches language with the footer's switcher at the table,
sees the table's own texts in Vietnamese, tries a move the rules refuse and reads the refusal in
Vietnamese (the server's words for the engine's refusal, inside the table's own frame), then
plays a move and sees it logged in Vietnamese.

The expected words come from the committed catalogs, so the test checks what a player reads,
not a copy of it.
"""

from __future__ import annotations

import gettext
import re

import pytest
from django.conf import settings

from tests.browser.test_table import (
    a_discard,
    hand_card,
    legal_moves,
    my_place,
    sign_up,
    start_match,
    version,
    wait_for_my_turn,
)

pytestmark = pytest.mark.browser

VIETNAMESE_LETTER = re.compile(r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]")


def vi_js(text: str) -> str:
    """The table's own text in Vietnamese, from the committed JavaScript catalog."""
    catalog = gettext.translation(
        "djangojs", localedir=str(settings.BASE_DIR / "locale"), languages=["vi"]
    )
    translated = catalog.gettext(text)
    assert translated != text, f"no Vietnamese for {text!r}"
    return translated


def test_a_move_and_a_refusal_at_the_table_in_vietnamese(page, live_server_url):
    from playwright.sync_api import expect

    sign_up(page, live_server_url)
    game_id = start_match(page, live_server_url)

    page.get_by_role("group").filter(has=page.locator("summary")).locator("summary").click()
    page.get_by_role("button", name="Tiếng Việt").click()
    page.wait_for_url(re.compile(rf"/play/games/{game_id}/$"))
    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.locator("[data-part=conn]")).to_have_attribute("data-state", "open")
    wait_for_my_turn(page)

    # A refused attempt: a hand card onto a center stack the view does not allow.
    moves = set(legal_moves(page))
    hand = page.evaluate("() => window.spiteTable.view.players[window.spiteTable.me].hand")
    refused = next(
        (f"h:{c}-c{n}" for c in hand for n in (1, 2, 3) if f"h:{c}-c{n}" not in moves), None
    )
    assert refused is not None, (hand, moves)  # a 5-card hand never fits all three stacks
    _source, target = refused.rsplit("-", 1)
    hand_card(page, refused).click()
    my_place(page, target).click()

    prefix = vi_js("Refused: %(message)s").split("%(message)s")[0].strip()
    error = page.get_by_role("alert").filter(has_text=prefix)
    expect(error).to_be_visible()
    message = error.inner_text()
    assert VIETNAMESE_LETTER.search(message.replace(prefix, "")), message
    for english in ("cannot", "needs", "is not in your hand", "Refused"):
        assert english not in message, message

    # A legal discard: logged in Vietnamese.
    move = a_discard(page)
    before = version(page)
    hand_card(page, move).click()
    my_place(page, "s1").click()
    page.wait_for_function("(v) => window.spiteTable.state.version > v", arg=before)
    mine = page.locator("[data-part=log] .log-entry.is-you").first
    expect(mine).to_be_visible()
    assert VIETNAMESE_LETTER.search(mine.inner_text()), mine.inner_text()
    assert "side" not in mine.inner_text()
