"""Bot accounts (docs/bot_accounts.md): a fresh account asks, an admin approves or declines;
a bot account is marked wherever it appears and plays casual matches like anyone."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.messages import get_messages
from django.template import Context, Template
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from accounts import services
from accounts.models import BotAccountRequest, User
from core.errors import BAD_MESSAGE, DUPLICATE, FORBIDDEN, NOT_FOUND, GameError
from games.models import Match
from games.selectors import game_state_frame
from games.services import match_create, match_create_between
from lobby import selectors as lobby_selectors
from lobby import services as lobby_services
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

SMALL = engine.Rules(payoff_size=5, match_target=10)
PAGE = reverse("accounts:bot_account")
REQUESTS = reverse("admin:accounts_botaccountrequest_changelist")
NOTE = "Greedy-plus: a Python program that plays through the API, one move a second."


@pytest.fixture
def alice(db) -> User:
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db) -> User:
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def robo(db) -> User:
    return UserFactory(username="robo", display_name="Robo", is_bot=True)


@pytest.fixture
def root(db) -> User:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def refusal(call, /, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


# --- asking -----------------------------------------------------------------------------------


def test_a_fresh_account_asks_on_its_page_and_sees_the_request_waiting(client, alice):
    client.force_login(alice)
    page = client.get(PAGE)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Ask to make this a bot account" in body and 'name="note"' in body
    assert 'class="badge-bot"' in body  # the page shows the mark it explains

    response = client.post(PAGE, {"note": f"  {NOTE}  "}, follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    assert "Your request was sent." in " ".join(texts(response))
    request = BotAccountRequest.objects.get()
    assert (request.user, request.note, request.status) == (alice, NOTE, "pending")
    assert request.decided_at is None and request.decided_by is None
    body = response.content.decode()
    assert "waiting for an admin" in body and NOTE in body
    assert 'name="note"' not in body  # no second request while one waits
    alice.refresh_from_db()
    assert not alice.is_bot


def test_the_page_needs_a_log_in_and_the_edit_profile_page_links_to_it(client, alice):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("accounts:login")
    )
    client.force_login(alice)
    assert PAGE in client.get(reverse("accounts:profile_edit")).content.decode()


def test_an_account_that_played_is_refused_cleanly(client, alice, bob):
    match_create_between(user0=alice, user1=bob, rules=SMALL)
    error = refusal(services.bot_account_request, user=alice, note=NOTE)
    assert error.code == FORBIDDEN and "no games played yet" in error.message

    client.force_login(alice)
    body = client.get(PAGE).content.decode()
    assert "no games played yet" in body and 'name="note"' not in body
    response = client.post(PAGE, {"note": NOTE}, follow=True)
    assert any("no games played yet" in text for text in texts(response))
    assert not BotAccountRequest.objects.exists()


def test_a_match_against_an_engine_bot_counts_as_played(alice):
    match_create(user=alice, bot="random", rules=SMALL)
    assert refusal(services.bot_account_request, user=alice, note=NOTE).code == FORBIDDEN


def test_a_bot_account_a_staff_account_and_a_second_request_are_refused(alice, robo, root):
    error = refusal(services.bot_account_request, user=robo, note=NOTE)
    assert (error.code, error.message) == (DUPLICATE, "This account is already a bot account.")
    error = refusal(services.bot_account_request, user=root, note=NOTE)
    assert error.code == FORBIDDEN and "Staff" in error.message

    services.bot_account_request(user=alice, note=NOTE)
    error = refusal(services.bot_account_request, user=alice, note="again")
    assert error.code == DUPLICATE and "already waiting" in error.message
    assert BotAccountRequest.objects.filter(user=alice).count() == 1


def test_a_bot_account_sees_what_it_is_and_no_form(client, robo):
    client.force_login(robo)
    body = client.get(PAGE).content.decode()
    assert "This is a bot account." in body and 'name="note"' not in body


def test_bad_notes_are_refused(client, alice):
    assert refusal(services.bot_account_request, user=alice, note="   ").code == BAD_MESSAGE
    error = refusal(services.bot_account_request, user=alice, note="x" * 501)
    assert error.code == BAD_MESSAGE and "500" in error.message

    client.force_login(alice)
    response = client.post(PAGE, {"note": ""})
    assert response.status_code == 200 and response.context["form"].errors["note"]
    response = client.post(PAGE, {"note": "x" * 501})
    assert response.status_code == 200 and "500" in str(response.context["form"].errors["note"])
    assert not BotAccountRequest.objects.exists()


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(note=st.text(min_size=0, max_size=520) | st.just("a program\x00"))
def test_any_note_is_stored_stripped_or_refused_as_bad_input(db, note):
    user = UserFactory(username=f"u{uuid.uuid4().hex[:12]}")
    cleaned = note.strip()
    if not cleaned or len(cleaned) > BotAccountRequest.NOTE_MAX_LENGTH or "\x00" in cleaned:
        assert refusal(services.bot_account_request, user=user, note=note).code == BAD_MESSAGE
        assert not BotAccountRequest.objects.filter(user=user).exists()
    else:
        request = services.bot_account_request(user=user, note=note)
        assert request.note == cleaned and request.is_pending


# --- the admin --------------------------------------------------------------------------------


def act(client, action: str, *requests: BotAccountRequest):
    return client.post(
        REQUESTS,
        {"action": action, "_selected_action": [r.pk for r in requests]},
        follow=True,
    )


def test_the_admin_approves_and_the_account_becomes_a_bot_account(client, root, alice, bob):
    asked = services.bot_account_request(user=alice, note=NOTE)
    other = services.bot_account_request(user=bob, note="Another program.")
    client.force_login(root)
    listing = client.get(REQUESTS, {"status__exact": "pending"})
    assert listing.status_code == 200
    assert [r.pk for r in listing.context["cl"].result_list] == [other.pk, asked.pk]

    response = act(client, "approve_requests", asked)
    assert "alice is now a bot account." in texts(response)
    asked.refresh_from_db()
    alice.refresh_from_db()
    assert alice.is_bot and asked.status == "approved"
    assert asked.decided_by == root and asked.decided_at is not None
    other.refresh_from_db()
    assert other.is_pending  # only the selected request changed
    assert client.get(REQUESTS, {"status__exact": "approved"}).context["cl"].result_list[0] == asked


def test_the_admin_declines_and_the_player_may_ask_again(client, root, alice):
    asked = services.bot_account_request(user=alice, note=NOTE)
    client.force_login(root)
    response = act(client, "decline_requests", asked)
    assert "alice's request was declined." in texts(response)
    asked.refresh_from_db()
    alice.refresh_from_db()
    assert not alice.is_bot
    assert (asked.status, asked.decided_by) == ("declined", root)

    client.force_login(alice)
    assert "was declined" in client.get(PAGE).content.decode()
    again = services.bot_account_request(user=alice, note="Fixed the program.")
    assert again.is_pending and BotAccountRequest.objects.filter(user=alice).count() == 2


def test_approval_is_refused_when_the_account_played_meanwhile(client, root, alice, bob):
    asked = services.bot_account_request(user=alice, note=NOTE)
    match_create_between(user0=bob, user1=alice, rules=SMALL)
    client.force_login(root)
    response = act(client, "approve_requests", asked)
    messages = texts(response)
    assert any("alice has played since asking" in m and "Decline" in m for m in messages)
    assert "No request was changed." in messages
    asked.refresh_from_db()
    alice.refresh_from_db()
    assert asked.is_pending and not alice.is_bot
    # Declining stays the admin's call.
    act(client, "decline_requests", asked)
    asked.refresh_from_db()
    assert asked.status == "declined"


def test_an_answered_request_is_not_answered_again_and_only_admins_answer(root, alice, bob):
    asked = services.bot_account_request(user=alice, note=NOTE)
    error = refusal(services.bot_account_approve, request_id=asked.pk, admin=bob)
    assert error.code == FORBIDDEN and "Only admins" in error.message
    services.bot_account_decline(request_id=asked.pk, admin=root)
    error = refusal(services.bot_account_approve, request_id=asked.pk, admin=root)
    assert error.code == FORBIDDEN and "already declined" in error.message
    error = refusal(services.bot_account_decline, request_id=asked.pk + 100, admin=root)
    assert error.code == NOT_FOUND


def test_admins_cannot_add_requests_and_the_user_admin_shows_bot_accounts(client, root, robo):
    client.force_login(root)
    assert client.get(reverse("admin:accounts_botaccountrequest_add")).status_code == 403
    users = reverse("admin:accounts_user_changelist")
    body = client.get(users).content.decode()
    assert "By bot account" in body and "column-is_bot" in body
    listed = client.get(users, {"is_bot__exact": "1"}).context["cl"].result_list
    assert list(listed) == [robo]


def test_a_player_cannot_reach_the_requests_admin(client, alice):
    client.force_login(alice)
    assert client.get(REQUESTS).status_code == 302  # to the admin's log-in


# --- marked everywhere ------------------------------------------------------------------------


def render(source: str, **context) -> str:
    return Template("{% load players %}" + source).render(Context(context))


def test_the_badge_tags(alice, robo):
    match = match_create_between(user0=robo, user1=alice, rules=SMALL)
    assert 'class="badge-bot"' in render("{% bot_badge who %}", who=robo)
    assert render("{% bot_badge who %}", who=alice) == ""
    assert render("{% bot_badge who %}", who=None) == ""
    assert "badge-bot" in render("{% bot_badge who %}", who={"name": "Robo", "is_bot": True})
    assert "badge-bot" in render("{% seat_badge m 0 %}", m=match)
    assert render("{% seat_badge m 1 %}", m=match) == ""
    assert "badge-bot" in render("{% opponent_badge m 1 %}", m=match)
    shown = render("{% player who %}", who=robo)
    assert '<a href="/accounts/u/robo/">Robo</a>' in shown and "badge-bot" in shown
    assert render("{% player who link=False %}", who=alice) == "Alice"


def test_the_table_frame_and_page_mark_the_bot_account(client, alice, robo):
    match = match_create_between(user0=alice, user1=robo, rules=SMALL)
    game = match.current_game
    seats = game_state_frame(game, None)["match"]["seats"]
    assert seats == [
        {"name": "Alice", "kind": "human", "is_bot": False},
        {"name": "Robo", "kind": "human", "is_bot": True},
    ]
    engine_match = match_create(user=alice, bot="greedy", rules=SMALL)
    seats = game_state_frame(engine_match.current_game, 0)["match"]["seats"]
    assert [s["is_bot"] for s in seats] == [False, True]  # a program plays the engine's seat

    body = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert 'Robo <span class="badge-bot"' in body
    assert 'Alice <span class="badge-bot"' not in body


def test_profile_history_and_lobby_mark_the_bot_account(client, alice, robo):
    client.force_login(alice)
    body = client.get(reverse("accounts:profile", args=["robo"])).content.decode()
    assert 'Robo <span class="badge-bot"' in body
    assert (
        "badge-bot" not in client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    )

    match = match_create_between(user0=alice, user1=robo, rules=SMALL)
    body = client.get(reverse("games:history", args=["alice"])).content.decode()
    assert 'Robo</a> <span class="badge-bot"' in body
    body = client.get(reverse("games:watch")).content.decode()
    assert 'Robo <span class="badge-bot"' in body
    assert match.status == Match.Status.ACTIVE


def test_lobby_persons_carry_is_bot(client, alice, robo):
    challenge = lobby_services.challenge_create(
        challenger=robo, challenged_username="alice", rules=SMALL
    )
    data = lobby_selectors.challenge_data(challenge, viewer_id=alice.pk)
    assert data["from"] == {"username": "robo", "name": "Robo", "is_bot": True}
    assert data["to"] == {"username": "alice", "name": "Alice", "is_bot": False}
    seek = lobby_services.seek_create(owner=robo, rules=SMALL)
    assert lobby_selectors.seek_data(seek, viewer_id=alice.pk)["owner"]["is_bot"] is True

    client.force_login(alice)
    body = client.get(reverse("lobby:people")).content.decode()
    assert body.count('class="badge-bot"') == 2  # the challenge and the seek


# --- casual play is free ----------------------------------------------------------------------


def test_casual_challenges_to_and_from_a_bot_account_start_matches(alice, robo):
    to_bot = lobby_services.challenge_create(
        challenger=alice, challenged_username="robo", rules=SMALL
    )
    match = lobby_services.challenge_accept(challenge_id=to_bot.pk, user=robo)
    assert (match.user0, match.user1, match.ranked) == (alice, robo, False)

    from_bot = lobby_services.challenge_create(
        challenger=robo, challenged_username="alice", rules=SMALL
    )
    match = lobby_services.challenge_accept(challenge_id=from_bot.pk, user=alice)
    assert (match.user0, match.user1, match.ranked) == (robo, alice, False)


def test_a_bot_account_posts_and_takes_seeks_and_plays_engine_bots(alice, robo):
    seek = lobby_services.seek_create(owner=robo, rules=SMALL)
    match = lobby_services.seek_take(seek_id=seek.pk, user=alice)
    assert (match.user0, match.user1) == (robo, alice)
    seek = lobby_services.seek_create(owner=alice, rules=SMALL)
    assert lobby_services.seek_take(seek_id=seek.pk, user=robo).user1 == robo
    assert match_create(user=robo, bot="random", rules=SMALL).user0 == robo
