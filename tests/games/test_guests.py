"""Guest play (games.guests, docs/accounts.md "Guests"): a visitor plays the bots without an
account, within limits, and is cleaned up when idle unless they sign up; guests may do
nothing else (people, leagues, ranked play, the API), each refused with the reason."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.urls import reverse

from accounts.models import User
from accounts.selectors import GUESTS_PLAY_BOTS
from accounts.services import guest_create
from games import sweeper
from games.models import Game, Match, Move
from games.presets import QUICK
from games.services import match_create
from tests.games.clocks import fake_clock  # noqa: F401
from tests.games.helpers import current_game

pytestmark = pytest.mark.django_db

QUICK_GAME = {"bot": "random", "preset": "quick"}
LOBBY = reverse("games:lobby")


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()  # the per-address counts


def guest_of(client) -> User:
    return User.objects.get(pk=client.session[SESSION_KEY])


def test_a_visitor_plays_a_bot_as_a_guest_of_their_own(client) -> None:
    response = client.post(LOBBY, QUICK_GAME)
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[current_game(match).pk])
    guest = guest_of(client)
    assert guest.is_guest and match.user0 == guest and match.bot1 == "random"
    assert (guest.public_name, guest.email, guest.has_usable_password()) == ("Guest", "", False)
    assert not match.ranked and match.rules == QUICK.rules.to_dict()
    table = client.get(response["Location"]).content.decode()
    assert "Guest" in table


def test_each_browser_gets_its_own_guest_and_keeps_it(client, django_user_model) -> None:
    from django.test import Client

    client.post(LOBBY, QUICK_GAME)
    client.post(LOBBY, {**QUICK_GAME, "bot": "greedy"})
    other = Client()
    other.post(LOBBY, QUICK_GAME)
    assert User.objects.filter(is_guest=True).count() == 2
    assert Match.objects.filter(user0=guest_of(client)).count() == 2
    assert guest_of(other) != guest_of(client)


def test_the_lobby_shows_a_visitor_the_form_and_says_no_account_is_needed(client) -> None:
    html = client.get(LOBBY).content.decode()
    assert 'name="preset" value="quick"' in html and 'name="bot"' in html
    assert "No account needed" in html


def test_guest_matches_per_session_are_limited(client, settings) -> None:
    settings.GAMES_GUEST_MATCHES_PER_SESSION = 2
    for _ in range(2):
        assert client.post(LOBBY, QUICK_GAME).status_code == 302
    response = client.post(LOBBY, QUICK_GAME)
    assert response.status_code == 200
    assert "You have played many guest games in the last hour." in response.content.decode()
    assert Match.objects.count() == 2


def test_guest_matches_per_address_are_limited_across_sessions(settings) -> None:
    from django.test import Client

    settings.GAMES_GUEST_MATCHES_PER_ADDRESS = 2
    for _ in range(2):
        assert Client().post(LOBBY, QUICK_GAME).status_code == 302
    refused = Client().post(LOBBY, QUICK_GAME)
    assert "Many guest games were started from your network" in refused.content.decode()
    elsewhere = Client(REMOTE_ADDR="203.0.113.9").post(LOBBY, QUICK_GAME)
    assert elsewhere.status_code == 302  # another address has its own count
    assert User.objects.filter(is_guest=True).count() == 3


def test_behind_the_proxy_guest_matches_are_counted_per_client(settings) -> None:
    from django.test import Client

    settings.GAMES_GUEST_MATCHES_PER_ADDRESS = 2
    settings.PROXY_COUNT = 1

    def via_proxy(address: str, sent: str) -> Client:
        return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"{sent}, {address}")

    for n in range(2):
        assert via_proxy("203.0.113.7", f"10.0.0.{n}").post(LOBBY, QUICK_GAME).status_code == 302
    refused = via_proxy("203.0.113.7", "10.0.0.9").post(LOBBY, QUICK_GAME)
    assert "Many guest games were started from your network" in refused.content.decode()
    assert via_proxy("198.51.100.20", "10.0.0.9").post(LOBBY, QUICK_GAME).status_code == 302


def test_a_signed_in_player_is_not_limited_as_a_guest(client, alice, settings) -> None:
    settings.GAMES_GUEST_MATCHES_PER_ADDRESS = 0
    client.force_login(alice)
    assert client.post(LOBBY, QUICK_GAME).status_code == 302
    assert Match.objects.get().user0 == alice


def test_idle_guests_go_with_their_games_and_active_ones_stay(fake_clock, settings) -> None:  # noqa: F811
    settings.ACCOUNTS_GUEST_TTL = 3600
    idle, busy, signed_up = guest_create(), guest_create(), guest_create()
    for guest in (idle, busy, signed_up):
        match_create(user=guest, bot="random", rules=QUICK.rules)
    signed_up.is_guest = False
    signed_up.save()
    fake_clock.advance(1800)
    assert sweeper.sweep()["guests_delete_idle"] == 0  # none idle for an hour yet
    fake_clock.advance(3600)
    assert sweeper.sweep()["guests_delete_idle"] == 2  # idle and busy, both idle an hour
    idle, busy = guest_create(), guest_create()
    started = match_create(user=idle, bot="random", rules=QUICK.rules)
    moving = match_create(user=busy, bot="random", rules=QUICK.rules)
    _some_move_in(moving)
    fake_clock.advance(7200)
    Match.objects.filter(pk=started.pk).update(created_at=fake_clock.at)  # started lately
    Move.objects.filter(game__match=moving).update(created_at=fake_clock.at)  # moved lately
    Match.objects.filter(pk=moving.pk).update(created_at=fake_clock.at.replace(year=2000))
    assert sweeper.sweep()["guests_delete_idle"] == 0
    fake_clock.advance(3601)
    assert sweeper.sweep()["guests_delete_idle"] == 2
    assert not User.objects.filter(is_guest=True).exists()
    assert not Game.objects.exclude(match__user0=signed_up).exists()
    assert Match.objects.filter(user0=signed_up).exists()  # a guest who signed up keeps them


def _some_move_in(match: Match) -> None:
    """A move in the match's game: the guest's, or the bot's job's if it is to move."""
    from games.bots import bot_move
    from games.services import game_play_move
    from tests.games.helpers import legal

    game = current_game(match)
    if game.state["to_move"] == 0:
        move = legal(game, 0)[0]
        game_play_move(game_id=game.pk, user=match.user0, move=move, version=game.version)
    else:
        bot_move(game.pk, game.version)
    assert Move.objects.filter(game__match=match).exists()


def test_a_guests_session_ends_with_it(client, fake_clock, settings) -> None:  # noqa: F811
    settings.ACCOUNTS_GUEST_TTL = 60
    client.post(LOBBY, QUICK_GAME)
    fake_clock.advance(3600)
    Move.objects.update(created_at=fake_clock.at.replace(year=2000))
    assert sweeper.sweep()["guests_delete_idle"] == 1
    assert SESSION_KEY not in client.session


# --- what guests may not do -------------------------------------------------------------------


@pytest.fixture
def guest_client(client):
    client.post(LOBBY, QUICK_GAME)
    return client


@pytest.mark.parametrize(
    "page",
    [
        reverse("lobby:people"),
        reverse("api_tokens"),
        reverse("accounts:profile_edit"),
        reverse("accounts:delete"),
    ],
)
def test_pages_for_accounts_send_a_guest_to_sign_up_with_the_reason(guest_client, page) -> None:
    response = guest_client.get(page, follow=True)
    assert (
        response.redirect_chain[-1][0]
        == f"{reverse('accounts:signup')}?{urlencode({'next': page})}"
    )
    assert str(GUESTS_PLAY_BOTS) in response.content.decode()


def test_a_guest_cannot_challenge_or_post_a_seek(guest_client, bob) -> None:
    from lobby import services
    from lobby.errors import LobbyError

    guest = guest_of(guest_client)
    with pytest.raises(LobbyError) as refused:
        services.challenge_create(challenger=guest, challenged_username="bob", rules=QUICK.rules)
    assert refused.value.message == GUESTS_PLAY_BOTS
    with pytest.raises(LobbyError):
        services.seek_create(owner=guest, rules=QUICK.rules)
    response = guest_client.post(reverse("lobby:challenge_create"), {"challenge-username": "bob"})
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("accounts:signup")
    )


def test_nobody_can_challenge_a_guest(bob) -> None:
    from lobby import services
    from lobby.errors import LobbyError

    guest = guest_create()
    with pytest.raises(LobbyError) as refused:
        services.challenge_create(
            challenger=bob, challenged_username=guest.username, rules=QUICK.rules
        )
    assert refused.value.code == "not_found"


def test_a_guest_cannot_join_a_league_or_play_ranked(guest_client) -> None:
    from core.errors import GameError
    from leagues.models import League
    from leagues.services import league_join, ranked_member_check

    league = League.objects.create(slug="north", name="North", rules=QUICK.rules.to_dict())
    guest = guest_of(guest_client)
    for refused_call in (
        lambda: league_join(league=league, user=guest),
        lambda: ranked_member_check(league=league, user=guest),
        lambda: match_create(user=guest, bot="random", rules=QUICK.rules, ranked=True),
    ):
        with pytest.raises(GameError) as refused:
            refused_call()
        assert (refused.value.code, refused.value.message) == ("forbidden", GUESTS_PLAY_BOTS)
    response = guest_client.post(reverse("leagues:join", args=["north"]), follow=True)
    assert str(GUESTS_PLAY_BOTS) in response.content.decode()


def test_a_guest_session_cannot_use_the_api(guest_client) -> None:
    for response in (
        guest_client.get("/api/v1/me/"),
        guest_client.get(reverse("api:game", args=[Game.objects.get().pk])),
        guest_client.post("/api/v1/matches/", {"bot": "random"}, content_type="application/json"),
    ):
        assert response.status_code == 403
        assert response.json()["code"] == "forbidden"
        assert response.json()["message"] == str(GUESTS_PLAY_BOTS)


def test_a_guest_has_no_public_profile_and_their_history_is_their_own(guest_client) -> None:
    from django.test import Client

    guest = guest_of(guest_client)
    profile = reverse("accounts:profile", args=[guest.username])
    history = reverse("games:history", args=[guest.username])
    assert Client().get(profile).status_code == 404
    assert Client().get(history).status_code == 404
    assert guest_client.get(history).status_code == 200


def test_a_guests_matches_in_progress_against_bots_are_capped(client, settings) -> None:
    settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = 2
    for _ in range(2):
        assert client.post(LOBBY, QUICK_GAME).status_code == 302
    response = client.post(LOBBY, QUICK_GAME)
    assert response.status_code == 200
    assert "You have 2 matches against bots in progress" in response.content.decode()
    assert Match.objects.filter(user0=guest_of(client)).count() == 2
