"""Blocking: the services, the profile's Block/Unblock and Challenge buttons, the confirm
page and the blocked-players page. What a block stops in the lobby is tested in
tests/lobby/test_services.py."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import Block
from accounts.selectors import user_has_blocked, users_blocked_either_way
from accounts.services import user_block, user_delete, user_unblock
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


def test_block_and_unblock(user, bob) -> None:
    block = user_block(blocker=user, blocked=bob)
    assert (block.blocker, block.blocked) == (user, bob)
    assert user_block(blocker=user, blocked=bob) == block  # twice: still one block
    assert Block.objects.count() == 1
    assert user_has_blocked(blocker=user, blocked=bob)
    assert not user_has_blocked(blocker=bob, blocked=user)
    assert users_blocked_either_way(user_a=bob, user_b=user)

    assert user_unblock(blocker=user, blocked=bob) is True
    assert user_unblock(blocker=user, blocked=bob) is False
    assert not users_blocked_either_way(user_a=user, user_b=bob)


def test_nobody_blocks_themselves(user) -> None:
    with pytest.raises(ValueError):
        user_block(blocker=user, blocked=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=user, blocked=user)  # the database says so too


def test_another_players_profile_offers_challenge_and_block(logged_in, bob) -> None:
    html = logged_in.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert f'href="{reverse("lobby:people")}?username=bob#challenge"' in html
    assert "Challenge Bob" in html
    assert f'href="{reverse("accounts:block", args=["bob"])}"' in html
    assert "Unblock" not in html


def test_a_blocked_players_profile_offers_unblock_only(logged_in, user, bob) -> None:
    user_block(blocker=user, blocked=bob)
    html = logged_in.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "You blocked Bob." in html
    assert f'action="{reverse("accounts:unblock", args=["bob"])}"' in html
    assert "Challenge Bob" not in html


def test_being_blocked_does_not_show(client, user, bob) -> None:
    user_block(blocker=bob, blocked=user)
    client.force_login(user)
    html = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "Challenge Bob" in html and "blocked" not in html.lower()


def test_own_and_anonymous_profiles_have_no_block_button(client, user) -> None:
    html = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "Block" not in html and "Challenge" not in html
    client.force_login(user)
    html = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert f'href="{reverse("accounts:blocked")}"' in html
    assert f'href="{reverse("accounts:block", args=["alice"])}"' not in html


def test_blocking_asks_first_then_blocks_on_post(logged_in, user, bob) -> None:
    url = reverse("accounts:block", args=["bob"])
    page = logged_in.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Block Bob?" in html and f'action="{url}"' in html and 'method="post"' in html
    assert not Block.objects.exists()

    response = logged_in.post(url)
    assert response.url == reverse("accounts:profile", args=["bob"])
    assert user_has_blocked(blocker=user, blocked=bob)


def test_block_pages_refuse_oneself_unknowns_and_strangers(client, logged_in, user) -> None:
    response = logged_in.post(reverse("accounts:block", args=["alice"]))
    assert response.status_code == 302 and not Block.objects.exists()
    assert logged_in.post(reverse("accounts:block", args=["nobody"])).status_code == 404
    assert logged_in.post(reverse("accounts:unblock", args=["nobody"])).status_code == 404
    assert logged_in.get(reverse("accounts:unblock", args=["alice"])).status_code == 405

    client.logout()
    response = client.post(reverse("accounts:block", args=["alice"]))
    assert response.status_code == 302 and reverse("accounts:login") in response.url
    assert client.get(reverse("accounts:blocked")).status_code == 302


def test_the_blocked_list_unblocks_and_comes_back(logged_in, user, bob) -> None:
    carla = UserFactory(username="carla", display_name="Carla")
    user_block(blocker=user, blocked=bob)
    user_block(blocker=user, blocked=carla)
    user_delete(user=carla)  # a block of a player who left can still be lifted
    html = logged_in.get(reverse("accounts:blocked")).content.decode()
    assert "Bob" in html and "deleted player" in html

    response = logged_in.post(
        reverse("accounts:unblock", args=["bob"]), {"next": reverse("accounts:blocked")}
    )
    assert response.url == reverse("accounts:blocked")
    assert not user_has_blocked(blocker=user, blocked=bob)
    carla.refresh_from_db()
    response = logged_in.post(reverse("accounts:unblock", args=[carla.username]))
    assert response.url == reverse("accounts:blocked")
    assert not Block.objects.exists()
    html = logged_in.get(reverse("accounts:blocked")).content.decode()
    assert "You have not blocked anyone." in html


def test_the_edit_profile_page_links_to_the_blocked_list(logged_in) -> None:
    html = logged_in.get(reverse("accounts:profile_edit")).content.decode()
    assert f'href="{reverse("accounts:blocked")}"' in html


def test_profiles_link_to_the_match_history(client, user, bob) -> None:
    html = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert f'href="{reverse("games:history", args=["bob"])}"' in html
    assert "Bob's match history" in html
