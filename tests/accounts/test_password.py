import re

import pytest
from django.conf import global_settings
from django.core import mail
from django.urls import reverse

import spite.settings
from accounts.models import User
from tests.accounts.conftest import logged_in_user_id
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

CHANGE = reverse("accounts:password_change")
RESET = reverse("accounts:password_reset")
NEW = "quiet-lantern-73"


def test_password_change_needs_login(client):
    response = client.get(CHANGE)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_password_change_works_and_keeps_the_session(logged_in, user):
    assert logged_in.get(CHANGE).status_code == 200
    response = logged_in.post(
        CHANGE, {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert logged_in_user_id(logged_in) == user.pk
    done = logged_in.get(response.url)
    assert done.status_code == 200
    assert "Password changed" in done.content.decode()


def test_password_change_wrong_old_password(logged_in, user):
    response = logged_in.post(
        CHANGE, {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["old_password"] == [
        "Your old password was entered incorrectly. Please enter it again."
    ]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_password_change_weak_new_password(logged_in, user):
    response = logged_in.post(
        CHANGE, {"old_password": PASSWORD, "new_password1": "abc", "new_password2": "abc"}
    )
    assert response.status_code == 200
    assert "This password is too short." in " ".join(
        response.context["form"].errors["new_password2"]
    )
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def reset_link(message) -> str:
    match = re.search(r"https?://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)", message)
    assert match, message
    return match.group(1)


def test_password_reset_full_journey(client, user):
    assert client.get(RESET).status_code == 200
    response = client.post(RESET, {"email": "ALICE@example.org"})  # any case
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_done")
    assert client.get(response.url).status_code == 200

    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == ["alice@example.org"]
    assert email.subject == "Reset your Spite & Malice password"
    assert "Hello alice," in email.body
    link = reset_link(email.body)

    # The link redirects to a token-less URL that shows the form.
    response = client.get(link, follow=True)
    assert response.status_code == 200
    assert response.context["validlink"] is True
    form_url = response.redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_complete")
    assert client.get(response.url).status_code == 200

    user.refresh_from_db()
    assert user.check_password(NEW)
    assert (
        client.post(reverse("accounts:login"), {"username": "alice", "password": NEW}).status_code
        == 302
    )

    # The link works once.
    client.logout()
    response = client.get(link, follow=True)
    assert response.context["validlink"] is False
    assert "This link no longer works" in response.content.decode()


def test_password_reset_unknown_email_does_not_leak(client, user):
    known = client.post(RESET, {"email": "alice@example.org"})
    mail.outbox.clear()
    unknown = client.post(RESET, {"email": "nobody@example.org"})
    assert unknown.status_code == known.status_code == 302
    assert unknown.url == known.url == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_password_reset_bad_email_is_a_form_error(client):
    response = client.post(RESET, {"email": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors["email"] == ["Enter a valid email address."]


def test_password_reset_is_not_sent_to_inactive_accounts(client):
    UserFactory(email="gone@example.org", is_active=False)
    client.post(RESET, {"email": "gone@example.org"})
    assert mail.outbox == []


# --- limits on reset mails (docs/accounts.md, "Password reset") --------------------------------

TOO_MANY = "Too many password-reset e-mails were asked for"


@pytest.fixture
def reset_limits(settings):
    settings.ACCOUNTS_PASSWORD_RESETS_PER_ADDRESS = 2
    settings.ACCOUNTS_PASSWORD_RESETS_PER_CLIENT = 4
    settings.ACCOUNTS_PASSWORD_RESETS_WINDOW = 3600


def test_reset_mails_to_one_address_are_limited_whether_or_not_it_is_registered(
    client, user, reset_limits, settings
):
    settings.ACCOUNTS_PASSWORD_RESETS_PER_CLIENT = 100
    for address in ("alice@example.org", "nobody@example.org"):
        answers = [client.post(RESET, {"email": address}) for _ in range(3)]
        assert [a.status_code for a in answers] == [302, 302, 200]
        assert TOO_MANY in answers[2].content.decode()
    assert [m.to for m in mail.outbox] == [["alice@example.org"]] * 2
    # Any case of the address is the same address.
    assert TOO_MANY in client.post(RESET, {"email": "ALICE@example.org"}).content.decode()


def test_reset_mails_from_one_client_are_limited(client, db, reset_limits):
    from django.test import Client

    answers = [
        client.post(RESET, {"email": f"p{n}@example.org"}, REMOTE_ADDR="203.0.113.7")
        for n in range(5)
    ]
    assert [a.status_code for a in answers] == [302, 302, 302, 302, 200]
    assert TOO_MANY in answers[4].content.decode()
    other = Client().post(RESET, {"email": "p9@example.org"}, REMOTE_ADDR="198.51.100.20")
    assert other.status_code == 302


def test_reset_limits_end_with_their_period(client, user, reset_limits, monkeypatch):
    from accounts import limits

    now = [1_000_000.0]
    monkeypatch.setattr(limits, "now", lambda: now[0])
    for _ in range(2):
        client.post(RESET, {"email": "alice@example.org"})
    assert client.post(RESET, {"email": "alice@example.org"}).status_code == 200
    now[0] += 3600
    assert client.post(RESET, {"email": "alice@example.org"}).status_code == 302
    assert len(mail.outbox) == 3


# --- a new password revokes the API tokens (docs/api.md, "Tokens") ----------------------------


def _me(key: str) -> int:
    from django.test import Client

    return Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code


def test_a_password_reset_revokes_the_users_api_tokens(client, user):
    from api.services import api_token_create

    _token, key = api_token_create(user=user, name="my bot")
    _other, other_key = api_token_create(user=UserFactory(), name="theirs")
    assert _me(key) == 200
    client.post(RESET, {"email": "alice@example.org"})
    form_url = client.get(reset_link(mail.outbox[0].body), follow=True).redirect_chain[-1][0]
    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert _me(key) == 401
    assert _me(other_key) == 200  # only hers


def test_a_password_change_revokes_the_users_api_tokens(logged_in, user):
    from api.services import api_token_create

    _token, key = api_token_create(user=user, name="my bot")
    response = logged_in.post(
        CHANGE, {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 302
    assert _me(key) == 401
    assert logged_in_user_id(logged_in) == user.pk  # the session that changed it stays


def test_deleting_the_account_revokes_its_api_tokens(logged_in, user):
    from api.models import ApiToken
    from api.services import api_token_create

    token, _key = api_token_create(user=user, name="my bot")
    response = logged_in.post(reverse("accounts:delete"), {"password": PASSWORD})
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert not ApiToken.objects.filter(user=user, revoked_at__isnull=True).exists()


def test_the_sites_own_hasher_stores_pbkdf2_and_logs_in(client, settings):
    """Every other test hashes with MD5 (tests/conftest.py); the site's settings keep Django's
    hashers, PBKDF2 first: a sign-up stores such a hash and logs in with it."""
    site = getattr(spite.settings, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
    assert site[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    settings.PASSWORD_HASHERS = site
    password = "tangled-orchard-41"
    response = client.post(
        reverse("accounts:signup"),
        {"username": "carla", "password1": password, "password2": password},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get(username="carla")
    assert user.password.startswith("pbkdf2_sha256$")
    client.logout()
    login = reverse("accounts:login")
    assert client.post(login, {"username": "carla", "password": "not-it"}).status_code == 200
    response = client.post(login, {"username": "carla", "password": password})
    assert response.status_code == 302
    assert logged_in_user_id(client) == user.pk
