"""The league pages on a phone (375x812): a league whose standings have
many long names, a finished Swiss and a finished elimination (the widest tables and the
bracket), an open season and a closed one, and a running Swiss. No page scrolls sideways, in
English and in Burmese; axe finds no serious or critical violation; a finished tournament names
its winner; an entrant plays their own match ("Play your match") where others watch, and is
told on whatever page they are when their next round is paired.

The data is made once for the module by ``manage.py shell`` against the server's database;
the round that pairs while the entrant watches is paired inside the server (the opponent
resigns through the API), so its notice travels the server's own channel layer.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from tests.browser import positions
from tests.browser.a11y import assert_no_serious_violations

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Phone-pass-7"
PHONE = {"width": 375, "height": 812}

#: Run in ``manage.py shell``: a league of eight members with long names and countries; a
#: finished Swiss of all eight (one round) in a season closed after it, a finished elimination
#: of five in the open season, and a running two-player Swiss whose first round is in play (with
#: an API token for the second player).
SEED = """
import json
import engine
from api.services import api_token_create
from accounts.models import User
from leagues.models import League, Membership, TournamentMatch
from leagues.seasons import season_close, season_open
from leagues.tournaments import services as ts
tag = "{tag}"
league = League.objects.create(
    name="Phone League " + tag, slug="phone-" + tag,
    rules=engine.Rules(payoff_size=5, match_target=5).to_dict(),
)
names = ["Maximiliano Fernández", "Nguyễn Thị Phương Thảo", "Aung Kyaw Htet Naing",
         "Bartholomew Worthington", "Priyanka Chattopadhyay", "Giovanni Santangelo",
         "Roberta Castellanos", "Dmitri Vasilievich"]
countries = ["AR", "VN", "MM", "GB", "BD", "IT", "ES", "US"]
users = []
for i, (name, country) in enumerate(zip(names, countries)):
    user = User.objects.create_user(
        f"ph{{i}}{{tag}}", password="{password}", display_name=name, country=country
    )
    Membership.objects.create(league=league, user=user, status="active")
    users.append(user)
def tournament(slug, format, entrants, **fields):
    t = ts.tournament_create(league=league, name=slug.replace("-", " ").title(), slug=slug,
                             format=format, match_target=5, **fields)
    ts.tournament_open_registration(tournament=t)
    for user in entrants:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    return t
