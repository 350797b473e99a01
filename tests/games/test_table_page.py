"""What the lobby and table templates put on the page (the views' context is tested in
test_views.py; the table's behaviour in a browser in tests/browser/test_table.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.selectors import game_state_frame
from games.services import game_resign
from tests.games.helpers import SMALL, current_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# An address on another host anywhere a page loads something from: src, href, url(), @import.
EXTERNAL = re.compile(
    r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//"""
    r"""|url\(\s*["']?(?:https?:)?//|@import"""
)


def initial_state(html: str) -> dict:
    found = re.search(r'<script id="initial-state" type="application/json">(.*?)</script>', html)
    assert found, "no initial-state json_script"
    return json.loads(found.group(1))


def test_the_lobby_offers_each_bot_with_a_line_and_the_rules_folded(client, alice) -> None:
    client.force_login(alice)
    html = client.get(reverse("games:lobby")).content.decode()

    for level in ("random", "greedy", "expert"):
        radio = re.search(rf'<input type="radio" name="bot" value="{level}"[^>]*>', html)
        assert radio, level
        described = re.search(r'aria-describedby="([^"]+)"', radio.group(0)).group(1)
        assert re.search(rf'id="{described}">\s*\S', html)  # a one-line explanation
    assert re.search(r'<input type="radio" name="bot" value="greedy"[^>]*checked', html)
    assert re.search(r"<details class=\"custom-rules\">\s*<summary>Custom rules</summary>", html)
    assert 'name="payoff_size" value="5"' in html  # the Quick preset's, chosen first
    assert 'name="match_target" value="1"' in html
    assert re.search(r'name="king_on_empty"[^>]*checked', html)
    assert "None yet" in html


def test_the_lobby_opens_the_custom_rules_on_an_error(client, alice) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("games:lobby"),
        {
            "bot": "random",
            "payoff_size": 2,
            "hand_size": 5,
            "side_stacks": 4,
            "center_stacks": 3,
            "match_target": 10,
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert '<details class="custom-rules" open>' in html
    assert 'id="id_payoff_size_error"' in html
    assert re.search(r'<input type="radio" name="bot" value="random"[^>]*checked', html)


def test_the_lobby_lists_matches_in_progress_with_a_way_back(client, alice, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)
    client.force_login(alice)
    html = client.get(reverse("games:lobby")).content.decode()

    assert re.search(r"Alice\s*<span aria-hidden=\"true\">\u2013</span>", html)
    assert "Greedy bot" in html
    assert re.search("0\u20130, first to 10\\s*\u00b7 game 1", html)
    assert f'href="{reverse("games:table", kwargs={"game_id": game.pk})}"' in html


def test_an_anonymous_visitor_gets_the_form_and_plays_as_a_guest(client) -> None:
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'data-testid="guest-note"' in html
    assert f'href="{reverse("accounts:signup")}"' in html
    assert 'name="payoff_size"' in html


def test_the_table_page_carries_the_state_the_socket_and_the_module(
    client, alice, human_starts
) -> None:
    game = current_game(human_starts(alice))
    client.force_login(alice)
    html = client.get(reverse("games:table", kwargs={"game_id": game.pk})).content.decode()

    assert initial_state(html) == json.loads(json.dumps(game_state_frame(game, 0)))
    assert f'data-ws-path="/ws/games/{game.pk}/"' in html
    assert 'data-seat="0"' in html
    assert 'data-game-url="/play/games/0/"' in html
    assert re.search(r'<script type="module" src="/static/js/table\.js"></script>', html)
    assert 'href="/static/css/table.css"' in html
    assert re.search(r'data-part="hand"[^>]*>', html).group(0).endswith('"Your hand">')
    assert 'data-resign="game"' in html and 'data-resign="match"' in html
    assert 'aria-live="polite"' in html and 'role="alert"' in html
    assert not EXTERNAL.search(html)


def test_a_spectator_gets_no_seat_and_no_hand(client, alice, bob, human_starts) -> None:
    game = current_game(human_starts(alice))
    client.force_login(bob)
    html = client.get(reverse("games:table", kwargs={"game_id": game.pk})).content.decode()

    assert 'data-seat=""' in html
    assert re.search(r'data-part="hand"[^>]*hidden>', html)
    assert initial_state(html)["you"] is None


def test_a_finished_game_still_renders(client, alice, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)
    game_resign(game_id=game.pk, user=alice, scope="match")
    client.force_login(alice)
    html = client.get(reverse("games:table", kwargs={"game_id": game.pk})).content.decode()

    state = initial_state(html)
    assert state["game"]["status"] != "active"
    assert state["match"]["status"] != "active"
    assert 'data-part="result"' in html


def match_kind(html: str) -> tuple[str, str | None, str]:
    """The header's badge: its data-ranked, its link (if any), and the words a sighted reader
    sees (the screen reader's words are hidden from sight)."""
    found = re.search(r'<p class="match-kind"[^>]*data-ranked="(\w+)"[^>]*>(.*?)</p>', html, re.S)
    assert found, "no match-kind badge"
    inner = re.sub(r'<span class="sr-only">.*?</span>', "", found.group(2))
    link = re.search(r'<a href="([^"]+)"', inner)
    words = " ".join(re.sub(r"<[^>]+>", "", inner).split())
    return found.group(1), link.group(1) if link else None, words


def test_a_casual_match_says_casual_in_the_header(client, alice, human_starts) -> None:
    game = current_game(human_starts(alice))
    client.force_login(alice)
    html = client.get(reverse("games:table", kwargs={"game_id": game.pk})).content.decode()

    assert initial_state(html)["match"]["league"] is None
    assert match_kind(html) == ("false", None, "Casual")


def test_a_ranked_match_names_its_league_and_links_to_it(client, alice, bob) -> None:
    from leagues.models import League, Membership
    from leagues.services import ranked_match_create

    league = League.objects.create(slug="north", name="North League", rules=SMALL.to_dict())
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user)
    game = current_game(ranked_match_create(league=league, user0=alice, user1=bob))
    url = reverse("leagues:detail", kwargs={"slug": "north"})
    for viewer in (alice, None):  # a player, and an anonymous spectator
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        html = client.get(reverse("games:table", kwargs={"game_id": game.pk})).content.decode()

        state = initial_state(html)
        assert state["match"]["ranked"] is True
        assert state["match"]["league"] == {"name": "North League", "slug": "north", "url": url}
        assert match_kind(html) == ("true", url, "Ranked · North League")
        assert re.search(r'<span class="sr-only"> in </span>North League</a>', html)


def test_the_static_files_load_nothing_from_another_host() -> None:
    for name in (
        "static/js/table.js",
        "static/js/cards.js",
        "static/js/replay.js",
        "static/css/table.css",
    ):
        text = (ROOT / name).read_text()
        assert not EXTERNAL.search(text), name
        assert "http://" not in text and "https://" not in text, name
