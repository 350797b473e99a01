"""A bot account is marked wherever it appears (docs/bot_accounts.md): the server's pages put
``{% bot_badge %}`` right after its name, and the page scripts build the same markup in one
place (static/js/cards.js's ``botBadge`` and ``withPerson``).

One parametrized test walks the pages that no other test checks: each case makes a bot account,
Robo, appear beside a person, Alice, and names the part of the page they share; there every
badge stands right after Robo's name, and Alice's name has none.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

import engine
from accounts.models import User
from accounts.services import user_block
from games.models import Match
from games.services import game_resign, match_create_between
from leagues.models import League, Membership
from leagues.tournaments import services as tournaments
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league
from tests.test_jsi18n import run_with_cards_js

pytestmark = pytest.mark.django_db

SMALL = engine.Rules(payoff_size=5, match_target=10)
ROOT = Path(__file__).resolve().parents[2]
#: ``{% bot_badge %}`` for a bot account, its leading space included (English).
BADGE = ' <span class="badge-bot" title="A bot account: played by a program">bot</span>'


@pytest.fixture
def alice(db) -> User:
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def robo(db) -> User:
    return UserFactory(username="robo", display_name="Robo", is_bot=True)


@pytest.fixture
def arena(alice, robo) -> League:
    """A league where bots play ranked, Alice and Robo members."""
    league = make_league("arena", name="Arena", bots_ranked=True)
    join(league, alice)
    join(league, robo)
    return league


def test_the_badge_is_this_markup(robo) -> None:
    """What the cases below look for (and what cards.js's botBadge builds)."""
    shown = Template("{% load players %}{% bot_badge who %}").render(Context({"who": robo}))
    assert shown == BADGE


# --- the pages --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """Where to look: the page (as ``viewer``) and the part of it between two markers."""

    url: str
    viewer: User | None
    start: str
    end: str


def _ranked(league: League, robo: User, alice: User, *, finished: bool) -> Match:
    match = match_create_between(user0=robo, user1=alice, rules=SMALL, ranked=True, league=league)
    if finished:
        game_resign(game_id=match.current_game.pk, user=alice, scope="match")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
    return match


def _league_match_in_play(alice, robo, arena) -> Shown:
    _ranked(arena, robo, alice, finished=False)
    url = reverse("leagues:detail", args=[arena.slug])
    return Shown(url, None, '<ul class="league-matches">', "</ul>")


def _league_match_finished(alice, robo, arena) -> Shown:
    _ranked(arena, robo, alice, finished=True)  # nothing in play: the first list is "recent"
    url = reverse("leagues:detail", args=[arena.slug])
    return Shown(url, None, '<ul class="league-matches">', "</ul>")


def _profile_league_matches(alice, robo, arena) -> Shown:
    _ranked(arena, robo, alice, finished=True)
    url = reverse("accounts:profile", args=["alice"])
    return Shown(url, None, '<ul class="league-matches">', "</ul>")


def _swiss(arena, *players: User) -> str:
    cup = tournaments.tournament_create(
        league=arena, name="Cup", slug="cup", format="swiss", rounds=1
    )
    tournaments.tournament_open_registration(tournament=cup)
    for user in players:
        tournaments.tournament_register(tournament=cup, user=user)
    tournaments.tournament_start(tournament=cup)
    return reverse("leagues:tournament", args=[arena.slug, "cup"])


def _tournament_round(alice, robo, arena) -> Shown:
    return Shown(_swiss(arena, robo, alice), None, '<table class="pairings">', "</table>")


def _tournament_standings(alice, robo, arena) -> Shown:
    return Shown(_swiss(arena, robo, alice), None, "<tr data-username=", "</tbody>")


def _tournament_bracket(alice, robo, arena) -> Shown:
    cup = tournaments.tournament_create(
        league=arena, name="Knockout", slug="ko", format="elimination"
    )
    tournaments.tournament_open_registration(tournament=cup)
    for user in (robo, alice):
        tournaments.tournament_register(tournament=cup, user=user)
    tournaments.tournament_start(tournament=cup)
    url = reverse("leagues:tournament", args=[arena.slug, "ko"])
    return Shown(url, None, '<ol class="bracket"', "</section>")


def _league_requests(alice, robo, arena) -> Shown:
    club = make_league("club", name="Club", admission=League.Admission.APPROVAL)
    moderator = UserFactory(username="mod", display_name="Mod")
    join(club, moderator, role=Membership.Role.MODERATOR)
    join(club, robo, status=Membership.Status.PENDING)
    join(club, alice, status=Membership.Status.PENDING)
    url = reverse("leagues:requests", args=[club.slug])
    return Shown(url, moderator, '<ul class="lobby-list league-requests">', "</ul>")


def _blocked_list(alice, robo, arena) -> Shown:
    viewer = UserFactory(username="carol", display_name="Carol")
    user_block(blocker=viewer, blocked=robo)
    user_block(blocker=viewer, blocked=alice)
    return Shown(reverse("accounts:blocked"), viewer, '<ul class="blocked-list">', "</ul>")


def _replay(alice, robo, arena) -> Shown:
    match = match_create_between(user0=robo, user1=alice, rules=SMALL)
    game = game_resign(game_id=match.current_game.pk, user=alice, scope="match")
    url = reverse("games:replay", args=[game.pk])
    return Shown(url, None, '<span class="table-h1-names">', "</h1>")


def _lobby_matches_in_progress(alice, robo, arena) -> Shown:
    match_create_between(user0=robo, user1=alice, rules=SMALL)
    return Shown(reverse("games:lobby"), alice, 'id="in-progress-title"', "</section>")


PAGES: dict[str, Callable[..., Shown]] = {
    "league matches in play": _league_match_in_play,
    "league matches finished": _league_match_finished,
    "a profile's league matches": _profile_league_matches,
    "tournament round": _tournament_round,
    "tournament standings": _tournament_standings,
    "tournament bracket": _tournament_bracket,
    "league join requests": _league_requests,
    "blocked list": _blocked_list,
    "replay": _replay,
    "lobby: your matches in progress": _lobby_matches_in_progress,
}


def _part(body: str, start: str, end: str) -> str:
    assert start in body, f"{start!r} is not on the page"
    after = body[body.index(start) :]
    assert end in after, f"{end!r} does not follow {start!r}"
    return after[: after.index(end)]


@pytest.mark.parametrize("page", PAGES)
def test_the_page_marks_the_bot_account_next_to_its_name(
    client: Client, alice, robo, arena, page
) -> None:
    shown = PAGES[page](alice, robo, arena)
    if shown.viewer is not None:
        client.force_login(shown.viewer)

    response = client.get(shown.url)

    assert response.status_code == 200
    part = _part(response.content.decode(), shown.start, shown.end)
    badges = [m.start() for m in re.finditer(re.escape(BADGE), part)]
    assert badges, part
    # Every badge follows Robo's name (plain or a link), and none Alice's, who is there too.
    assert all(part[:at].endswith(("Robo", "Robo</a>")) for at in badges), part
    assert part.count('class="badge-bot"') == len(badges)
    assert "Alice" in part
    assert f"Alice{BADGE}" not in part and f"Alice</a>{BADGE}" not in part


# --- the page scripts -------------------------------------------------------------------------


def test_the_page_scripts_build_the_badge_in_one_place() -> None:
    """queue.js, notify.js, lobby.js and table.js mark a bot account through cards.js."""
    scripts = sorted((ROOT / "static" / "js").glob("*.js"))
    building = [path.name for path in scripts if "badge-bot" in path.read_text(encoding="utf-8")]
    assert building == ["cards.js"]
    for name in ("queue.js", "notify.js", "lobby.js"):
        assert "withPerson(" in (ROOT / "static" / "js" / name).read_text(encoding="utf-8")


#: A document just big enough for cards.js's ``el``; each node writes itself out as HTML.
NODE_CHECK = r"""
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ENTITIES[c]);
class Node {
  constructor() { this.childNodes = []; }
  append(...children) {
    for (const c of children) this.childNodes.push(typeof c === "string" ? new Text(c) : c);
  }
  set textContent(value) { this.childNodes = [new Text(value)]; }
}
class Text extends Node {
  constructor(data) { super(); this.data = data; }
  get html() { return escape(this.data); }
}
class Element extends Node {
  constructor(tag) { super(); this.tag = tag; this.attributes = []; }
  set className(value) { this.setAttribute("class", value); }
  setAttribute(name, value) { this.attributes.push([name, value]); }
  get html() {
    const attributes = this.attributes.map(([n, v]) => ` ${n}="${escape(v)}"`).join("");
    return `<${this.tag}${attributes}>${this.childNodes.map((c) => c.html).join("")}</${this.tag}>`;
  }
}
globalThis.Node = Node;
globalThis.window = {};
globalThis.document = {
  documentElement: { lang: "en" },
  createElement: (tag) => new Element(tag),
  createTextNode: (data) => new Text(data),
};
const cards = await import(process.argv[2]);
const html = (parts) => parts.map((p) => (typeof p === "string" ? escape(p) : p.html)).join("");
const robo = { username: "robo", name: "Robo", is_bot: true };
const alice = { username: "alice", name: "Alice", is_bot: false };
const out = {};
out.badge = cards.botBadge().html;
out.declined = html(cards.withPerson("%(name)s declined your challenge.", robo));
out.person = html(cards.withPerson("%(name)s declined your challenge.", alice));
const params = { rules: "House rules" };
out.rules = html(cards.withPerson("New seek by %(name)s: %(rules)s.", robo, { params }));
const link = cards.el("a", { href: "/u/robo/", text: "Robo" });
out.link = html(cards.withPerson("%(name)s", robo, { name: link }));
window.gettext = (s) => ({ bot: "BOT", "A bot account: played by a program": "A PROGRAM" })[s] ?? s;
out.translated = cards.botBadge().html;
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_scripts_badge_is_the_pages_markup_next_to_the_name(tmp_path: Path) -> None:
    out = run_with_cards_js(tmp_path, NODE_CHECK)

    assert " " + out["badge"] == BADGE
    assert out["declined"] == f"Robo{BADGE} declined your challenge."
    assert out["person"] == "Alice declined your challenge."
    assert out["rules"] == f"New seek by Robo{BADGE}: House rules."
    assert out["link"] == f'<a href="/u/robo/">Robo</a>{BADGE}'
    # The catalog's words, read when the badge is made (the texts already in djangojs.po).
    assert out["translated"] == '<span class="badge-bot" title="A PROGRAM">BOT</span>'