op = User.objects.create_superuser("op" + tag, password="{password}")
spring = season_open(league=league, name="Spring " + tag, by=op)
ts.tournament_autoplay(tournament=tournament("spring-swiss", "swiss", users, rounds=1))
season_close(season=spring, by=op)
season_open(league=league, name="Summer " + tag, order="difference", by=op)
ts.tournament_autoplay(tournament=tournament("knockout", "elimination", users[:5]))
live = tournament("live-swiss", "swiss", users[6:8], rounds=2)
pairing = TournamentMatch.objects.get(round__tournament=live, round__number=1)
_, key = api_token_create(user=pairing.second, name="phone test")
print(json.dumps({{
    "league": league.slug, "users": [u.username for u in users],
    "entrant": pairing.first.username, "opponent": pairing.second.username,
    "opponent_name": pairing.second.public_name, "first_name": pairing.first.public_name,
    "match": pairing.match_id, "table": f"/play/games/{{pairing.match.current_game.pk}}/",
    "opponent_key": key,
}}))
"""


@pytest.fixture(scope="module")
def seeded(daphne_server: Any) -> dict[str, Any]:
    return dict(daphne_server.shell(SEED.format(tag=secrets.token_hex(3), password=PASSWORD)))


def pages(seeded: dict[str, Any]) -> list[str]:
    league = f"/leagues/{seeded['league']}/"
    return [
        league,
        f"{league}tournaments/spring-swiss/",
        f"{league}tournaments/knockout/",
        f"{league}tournaments/live-swiss/",
    ]


def no_sideways_scroll(page: Any) -> None:
    wide, screen = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= screen, f"{page.url} is {wide} px wide on a {screen} px screen"


@pytest.mark.parametrize("language", ["en", "my"])
def test_no_league_page_scrolls_sideways_on_a_phone(browser, live_server_url, seeded, language):
    from playwright.sync_api import expect

    base = live_server_url
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        positions.log_in(
            page, base, seeded["users"][0], PASSWORD
        )  # a member: the Challenge column, the chart
        context.add_cookies([{"name": "django_language", "value": language, "url": base}])
        for path in pages(seeded):
            page.goto(base + path)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("table.standings").first).to_be_visible()
            no_sideways_scroll(page)
        # the closed season's final table, unfolded, fits too (or scrolls inside its card)
        page.goto(f"{base}/leagues/{seeded['league']}/")
        page.locator("details.season summary").first.click()
        expect(page.locator("details.season table.season-table")).to_be_visible()
        expect(page.locator("table.season-table")).to_have_count(2)
        no_sideways_scroll(page)
        # the standings really are too wide for the phone: they scroll inside their card
        page.goto(f"{base}/leagues/{seeded['league']}/tournaments/spring-swiss/")
        box = page.locator(".table-wrap", has=page.locator("table.standings"))
        assert box.evaluate("(el) => el.scrollWidth > el.clientWidth")
    finally:
        context.close()


def test_the_league_pages_pass_axe(browser, live_server_url, seeded):
    from playwright.sync_api import expect

    base = live_server_url
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        for who in (None, seeded["entrant"]):
            if who:
                positions.log_in(page, base, who, PASSWORD)
            for path in [*pages(seeded), "/leagues/"]:
                page.goto(base + path)
                expect(page.get_by_role("heading", level=1)).to_be_visible()
                assert_no_serious_violations(page, context=f"{path}, {who or 'a visitor'}, phone")
    finally:
        context.close()


def test_a_finished_tournament_names_its_winner_and_the_bracket_its_champion(
    page, live_server_url, seeded
):
    from playwright.sync_api import expect

    base = f"{live_server_url}/leagues/{seeded['league']}/tournaments"
    page.goto(f"{base}/spring-swiss/")
    first = page.locator("table.standings tbody tr").first.get_by_role("link").inner_text()
    expect(page.locator('[data-part="winner"]')).to_have_text(f"Winner: {first}")
    page.goto(f"{base}/knockout/")
    champion = page.locator(".champion strong").inner_text()
    expect(page.locator('[data-part="winner"]')).to_have_text(f"Winner: {champion}")


def test_an_entrant_plays_their_match_others_watch_and_the_next_round_is_told(
    browser, live_server_url, seeded
):
    """The entrant's tournament page says whom they play, with "Play your match" (a spectator's
    says "watch live"); then, on the league's page, when the opponent resigns round one, the
    second round is paired and a notice says so, with the way to the new table."""
    from playwright.sync_api import expect

    base = live_server_url
    url = f"{base}/leagues/{seeded['league']}/tournaments/live-swiss/"
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    try:
        entrant, spectator = (context.new_page() for context in contexts)
        for page in (entrant, spectator):
            page.set_default_timeout(10_000)
        positions.log_in(entrant, base, seeded["entrant"], PASSWORD)
        positions.log_in(
            spectator, base, seeded["users"][0], PASSWORD
        )  # a member, not in this tournament

        entrant.goto(url)
        mine = entrant.locator('[data-part="your-pairing"]')
        expect(mine).to_contain_text(f"Round 1 is paired: you play {seeded['opponent_name']}.")
        expect(mine.get_by_role("link", name="Play your match")).to_have_attribute(
            "href", seeded["table"]
        )
        pairing = entrant.locator("table.pairings tr.you")
        expect(pairing.get_by_role("link", name="Play your match")).to_be_visible()
        expect(entrant.get_by_role("link", name="watch live")).to_have_count(0)

        spectator.goto(url)
        expect(spectator.get_by_role("link", name="watch live")).to_have_attribute(
            "href", seeded["table"]
        )
        expect(spectator.get_by_role("link", name="Play your match")).to_have_count(0)
        expect(spectator.locator('[data-part="your-pairing"]')).to_have_count(0)

        # on another page, the entrant's socket open; the opponent resigns round one
        entrant.goto(f"{base}/leagues/{seeded['league']}/")
        expect(entrant.locator("[data-notify]")).to_have_attribute("data-state", "open")
        answer = contexts[1].request.post(
            f"{base}/api/v1/matches/{seeded['match']}/resign/",
            headers={"Authorization": f"Bearer {seeded['opponent_key']}"},
            data={"scope": "match"},
        )
        assert answer.ok, answer.text()
        notice = entrant.locator("[data-paired]")
        expect(notice).to_contain_text(
            f"Round 2 of Live Swiss is paired: you play {seeded['opponent_name']}."
        )
        play = notice.get_by_role("link", name="Play your match")
        expect(play).to_have_attribute("href", re.compile(r"^/play/games/\d+/$"))
        assert play.get_attribute("href") != seeded["table"]  # round two's own table
        no_sideways_scroll(entrant)
        play.click()
        expect(entrant).to_have_url(re.compile(rf"{re.escape(base)}/play/games/\d+/$"))
    finally:
        for context in contexts:
            context.close()
