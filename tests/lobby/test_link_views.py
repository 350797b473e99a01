"""A challenge link's pages: making one on the people page, its page for the maker, for a
signed-out visitor (who signs up or logs in through it and is seated), for a player who
accepts with one click, and once it was used, cancelled or expired."""

from __future__ import annotations

import html as htmllib
import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import GUESTS_PLAY_BOTS
from accounts.services import user_block
from games.models import Game, Match
from games.presets import QUICK, STANDARD
from lobby import services
from lobby.models import ChallengeLink
from tests.accounts.factories import PASSWORD, UserFactory
from tests.lobby.conftest import SMALL

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-long-Link-pass-42"


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def link_page(link: ChallengeLink) -> str:
    return reverse("lobby:link", kwargs={"token": link.token})


def table_of(match: Match) -> str:
    return reverse("games:table", kwargs={"game_id": match.current_game.pk})


def href(html: str, text: str) -> str:
    """The address of the link whose text is ``text``."""
    found = re.search(rf'<a class="[^"]*" href="([^"]+)">{re.escape(text)}</a>', html)
    assert found, text
    return htmllib.unescape(found.group(1))


@pytest.fixture
def link(alice) -> ChallengeLink:
    return services.link_create(maker=alice, rules=STANDARD.rules)


def test_making_a_link_on_the_people_page_shows_it_to_copy_and_cancel(client, alice):
    client.force_login(alice)
    response = client.post(reverse("lobby:link_create"), {"link-preset": QUICK.key})
    assert response.status_code == 302 and response.url == reverse("lobby:people") + "#links"
    assert said(response) == ["Your challenge link is ready: copy it and send it to a friend."]
    made = ChallengeLink.objects.get()
    assert (made.maker, made.rules) == (alice, QUICK.rules.to_dict())
    html = client.get(reverse("lobby:people")).content.decode()
    assert f'value="http://testserver{link_page(made)}"' in html  # the whole address
    assert 'data-copy="link-url-' in html  # the Copy button (shown by copy.js)
    assert f'action="{reverse("lobby:link_cancel", args=[made.pk])}"' in html
    assert "None waiting for an answer." in html  # …and its paragraph hidden
    assert re.search(r'data-part="sent-empty" hidden>', html)


def test_a_guest_cannot_make_a_link(client):
    guest = UserFactory(username="guest-4", is_guest=True)
    client.force_login(guest)
    response = client.post(reverse("lobby:link_create"), {"link-preset": QUICK.key})
    assert response["Location"].startswith(reverse("accounts:signup"))
    assert said(response) == [str(GUESTS_PLAY_BOTS)]
    assert not ChallengeLink.objects.exists()


def test_a_signed_out_visitor_sees_who_invites_them_the_rules_and_the_way_in(client, link):
    html = client.get(link_page(link)).content.decode()
    assert '<h1 id="link-title">Alice challenges you to a match</h1>' in html
    assert "Standard: pay-off pile of 10, first to 20 points" in html
    assert f'href="{reverse("rules")}"' in html
    assert reverse("accounts:signup") + "?next=" in html
    assert reverse("accounts:login") + "?next=" in html
    assert '<meta name="robots" content="noindex">' in html
    assert reverse("lobby:link_accept", args=[link.token]) not in html


def test_signing_up_through_a_link_seats_the_new_player_at_the_table(client, alice, link):
    html = client.get(link_page(link)).content.decode()
    signup = href(html, "Sign up and play")
    page = client.get(signup).content.decode()
    action = re.escape(signup.split("?")[0])
    form = re.search(rf'<form method="post" action="{action}".*?</form>', page, re.S)
    [target] = re.findall(r'<input type="hidden" name="next" value="([^"]+)">', form.group(0))
    target = htmllib.unescape(target)
    assert target.startswith(link_page(link) + "?join=")
    response = client.post(
        signup,
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "next": target,
        },
    )
    assert response.status_code == 302 and response.url == target
    seated = client.get(target)
    match = Match.objects.get()
    assert seated.status_code == 302 and seated.url == table_of(match)
    assert (match.user0, match.user1.username) == (alice, "newcomer")
    # The nonce is spent: the link's page now says the player accepted it.
    again = client.get(target).content.decode()
    assert "You accepted this challenge." in again and table_of(match) in again


