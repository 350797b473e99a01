import re

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.accounts.conftest import logged_in_user_id
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = reverse("accounts:signup")
GOOD = {
    "username": "carla",
    "email": "carla@example.org",
    "password1": "tangled-orchard-41",
    "password2": "tangled-orchard-41",
}


def post(client, **changes):
    return client.post(URL, {**GOOD, **changes})


def field_errors(response, field):
    return response.context["form"].errors.get(field, [])


def test_signup_page_renders_a_form_with_csrf(client):
    response = client.get(URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="csrfmiddlewaretoken"' in body
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in body
        assert f'for="id_{name}"' in body


def test_signup_creates_the_user_logs_in_and_redirects(client):
    response = post(client)
    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="carla")
    assert user.email == ""  # until the link sent to it is opened (test_email_change.py)
    assert user.check_password("tangled-orchard-41")
    assert user.is_active and not user.is_staff
    assert logged_in_user_id(client) == user.pk


def test_signup_follows_a_safe_next_but_not_an_offsite_one(client):
    response = client.post(f"{URL}?next=/rules/", GOOD)
    assert response.url == "/rules/"
    client.logout()
    response = client.post(
        f"{URL}?next=https://evil.example/", {**GOOD, "username": "dora", "email": "d@x.org"}
    )
    assert response.url == reverse("home")


def test_mismatched_passwords(client):
    response = post(client, password2="tangled-orchard-42")
    assert response.status_code == 200
    assert field_errors(response, "password2") == ["The two password fields didn\u2019t match."]
    assert not User.objects.filter(username="carla").exists()
    assert logged_in_user_id(client) is None


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("password123", "This password is too common."),
        ("q7#x", "This password is too short. It must contain at least 8 characters."),
        ("83649175203", "This password is entirely numeric."),
        ("carla1234", "The password is too similar to the username."),
    ],
)
def test_weak_passwords_are_refused_by_the_validators(client, password, message):
    response = post(client, password1=password, password2=password)
    assert response.status_code == 200
    assert message in field_errors(response, "password2")
    assert not User.objects.filter(username="carla").exists()


def test_errors_are_shown_next_to_the_field_and_described(client):
    response = post(client, password2="something-else-1")
    body = response.content.decode()
    assert 'id="id_password2_error"' in body
    assert 'aria-describedby="id_password2_helptext id_password2_error"' in body
    assert 'aria-invalid="true"' in body


@pytest.mark.parametrize("taken", ["Alice", "ALICE", "alice"])
def test_duplicate_username_in_any_case(client, taken):
    UserFactory(username="alice")
    response = post(client, username=taken)
    assert response.status_code == 200
    assert field_errors(response, "username") == ["A user with that username already exists."]
    assert User.objects.filter(username__iexact="alice").count() == 1


def test_signup_sends_a_link_to_confirm_the_address(client):
    response = post(client, email="Carla@Example.org")
    assert response.status_code == 302
    [message] = mail.outbox
    assert message.to == ["Carla@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/email/confirm/\S+/)", message.body).group(1)
    client.get(link)
    assert User.objects.get(username="carla").email == "Carla@example.org"


def test_an_address_another_account_has_gets_the_same_answer_as_a_new_one(client):
    UserFactory(username="anna", email="A@x.org")
    fresh = post(client, username="carla", email="carla@x.org")
    client.logout()
    taken = post(client, username="dora", email="a@X.org")
    assert taken.status_code == fresh.status_code == 302
    assert taken.url == fresh.url
    assert logged_in_user_id(client) == User.objects.get(username="dora").pk

    def shown(response, name: str, email: str) -> list[str]:
        return [
            str(m).replace(email, "E").replace(name, "N")
            for m in get_messages(response.wsgi_request)
        ]

    assert shown(taken, "dora", "a@x.org") == shown(fresh, "carla", "carla@x.org")
    assert User.objects.get(username="dora").email == ""
    assert User.objects.filter(email__iexact="a@x.org").count() == 1
    to_owner = next(m for m in mail.outbox if m.to == ["a@x.org"])
    assert "already belongs to an account" in to_owner.body
    assert "/accounts/email/confirm/" not in to_owner.body


@pytest.mark.parametrize("email", ["not-an-address", "carla@", "@example.org"])
def test_bad_email(client, email):
    response = post(client, email=email)
    assert response.status_code == 200
    assert field_errors(response, "email") == ["Enter a valid email address."]


def test_the_email_is_optional_and_the_form_says_what_it_is_for(client):
    page = client.get(URL).content.decode()
    assert "Optional. Only used to send you a link if you forget your password" in page
    assert not re.search(r'<input[^>]*name="email"[^>]*required', page)
    response = post(client, email="")
    assert response.status_code == 302
    assert User.objects.get(username="carla").email == ""


def test_bad_username(client):
    response = post(client, username="carla smith!")
    assert response.status_code == 200
    assert field_errors(response, "username")
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["Deleted-0a1b2c", "GUEST-0a1b2c"])
def test_the_deleted_and_guest_prefixes_are_reserved(client, username):
    response = post(client, username=username)
    prefix = username.split("-")[0].lower()
    assert field_errors(response, "username") == [
        f"Usernames starting with “{prefix}-” are reserved."
    ]
    assert not User.objects.exists()


def test_deleted_prefix_is_reserved(client):
    response = post(client, username="Deleted-0a1b2c")
    assert field_errors(response, "username") == [
        "Usernames starting with “deleted-” are reserved."
    ]
    assert not User.objects.exists()


def test_a_logged_in_user_is_sent_home(client):
    client.force_login(UserFactory())
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_signing_up_from_a_guest_session_keeps_the_guest_and_its_games(client):
    from accounts.services import guest_create

    guest = guest_create()
    client.force_login(guest)
    page = client.get(URL)
    assert page.status_code == 200 and page.context["guest"] is True
    response = post(client)
    assert response.status_code == 302
    guest.refresh_from_db()
    assert (guest.username, guest.is_guest, guest.public_name) == ("carla", False, "carla")
    assert guest.check_password(GOOD["password1"])
    assert logged_in_user_id(client) == guest.pk
    assert User.objects.count() == 1
