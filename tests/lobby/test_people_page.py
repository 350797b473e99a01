"""The people page's ways to find someone to play (/play/people/): who is online, the search
by name, the people played lately, each with a one-click challenge; and what a guest sees."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

import engine
from accounts.selectors import GUESTS_PLAY_BOTS
from accounts.services import user_block
from games.presets import QUICK, STANDARD
from games.services import match_create_between
from lobby import online
from lobby.models import Challenge
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

PEOPLE = reverse("lobby:people")
QUICK_URL = reverse("lobby:challenge_quick")


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def listed(html: str, part: str) -> list[str]:
    """The usernames of the people in the list ``data-part=<part>``, in order."""
    found = re.search(rf'<ul class="lobby-list" data-part="{part}">(.*?)</ul>', html, re.S)
    return re.findall(r'data-person="([^"]+)"', found.group(1)) if found else []


def page(client, **query) -> str:
    return client.get(PEOPLE, query).content.decode()


def test_who_is_online_is_listed_with_their_country_and_a_one_click_challenge(client, alice, bob):
    carol = UserFactory(username="carol", display_name="Carol", show_online=False)
    for user in (bob, carol):
        online.OnlineProcess("elsewhere").join(user.pk)
    client.force_login(alice)
    html = page(client)
    assert listed(html, "online") == ["bob"]  # Carol hides it
    # the country by its name, the flag only beside it (hidden from screen readers)
    assert re.search(
        r'<div class="[^"]*lobby-country[^"]*"><span class="flag" aria-hidden="true">'
        "\U0001f1ee\U0001f1f9</span> Italy</div>",
        html,
    )
    assert "data-online" in html  # notify.js asks for the live list when it sees this
    form = re.search(rf'<form method="post" action="{QUICK_URL}".*?</form>', html, re.S)
    assert form and 'name="challenge-username" value="bob"' in form.group(0)
    assert re.search(r'<option value="quick" selected>Quick</option>', form.group(0))
    assert '<option value="full">Full match</option>' in form.group(0)


def test_nobody_online_says_what_to_do_instead(client, alice):
    client.force_login(alice)
    html = page(client)
    assert listed(html, "online") == []
    assert "Nobody else is online right now" in html


def test_a_one_click_challenge_sends_a_casual_challenge_with_the_preset(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        QUICK_URL, {"challenge-username": "bob", "challenge-preset": STANDARD.key, "q": "bo"}
    )
    assert response.status_code == 302 and response.url == f"{PEOPLE}?q=bo"
    sent = Challenge.objects.get()
    assert (sent.challenger, sent.challenged, sent.league) == (alice, bob, None)
    assert sent.rules == STANDARD.rules.to_dict()
    assert said(response) == ["Challenge sent to Bob. You will be told here when they answer."]


def test_a_refused_one_click_challenge_says_why(client, alice, bob):
    user_block(blocker=bob, blocked=alice)
    client.force_login(alice)
    response = client.post(QUICK_URL, {"challenge-username": "bob", "challenge-preset": "quick"})
    assert response.url == PEOPLE
    assert said(response) == ["You cannot challenge this player."]
    response = client.post(QUICK_URL, {"challenge-username": "bob", "challenge-preset": "custom"})
    assert said(response)[-1] == "Choose the rules of the match, then challenge again."
    assert not Challenge.objects.exists()
    assert client.get(QUICK_URL).status_code == 405


def test_search_finds_players_by_username_or_name_in_any_case_prefixes_first(client, alice):
    UserFactory(username="zed", display_name="Annabel")
    UserFactory(username="hannah", display_name="")
    UserFactory(username="anna", display_name="")
    UserFactory(username="nobody", display_name="Someone")
    client.force_login(alice)
    html = page(client, q="  ANN ")
    assert listed(html, "found") == ["anna", "zed", "hannah"]  # starts with it, then contains
    assert 'value="ANN"' in html  # the box keeps what was typed (trimmed)
    assert 'name="q" value="ANN"' in html  # a challenge from the results comes back to them
    assert "No player\u2019s username or name contains" in page(client, q="xyz")


def test_search_leaves_out_guests_deleted_accounts_blocked_pairs_and_yourself(client, alice):
    UserFactory(username="ann-guest", is_guest=True)
    UserFactory(username="ann-gone", deleted_at=timezone.now())
    blocked = UserFactory(username="ann-blocked")
    blocker = UserFactory(username="ann-blocker")
    hidden = UserFactory(username="ann-hidden", display_name="", show_online=False)
    user_block(blocker=alice, blocked=blocked)
    user_block(blocker=blocker, blocked=alice)
    client.force_login(alice)
    assert listed(page(client, q="ann"), "found") == [hidden.username]  # hiding is for "online"
    assert listed(page(client, q="alice"), "found") == []


def test_search_results_come_a_page_at_a_time(client, alice, settings):
    settings.LOBBY_SEARCH_PAGE = 2
    for n in range(5):
        UserFactory(username=f"sam{n}", display_name="")
    client.force_login(alice)
    first = page(client, q="sam")
    assert listed(first, "found") == ["sam0", "sam1"]
    assert "Page 1 of 3" in first
    assert htmllib.escape("?q=sam&page=2") in first
    assert listed(page(client, q="sam", page=3), "found") == ["sam4"]
    assert listed(page(client, q="sam", page=99), "found") == ["sam4"]  # past the end: the last
    assert listed(page(client, q="s" * 500), "found") == []  # too long: no search at all


def test_the_people_played_lately_come_newest_first_once_each(client, alice, bob, carol):
    rules = engine.Rules(payoff_size=5, match_target=1)
    dave = UserFactory(username="dave", display_name="Dave")
    gone = UserFactory(username="gone", display_name="Gone")
    for other in (carol, bob, carol, dave, gone):
        match_create_between(user0=alice, user1=other, rules=rules)
    user_block(blocker=dave, blocked=alice)
    gone.deleted_at = timezone.now()
    gone.save()
    match_create_between(user0=bob, user1=carol, rules=rules)  # not Alice's
    client.force_login(alice)
    html = page(client)
    assert listed(html, "recent") == ["carol", "bob"]
    assert "last played" in html


def test_a_guest_sees_no_people_to_challenge_and_is_asked_to_sign_up(client, alice, bob):
    guest = UserFactory(username="guest-3", is_guest=True)
    online.OnlineProcess("elsewhere").join(bob.pk)
    client.force_login(guest)
    response = client.get(reverse("lobby:people"), {"q": "bob"}, follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("accounts:signup"))
    html = response.content.decode()
    assert str(GUESTS_PLAY_BOTS) in html
    assert QUICK_URL not in html and reverse("lobby:link_create") not in html
    assert 'data-part="online"' not in html and 'data-part="found"' not in html


def test_a_guest_cannot_send_a_one_click_challenge(client, bob):
    guest = UserFactory(username="guest-6", is_guest=True)
    client.force_login(guest)
    response = client.post(QUICK_URL, {"challenge-username": "bob", "challenge-preset": "quick"})
    assert said(response) == [str(GUESTS_PLAY_BOTS)]
    assert not Challenge.objects.exists()


def test_the_page_offers_a_challenge_link_with_the_presets(client, alice):
    client.force_login(alice)
    html = page(client)
    action = reverse("lobby:link_create")
    form = re.search(rf'<form method="post" action="{action}".*?</form>', html, re.S)
    assert form and f'<option value="{QUICK.key}" selected>' in form.group(0)
    assert "Make a challenge link" in form.group(0)
    assert "for the next 24 hours" in html


@pytest.mark.parametrize(
    ("language", "germany"), [("vi", "Đức"), ("my", "ဂျာမနီ"), ("es", "Alemania")]
)
def test_a_country_reads_in_the_readers_language(client, alice, bob, language, germany):
    bob.country = "DE"
    bob.save(update_fields=["country"])
    online.OnlineProcess("elsewhere").join(bob.pk)
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)
    item = re.search(r'data-person="bob".*?</li>', page(client), re.S)
    assert item and re.search(
        rf"lobby-country[^>]*>.*?</span> {germany}</div>", item.group(0), re.S
    )
