"""The people lobby's pages and forms (/play/people/), the nav and notification script in
base.html, the admin, and the demo loader."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from accounts.services import user_block
from games.models import Game, Match
from lobby import demo, services
from lobby.models import Challenge, Seek
from lobby.selectors import seeks_open
from tests.accounts.factories import UserFactory
from tests.games.clocks import FakeClock
from tests.lobby.conftest import SMALL

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EXTERNAL = re.compile(
    r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//"""
    r"""|url\(\s*["']?(?:https?:)?//|@import"""
)
KNOBS = {
    "payoff_size": 5,
    "hand_size": 5,
    "side_stacks": 4,
    "center_stacks": 3,
    "king_on_empty": "on",
    "refill_empty_hand": "on",
    "match_target": 10,
}


def prefixed(prefix: str, **extra: object) -> dict[str, object]:
    return {f"{prefix}-{name}": value for name, value in {**KNOBS, **extra}.items()}


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_people_lobby_needs_a_log_in(client) -> None:
    response = client.get(reverse("lobby:people"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
    assert client.post(reverse("lobby:seek_create"), prefixed("seek")).status_code == 302
    assert not Seek.objects.exists()


def test_the_people_lobby_lists_seeks_and_challenges_with_their_forms(
    client, alice, bob, carol
) -> None:
    seek = services.seek_create(owner=bob, rules=SMALL)
    mine = services.seek_create(owner=alice, rules=SMALL)
    received = services.challenge_create(challenger=carol, challenged_username="alice", rules=SMALL)
    sent = services.challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    client.force_login(alice)
    html = client.get(reverse("lobby:people")).content.decode()

    assert "<h1>Play a person</h1>" in html
    assert f'action="{reverse("lobby:seek_take", args=[seek.pk])}"' in html
    assert f'action="{reverse("lobby:seek_cancel", args=[mine.pk])}"' in html
    assert f'action="{reverse("lobby:seek_take", args=[mine.pk])}"' not in html
    assert f'action="{reverse("lobby:challenge_accept", args=[received.pk])}"' in html
    assert f'action="{reverse("lobby:challenge_decline", args=[received.pk])}"' in html
    assert f'action="{reverse("lobby:challenge_cancel", args=[sent.pk])}"' in html
    assert "Pay-off pile of 5, first to 10 points" in html
    assert re.search(r"expires in (9|10)\xa0minutes", html)
    assert "data-seeks" in html  # notify.js asks for the live list when it sees this
    assert 'name="seek-payoff_size" value="5"' in html  # the Quick preset filled in
    assert re.search(r'name="seek-preset" value="quick"[^>]*checked>', html)
    assert 'name="challenge-username"' in html
    assert re.search(r'<script type="module" src="/static/js/lobby\.js"></script>', html)
    assert not EXTERNAL.search(html)


def test_a_profiles_challenge_link_fills_in_the_username(client, alice) -> None:
    client.force_login(alice)
    html = client.get(reverse("lobby:people") + "?username=bob").content.decode()
    assert re.search(r'name="challenge-username"[^>]*value="bob"', html)


def test_posting_a_challenge(client, alice, bob) -> None:
    client.force_login(alice)
    response = client.post(reverse("lobby:challenge_create"), prefixed("challenge", username="Bob"))
    assert response.status_code == 302 and response.url == reverse("lobby:people")
    sent = Challenge.objects.get()
    assert (sent.challenger, sent.challenged, sent.rules) == (alice, bob, SMALL.to_dict())
    assert said(response) == ["Challenge sent to Bob. You will be told here when they answer."]


def test_a_refused_challenge_says_why_on_the_form(client, alice, bob) -> None:
    user_block(blocker=bob, blocked=alice)
    client.force_login(alice)
    response = client.post(reverse("lobby:challenge_create"), prefixed("challenge", username="bob"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "You cannot challenge this player." in html
    assert 'id="id_challenge-username_error"' in html

    response = client.post(
        reverse("lobby:challenge_create"),
        prefixed("challenge", username="bob", payoff_size=2),
    )
    assert '<details class="custom-rules" open>' in response.content.decode()
    assert not Challenge.objects.exists()


def test_posting_and_cancelling_a_seek(client, alice, settings) -> None:
    settings.LOBBY_MAX_OPEN_SEEKS = 1
    client.force_login(alice)
    response = client.post(reverse("lobby:seek_create"), prefixed("seek"))
    assert response.status_code == 302
    seek = Seek.objects.get()
    assert seek.owner == alice and seek.rules == SMALL.to_dict()

    again = client.post(reverse("lobby:seek_create"), prefixed("seek"))
    assert "You have 1 open seek already" in again.content.decode()

    response = client.post(reverse("lobby:seek_cancel", args=[seek.pk]))
    assert response.url == reverse("lobby:people")
    assert Seek.objects.get().status == "cancelled"
    assert said(response)[-1] == "Seek cancelled."


def test_taking_a_seek_goes_to_the_table(client, alice, bob, carol) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    client.force_login(bob)
    response = client.post(reverse("lobby:seek_take", args=[seek.pk]))
    game = Game.objects.get()
    assert response.url == reverse("games:table", kwargs={"game_id": game.pk})

    client.force_login(carol)
    response = client.post(reverse("lobby:seek_take", args=[seek.pk]))
    assert response.url == reverse("lobby:people")
    assert said(response) == ["Someone else took this seek first."]
    assert client.get(reverse("lobby:seek_take", args=[seek.pk])).status_code == 405


def test_answering_a_challenge(client, alice, bob, carol) -> None:
    declined = services.challenge_create(challenger=carol, challenged_username="bob", rules=SMALL)
    accepted = services.challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    client.force_login(bob)
    response = client.post(reverse("lobby:challenge_decline", args=[declined.pk]))
    assert response.url == reverse("lobby:people") and said(response) == ["Challenge declined."]

    response = client.post(reverse("lobby:challenge_accept", args=[accepted.pk]))
    match = Match.objects.get()
    assert response.url == reverse("games:table", kwargs={"game_id": match.current_game.pk})
    assert (match.user0, match.user1) == (alice, bob)

    client.force_login(alice)
    response = client.post(reverse("lobby:challenge_cancel", args=[accepted.pk]))
    assert said(response)[-1] == "This challenge was already accepted."


def test_expired_entries_are_marked_when_the_lobby_is_opened(client, alice, bob) -> None:
    seek = services.seek_create(owner=bob, rules=SMALL)
    Seek.objects.filter(pk=seek.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(alice)
    html = client.get(reverse("lobby:people")).content.decode()
    assert Seek.objects.get().status == "expired"
    assert f'action="{reverse("lobby:seek_take", args=[seek.pk])}"' not in html
    assert "No open seeks right now" in html


def test_base_links_play_and_loads_the_notices_only_for_players(client, alice) -> None:
    anonymous = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("games:lobby")}">Play<' in anonymous
    assert "notify.js" not in anonymous and "data-notify" not in anonymous
    assert "lobby.css" not in anonymous

    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("lobby:people")}">People<' in html
    assert re.search(r'<script type="module" src="/static/js/notify\.js"></script>', html)
    assert 'href="/static/css/lobby.css"' in html
    assert 'data-notify-ws="/ws/me/"' in html and 'data-username="alice"' in html
    assert 'aria-live="polite"' in html


def test_the_bot_lobby_links_to_the_people_lobby(client, alice) -> None:
    client.force_login(alice)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("lobby:people")}"' in html


def test_the_static_files_load_nothing_from_another_host() -> None:
    for name in ("static/js/notify.js", "static/js/lobby.js", "static/css/lobby.css"):
        text = (ROOT / name).read_text()
        assert not EXTERNAL.search(text), name
        assert "http://" not in text and "https://" not in text, name


def test_the_admin_lists_challenges_and_seeks(client, alice, bob) -> None:
    services.challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    services.seek_create(owner=bob, rules=SMALL)
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for name in ("challenge", "seek"):
        url = reverse(f"admin:lobby_{name}_changelist")
        response = client.get(
            url, {"q": "bob", "status__exact": "pending" if name == "challenge" else "open"}
        )
        assert response.status_code == 200
        assert "bob" in response.content.decode()


def test_the_demo_seek_is_open_after_a_restart_and_never_twice(settings, monkeypatch) -> None:
    """`make run` runs load_demo each time: bruno's seek is posted afresh, so a newcomer finds
    it open however long ago the last run was, and there is only ever one."""
    settings.DEBUG = True
    clock = FakeClock()
    monkeypatch.setattr(timezone, "now", clock)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "lobby: posted bruno's open seek, open for 30 minutes" in out.getvalue()
    (first,) = seeks_open()
    assert first.owner.username == "bruno"

    clock.advance(settings.LOBBY_SEEK_TTL + 60)  # the site was stopped; the seek expired
    assert seeks_open() == []
    out = StringIO()
    call_command("load_demo", stdout=out)
    (fresh,) = seeks_open()
    assert fresh.owner.username == "bruno" and fresh.pk != first.pk
    assert fresh.expires_at == clock.at + timedelta(seconds=settings.LOBBY_SEEK_TTL)

    clock.advance(60)  # run again while it is open: posted afresh, still one
    assert demo.load(StringIO()) is False
    (again,) = seeks_open()
    assert again.expires_at == clock.at + timedelta(seconds=settings.LOBBY_SEEK_TTL)
    assert Seek.objects.get(pk=fresh.pk).status == "cancelled"


def test_base_links_the_live_games(client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("games:watch")}">Watch<' in html


def test_challenging_one_player_again_and_again_is_capped_on_the_form(
    client, alice, bob, settings
) -> None:
    """Challenge, cancel, challenge again…: past LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT
    challenges to one player in the window (cancelled ones count), the form says why."""
    settings.LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT = 2
    settings.LOBBY_CHALLENGES_TO_ONE_PLAYER_WINDOW = 3600
    carol = UserFactory(username="carol", display_name="Carol")
    client.force_login(alice)
    url = reverse("lobby:challenge_create")
    for _ in range(2):
        assert client.post(url, prefixed("challenge", username="bob")).status_code == 302
        sent = Challenge.objects.filter(challenged=bob, status="pending").get()
        client.post(reverse("lobby:challenge_cancel", args=[sent.pk]))

    response = client.post(url, prefixed("challenge", username="bob"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "You challenged this player 2 times lately: wait before challenging them again." in html
    assert Challenge.objects.filter(challenged=bob).count() == 2
    # another player is not concerned, and the window moves on
    assert client.post(url, prefixed("challenge", username="carol")).status_code == 302
    Challenge.objects.filter(challenged=bob).update(
        created_at=timezone.now() - timedelta(seconds=3601)
    )
    assert client.post(url, prefixed("challenge", username="bob")).status_code == 302
    assert Challenge.objects.filter(challenged=carol).count() == 1
