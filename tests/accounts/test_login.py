import pytest
from axes.models import AccessAttempt
from django.test import override_settings
from django.urls import reverse

from tests.accounts.conftest import logged_in_user_id
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOGIN = reverse("accounts:login")
LOGOUT = reverse("accounts:logout")
BAD_LOGIN = (
    "Please enter a correct username and password. Note that both fields may be case-sensitive."
)


def log_in(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def test_login_page_has_the_form(client):
    response = client.get(LOGIN)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="csrfmiddlewaretoken"' in body
    assert 'for="id_username"' in body and 'for="id_password"' in body
    assert reverse("accounts:password_reset") in body


def test_good_login_redirects_and_logs_in(client, user):
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert logged_in_user_id(client) == user.pk


def test_login_follows_next(client, user):
    response = client.post(f"{LOGIN}?next=/rules/", {"username": "alice", "password": PASSWORD})
    assert response.url == "/rules/"


@pytest.mark.parametrize("typed", ["ALICE", "Alice", "aLiCe"])
def test_username_in_any_case(client, user, typed):
    response = log_in(client, typed, PASSWORD)
    assert response.status_code == 302
    assert logged_in_user_id(client) == user.pk


def test_bad_password_shows_an_error(client, user):
    response = log_in(client, "alice", "not-the-password")
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [BAD_LOGIN]
    assert "Please enter a correct username and password." in response.content.decode()
    assert logged_in_user_id(client) is None


def test_unknown_user_gets_the_same_error(client, db):
    response = log_in(client, "nobody", PASSWORD)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [BAD_LOGIN]


def test_inactive_user_cannot_log_in(client):
    UserFactory(username="sleepy", is_active=False)
    response = log_in(client, "sleepy", PASSWORD)
    assert response.status_code == 200
    assert logged_in_user_id(client) is None


def test_logout_by_post(logged_in, user):
    response = logged_in.post(LOGOUT)
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert logged_in_user_id(logged_in) is None


def test_logout_by_get_is_refused_and_keeps_the_session(logged_in, user):
    response = logged_in.get(LOGOUT)
    assert response.status_code == 405
    assert logged_in_user_id(logged_in) == user.pk


# --- throttling (django-axes): 5 failures lock the username + address pair ----------------


def fail_five_times(client, username="alice"):
    for attempt in range(5):
        response = log_in(client, username, f"wrong-{attempt}")
    return response


def test_five_failures_lock_the_username_even_with_the_right_password(client, user):
    for attempt in range(4):
        assert log_in(client, "alice", f"wrong-{attempt}").status_code == 200
    fifth = log_in(client, "alice", "wrong-4")
    assert fifth.status_code == 429
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert logged_in_user_id(client) is None
    assert "accounts/locked_out.html" in [t.name for t in response.templates]
    body = response.content.decode()
    assert "Too many failed log-ins" in body
    assert "Please wait 15 minutes, then try again." in body
    assert "after 5 failed attempts" in body
    assert AccessAttempt.objects.get(username="alice").failures_since_start >= 5


def test_another_users_login_is_unaffected_by_the_lock(client, user):
    bruno = UserFactory(username="bruno")
    fail_five_times(client)
    assert log_in(client, "alice", PASSWORD).status_code == 429
    response = log_in(client, "bruno", PASSWORD)
    assert response.status_code == 302
    assert logged_in_user_id(client) == bruno.pk


def test_four_failures_then_success_resets_the_count(client, user):
    for attempt in range(4):
        log_in(client, "alice", f"wrong-{attempt}")
    assert log_in(client, "alice", PASSWORD).status_code == 302
    client.logout()
    for attempt in range(4):
        assert log_in(client, "alice", f"wrong-again-{attempt}").status_code == 200
    assert log_in(client, "alice", PASSWORD).status_code == 302


@override_settings(AXES_USERNAME_CALLABLE="accounts.axes.username_for_lockout")
def test_case_insensitive_lock_key_stops_case_variants_from_dodging_the_lock(client, user):
    fail_five_times(client, "alice")
    assert log_in(client, "ALICE", PASSWORD).status_code == 429
    assert log_in(client, "Alice", PASSWORD).status_code == 429


# --- behind the reverse proxy (docs/deploy.md: PROXY_COUNT=1) ----------------------------------

PROXY = "127.0.0.1"  # every request reaches the server from the proxy's address


def log_in_from(client, address, username, password, forwarded_by_client=""):
    """A log-in through one proxy that appends the client's address to X-Forwarded-For
    (``forwarded_by_client``: what the client itself sent in that header, if anything)."""
    chain = f"{forwarded_by_client}, {address}" if forwarded_by_client else address
    return client.post(
        LOGIN,
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=chain,
    )


@override_settings(PROXY_COUNT=1)
def test_behind_the_proxy_a_lockout_holds_the_client_that_failed_and_no_other(client, user):
    for attempt in range(5):
        log_in_from(client, "203.0.113.7", "alice", f"wrong-{attempt}")
    assert log_in_from(client, "203.0.113.7", "alice", PASSWORD).status_code == 429
    # Nor can the attacker dodge it by sending a header of its own: the proxy appends.
    dodge = log_in_from(client, "203.0.113.7", "alice", PASSWORD, forwarded_by_client="1.2.3.4")
    assert dodge.status_code == 429
    other = log_in_from(client, "198.51.100.20", "alice", PASSWORD)
    assert other.status_code == 302
    assert logged_in_user_id(client) == user.pk
