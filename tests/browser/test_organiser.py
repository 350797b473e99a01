"""An organiser runs a Swiss tournament from the admin, in Chromium (issue 25): a league's
moderator who is neither staff nor a superuser sets the league's rules with the rules form,
creates the tournament, opens registration, watches players register on the site, starts it,
follows its pairings' states (waiting, in play, late, played), closes a round with its no-show
forfeited, sets a pairing's result, and finishes it; the other league beside it, its tournament
and its members stay out of sight.

Run with ``--docs-img`` (``make docs-img``) it also takes the pictures of docs/tournaments.md.
(The page, each step and each role without a browser: tests/leagues/tournaments/test_admin_page.py.)
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from tests.browser import positions

pytestmark = pytest.mark.browser

PASSWORD = "organiser-pass-1"


def setup_script(tag: str) -> str:
    """Two leagues: ours, with its moderator (not staff) and four members; another, with a
    member and a tournament of its own. Prints the ids."""
    return f"""
import json
from accounts.models import User
from leagues.models import League, Membership
from leagues.tournaments import services as ts

ours = League.objects.create(slug="o{tag}", name="Oak {tag}")
other = League.objects.create(slug="e{tag}", name="Elm {tag}")
mod = User.objects.create_user("org{tag}", password="{PASSWORD}")
assert not mod.is_staff and not mod.is_superuser
Membership.objects.create(league=ours, user=mod, role="moderator")
for i in range(1, 5):
    user = User.objects.create_user(f"p{{i}}{tag}", password="{PASSWORD}")
    Membership.objects.create(league=ours, user=user)
stranger = Membership.objects.create(league=other, user=User.objects.create_user("x{tag}"))
theirs = ts.tournament_create(league=other, name="Elm cup {tag}", slug="elm", format="swiss")
print(json.dumps({{"league": ours.pk, "theirs": theirs.pk, "stranger": stranger.pk}}))
"""


def round_script(tournament_id: int) -> str:
    """The open round's pairings: each one's id, match and first game."""
    return f"""
import json
from leagues.models import TournamentMatch
rows = TournamentMatch.objects.filter(
    round__tournament_id={tournament_id}, round__status="open"
).order_by("board")
print(json.dumps([
    {{"id": t.pk, "match": t.match_id, "game": t.match.games.get(number=1).pk}} for t in rows
]))
"""


def late_script(match_id: int) -> str:
    """The match was made twice the league's no-show wait ago: nobody came."""
    return f"""
import json
from games.models import Match
from leagues.models import TournamentMatch
from leagues.tournaments.services import no_show_wait
pairing = TournamentMatch.objects.get(match_id={match_id})
wait = no_show_wait(pairing.round.tournament)
Match.objects.filter(pk={match_id}).update(created_at=pairing.match.created_at - 2 * wait)
print(json.dumps(True))
"""


def resign_script(game_id: int) -> str:
    """The player to move resigns the match."""
    return f"""
import json
from games.models import Game
from games.services import game_resign
game = Game.objects.select_related("match").get(pk={game_id})
user = game.match.user_at(game.state["to_move"])
game_resign(game_id=game.pk, user=user, scope="match")
print(json.dumps(True))
"""


def take_step(page: Any, step: str) -> None:
    """Click the step's button, read its confirmation, confirm."""
    from playwright.sync_api import expect

    page.locator(f"#step-{step}").click()
    expect(page.locator("#step-confirm")).to_have_attribute("data-step", step)
    expect(page.locator("#step-says li").first).to_be_visible()
    page.locator("#step-confirm-button").click()
    expect(page.locator(".messagelist .success")).to_be_visible()


def set_result(page: Any, pairing: int, choice: str) -> None:
    from playwright.sync_api import expect

    page.locator(f"tr.pairing[data-pairing='{pairing}'] a.set-result").click()
    page.locator(f"#result-{choice}").check()
    page.locator("#step-confirm-button").click()
    expect(page.locator(".messagelist .success")).to_be_visible()


