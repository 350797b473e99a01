import re

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User
from tests.accounts.conftest import logged_in_user_id
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

DELETE = reverse("accounts:delete")


def test_delete_needs_login(client):
    response = client.get(DELETE)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_delete_page_explains_and_asks_for_the_password(logged_in):
    response = logged_in.get(DELETE)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'type="password"' in body and 'name="csrfmiddlewaretoken"' in body
    assert "cannot be undone" in body


def test_wrong_password_refuses(logged_in, user):
    response = logged_in.post(DELETE, {"password": "not-my-password"})
    assert response.status_code == 200
    assert response.context["form"].errors["password"] == [
        "That is not your password. Your account was not deleted."
    ]
    user.refresh_from_db()
    assert user.username == "alice" and user.is_active and user.deleted_at is None
    assert logged_in_user_id(logged_in) == user.pk


def test_empty_password_refuses(logged_in, user):
    response = logged_in.post(DELETE, {"password": ""})
    assert response.context["form"].errors["password"] == ["This field is required."]
    user.refresh_from_db()
    assert user.deleted_at is None


def test_confirmed_deletion_anonymises_and_logs_out(logged_in, user):
    pk = user.pk
    response = logged_in.post(DELETE, {"password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert logged_in_user_id(logged_in) is None

    user = User.objects.get(pk=pk)  # the row stays
    assert re.fullmatch(r"deleted-[0-9a-f]{16}", user.username)
    assert user.email == ""
    assert user.display_name == ""
    assert not user.country
    assert user.language == ""
    assert not user.has_usable_password()
    assert not user.is_active
    assert user.deleted_at is not None
    assert user.public_name == "deleted player"


def test_deleted_user_cannot_log_in_or_reset(client, user):
    services.user_delete(user=user)
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert logged_in_user_id(client) is None
    client.post(reverse("accounts:password_reset"), {"email": "alice@example.org"})
    assert mail.outbox == []


def test_old_username_and_email_can_register_again(client, user):
    services.user_delete(user=user)
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "Alice",
            "email": "ALICE@example.org",
            "password1": "another-long-secret-5",
            "password2": "another-long-secret-5",
        },
    )
    assert response.status_code == 302
    new = User.objects.get(username="Alice")
    assert new.pk != user.pk
    assert User.objects.filter(pk=user.pk, is_active=False).exists()


def test_every_session_of_the_user_ends(user):
    phone, laptop = Client(), Client()
    phone.force_login(user)
    laptop.force_login(user)
    bystander = UserFactory()
    other = Client()
    other.force_login(bystander)

    phone.post(DELETE, {"password": PASSWORD})

    assert logged_in_user_id(laptop) is None
    assert laptop.get(reverse("accounts:profile_edit")).status_code == 302  # to log-in
    assert logged_in_user_id(other) == bystander.pk
    remaining = [s.get_decoded().get("_auth_user_id") for s in Session.objects.all()]
    assert str(user.pk) not in remaining


def test_deleted_usernames_are_unique(db):
    first, second = UserFactory(), UserFactory()
    services.user_delete(user=first)
    services.user_delete(user=second)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.username != second.username


def test_deleting_a_staff_account_drops_its_powers(db):
    admin = UserFactory(is_staff=True, is_superuser=True)
    services.user_delete(user=admin)
    admin.refresh_from_db()
    assert not admin.is_staff and not admin.is_superuser