def test_a_second_tab_of_the_link_keeps_the_same_way_in(client, link):
    first = href(client.get(link_page(link)).content.decode(), "Sign up and play")
    second = href(client.get(link_page(link)).content.decode(), "Sign up and play")
    assert first == second  # signing up from either tab seats the visitor


def test_logging_in_through_a_link_seats_the_player(client, alice, bob, link):
    html = client.get(link_page(link)).content.decode()
    login = href(html, "Log in and play")
    response = client.post(login, {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302 and response.url.startswith(link_page(link) + "?join=")
    seated = client.get(response.url)
    assert seated.url == table_of(Match.objects.get())


def test_a_join_address_seats_nobody_without_the_visitors_own_nonce(client, alice, bob, link):
    """Sending a signed-in player to a link's address with some ``join`` value seats nobody:
    only the nonce kept in their own session, set when they opened it signed out, does."""
    client.get(link_page(link))  # some other browser's visit
    client.force_login(bob)  # force_login starts a new session: no nonce in it
    html = client.get(link_page(link) + "?join=guessed").content.decode()
    assert not Match.objects.exists()
    assert reverse("lobby:link_accept", args=[link.token]) in html  # asked to accept instead


def test_a_signed_in_player_accepts_with_one_click_and_a_second_is_refused(
    client, alice, bob, carol, link
):
    client.force_login(bob)
    html = client.get(link_page(link)).content.decode()
    assert "Accept and play" in html
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    match = Match.objects.get()
    assert response.url == table_of(match)

    client.force_login(carol)
    html = client.get(link_page(link)).content.decode()
    assert "This challenge link was already used: someone accepted it first." in html
    assert reverse("lobby:link_accept", args=[link.token]) not in html
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    assert response.url == link_page(link)
    assert said(response) == ["Someone else already used this challenge link."]
    assert Game.objects.count() == 1


def test_the_maker_sees_their_link_to_copy_and_cannot_accept_it(client, alice, link):
    client.force_login(alice)
    html = client.get(link_page(link)).content.decode()
    assert "Your challenge link" in html
    assert f'value="http://testserver{link_page(link)}"' in html
    assert "js/copy.js" in html
    assert reverse("lobby:link_accept", args=[link.token]) not in html
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    assert said(response) == ["This is your own challenge link: send it to a friend."]


def test_a_blocked_player_and_a_guest_are_refused_with_the_reason(client, alice, bob, link):
    user_block(blocker=alice, blocked=bob)
    client.force_login(bob)
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    assert said(response) == ["You cannot accept this challenge."]
    guest = UserFactory(username="guest-5", is_guest=True)
    client.force_login(guest)
    html = client.get(link_page(link)).content.decode()
    assert "Guests play the bots only: sign up to accept this challenge." in html
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    assert said(response)[-1] == str(GUESTS_PLAY_BOTS)
    assert not Match.objects.exists()


def test_cancelled_expired_and_unknown_links(client, alice, bob, link):
    client.force_login(alice)
    response = client.post(reverse("lobby:link_cancel", args=[link.pk]))
    assert said(response) == ["Challenge link cancelled."]
    client.force_login(bob)
    assert "This challenge link was cancelled." in client.get(link_page(link)).content.decode()

    old = services.link_create(maker=alice, rules=SMALL)
    ChallengeLink.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(1))
    assert "This challenge link expired." in client.get(link_page(old)).content.decode()
    missing = reverse("lobby:link", kwargs={"token": "no-such-link"})
    assert client.get(missing).status_code == 404
    assert client.post(missing + "accept/").status_code == 404


def test_accepting_signed_out_goes_back_to_the_links_page(client, link):
    response = client.post(reverse("lobby:link_accept", args=[link.token]))
    assert response.status_code == 302 and response.url == link_page(link)
    assert not Match.objects.exists()