def test_a_moderator_who_is_not_staff_runs_a_swiss_tournament(
    page, browser, live_server_url, daphne_server, manage, docs_img
) -> None:
    from playwright.sync_api import expect

    base, tag = live_server_url, secrets.token_hex(3)
    ids = json.loads(manage("shell", "-v", "0", "-c", setup_script(tag)).stdout.splitlines()[-1])
    page.set_viewport_size({"width": 1280, "height": 800})
    positions.log_in(page, base, f"org{tag}", PASSWORD)

    # The league's rules: the Quick preset, one click.
    page.goto(f"{base}/admin/leagues/league/{ids['league']}/change/")
    page.get_by_label("Quick: ").check()
    expect(page.get_by_label("Pay-off pile:")).to_have_value("5")
    docs_img(page, "organiser-league-rules")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist .success")).to_be_visible()

    # A new Swiss tournament of three rounds; the league offered is theirs alone.
    page.goto(f"{base}/admin/leagues/tournament/add/")
    league = page.locator("select[name=league]")
    expect(league.locator("option:not([value=''])")).to_have_count(1)
    league.select_option(str(ids["league"]))
    page.get_by_label("Name:").fill(f"Spring Swiss {tag}")
    page.locator("select[name=format]").select_option("swiss")
    page.locator("input[name=rounds]").fill("3")
    page.get_by_label("Points to win the match:").fill("600")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".field-match_target .errorlist")).to_contain_text("at most 500")
    page.get_by_label("Points to win the match:").fill("")
    docs_img(page, "organiser-new-tournament")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator("#tournament-panel")).to_have_attribute("data-status", "draft")
    tournament = int(page.url.rstrip("/").split("/")[-2])

    take_step(page, "open")
    expect(page.locator("#tournament-panel")).to_have_attribute("data-status", "registration")

    # Four players register on the site, each in their own browser.
    slug = page.locator("#id_slug").input_value()  # made from the name as it was typed
    assert slug.startswith("spring-swiss-")
    site_page = f"{base}/leagues/o{tag}/tournaments/{slug}/"
    for i in range(1, 5):
        context = browser.new_context()
        try:
            player = context.new_page()
            positions.log_in(player, base, f"p{i}{tag}", PASSWORD)
            player.goto(site_page)
            player.get_by_role("button", name="Register").click()
            expect(player.get_by_text("You are entered.")).to_be_visible()
        finally:
            context.close()
    page.reload()
    for i in range(1, 5):
        expect(page.locator("#entries-group")).to_contain_text(f"p{i}{tag}")

    take_step(page, "start")
    panel = page.locator("#tournament-panel")
    expect(panel).to_have_attribute("data-status", "running")
    expect(page.locator("#tournament-round")).to_contain_text("1")
    current = page.locator("#pairings-current tr.pairing")
    expect(current).to_have_count(2)
    for row in range(2):
        expect(current.nth(row)).to_have_attribute("data-state", "waiting")
    docs_img(page, "organiser-round-1")

    # One pairing plays and ends; nobody comes to the other.
    played, absent = daphne_server.shell(round_script(tournament))
    positions.play_for(daphne_server, played["game"])
    daphne_server.shell(late_script(absent["match"]))
    page.reload()
    row = page.locator(f"tr.pairing[data-pairing='{played['id']}']")
    expect(row).to_have_attribute("data-state", "playing")
    expect(page.locator(f"tr.pairing[data-pairing='{absent['id']}']")).to_have_attribute(
        "data-state", "late"
    )
    daphne_server.shell(resign_script(played["game"]))
    page.reload()
    expect(row).to_have_attribute("data-state", "played")
    docs_img(page, "organiser-late")

    # Close round 1: its no-show is forfeited, round 2 is paired.
    page.locator("#step-close").click()
    expect(page.locator("#step-says")).to_contain_text("forfeit")
    docs_img(page, "organiser-close-round")
    page.locator("#step-confirm-button").click()
    expect(page.locator("#tournament-round")).to_contain_text("2")
    expect(
        page.locator(f"#pairings-round-1 tr.pairing[data-pairing='{absent['id']}']")
    ).to_have_attribute("data-state", "forfeit")

    # Round 2: the organiser sets both results (finishing is refused between the two).
    first, second = daphne_server.shell(round_script(tournament))
    set_result(page, first["id"], "first")
    expect(page.locator(f"tr.pairing[data-pairing='{first['id']}']")).to_have_attribute(
        "data-state", "set"
    )
    expect(page.locator("#step-finish")).to_have_count(0)
    expect(page.locator("#tournament-steps-refused li[data-step=finish]")).to_be_visible()
    set_result(page, second["id"], "second_forfeit")
    expect(page.locator("#tournament-round")).to_contain_text("3")

    # Round 3 is paired and nobody has played: the organiser ends the tournament here.
    take_step(page, "finish")
    expect(panel).to_have_attribute("data-status", "finished")
    expect(page.locator("#tournament-standings tbody tr")).to_have_count(4)
    docs_img(page, "organiser-finished")

    # Another league's tournament and members: not listed, not opened, no step.
    page.goto(f"{base}/admin/leagues/tournament/")
    expect(page.locator("#result_list")).to_contain_text(f"Spring Swiss {tag}")
    expect(page.locator("#result_list")).not_to_contain_text(f"Elm cup {tag}")
    page.goto(f"{base}/admin/leagues/tournament/{ids['theirs']}/change/")
    expect(page.locator("body")).not_to_contain_text(f"Elm cup {tag}")
    answer = page.goto(f"{base}/admin/leagues/tournament/{ids['theirs']}/step/open/")
    assert answer is not None and answer.status == 404
    page.goto(f"{base}/admin/leagues/membership/")
    expect(page.locator("#result_list")).not_to_contain_text(f"x{tag}")
    page.goto(f"{base}/admin/leagues/membership/{ids['stranger']}/change/")
    expect(page.locator("body")).not_to_contain_text(f"x{tag}")
