"""Personal API tokens: the page (create, key shown once, list, revoke), only a hash stored,
and the Bearer / Token header on the REST API."""

from __future__ import annotations

import hashlib
import re

import pytest

from api.models import ApiToken
from api.services import api_token_create

pytestmark = pytest.mark.django_db


def test_the_tokens_page_needs_a_login(client) -> None:
    response = client.get("/accounts/tokens/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_profile_page_links_to_the_tokens_page(client, alice) -> None:
    client.force_login(alice)
    assert b'href="/accounts/tokens/"' in client.get("/accounts/profile/edit/").content


def test_creating_a_token_shows_the_key_once_and_stores_only_its_hash(client, alice) -> None:
    client.force_login(alice)
    response = client.post("/accounts/tokens/", {"name": "my bot"})
    assert response.status_code == 200
    key = re.search(r'<code id="new-token-key">([^<]+)</code>', response.content.decode())[1]
    token = ApiToken.objects.get(user=alice)
    assert token.name == "my bot"
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert token.prefix == key[:8]
    assert not ApiToken.objects.filter(key_hash=key).exists()
    listed = client.get("/accounts/tokens/").content.decode()
    assert key not in listed
    assert "my bot" in listed and token.prefix in listed


def test_a_nameless_token_is_refused(client, alice) -> None:
    client.force_login(alice)
    client.post("/accounts/tokens/", {"name": ""})
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("scheme", ["Bearer", "Token", "bearer"])
def test_a_token_authenticates_on_the_api(api, alice, table_game, scheme) -> None:
    token, key = api_token_create(user=alice, name="x")
    response = api.get(f"/api/v1/games/{table_game.pk}/", HTTP_AUTHORIZATION=f"{scheme} {key}")
    assert response.status_code == 200
    assert response.json()["you"] == 0
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_a_revoked_token_is_refused_with_401(client, api, alice, bob, table_game) -> None:
    token, key = api_token_create(user=alice, name="x")
    client.force_login(bob)
    client.post(f"/accounts/tokens/{token.pk}/revoke/")  # not bob's: nothing happens
    token.refresh_from_db()
    assert token.revoked_at is None
    client.force_login(alice)
    response = client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    response = api.get(f"/api/v1/games/{table_game.pk}/", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_an_unknown_token_is_refused_with_401(api, table_game) -> None:
    response = api.get(f"/api/v1/games/{table_game.pk}/", HTTP_AUTHORIZATION="Bearer nope")
    assert response.status_code == 401


def test_the_admin_lists_tokens_without_keys(admin_client, alice) -> None:
    token, key = api_token_create(user=alice, name="laptop")
    listing = admin_client.get("/admin/api/apitoken/")
    assert listing.status_code == 200
    assert token.prefix.encode() in listing.content and key.encode() not in listing.content
    assert admin_client.get(f"/admin/api/apitoken/{token.pk}/change/").status_code == 200
    assert admin_client.get("/admin/api/apitoken/add/").status_code == 403


def test_a_busy_token_notes_its_use_at_most_once_a_minute(django_assert_num_queries) -> None:
    from datetime import timedelta

    from api.services import api_token_user
    from tests.accounts.factories import UserFactory

    token, key = api_token_create(user=UserFactory(), name="bot")
    assert api_token_user(key) == token.user
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    with django_assert_num_queries(1):  # the lookup only, no write
        api_token_user(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at == first
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(minutes=2))
    api_token_user(key)
    assert ApiToken.objects.get(pk=token.pk).last_used_at > first - timedelta(minutes=2)


def test_a_key_never_starts_with_a_dash(monkeypatch) -> None:
    """``--token -x…`` on a command line reads as two options, so such keys are drawn again."""
    from api import models

    drawn = iter(["-starts-with-a-dash", "fine-key"])
    monkeypatch.setattr(models.secrets, "token_urlsafe", lambda n: next(drawn))
    assert models.key_new() == "fine-key"


def test_tokens_per_user_are_capped_on_the_page(client, alice, settings) -> None:
    settings.API_TOKENS_PER_USER_LIMIT = 2
    client.force_login(alice)
    for name in ("one", "two"):
        assert (
            'id="new-token-key"'
            in client.post("/accounts/tokens/", {"name": name}).content.decode()
        )
    response = client.post("/accounts/tokens/", {"name": "three"})
    html = response.content.decode()
    assert response.status_code == 200 and 'id="new-token-key"' not in html
    assert "You have 2 tokens already: revoke one to make another." in html
    assert ApiToken.objects.filter(user=alice).count() == 2
    # a revoked token no longer counts
    client.post(f"/accounts/tokens/{ApiToken.objects.get(name='one').pk}/revoke/")
    assert (
        'id="new-token-key"' in client.post("/accounts/tokens/", {"name": "three"}).content.decode()
    )


def test_the_tokens_page_shows_the_header_to_send_in_every_language(client, alice) -> None:
    """The page's "Authorization: Bearer <key>" reads as text, not as an unknown HTML tag the
    browser swallows (it showed "Bearer ”")."""
    client.force_login(alice)
    for language in ("en", "my"):
        page = client.get("/accounts/tokens/", HTTP_ACCEPT_LANGUAGE=language)
        assert "Bearer &lt;key&gt;" in page.content.decode(), language
