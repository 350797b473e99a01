"""Changing the e-mail address on the profile page (docs/accounts.md, "E-mail address"): it
needs the current password, the new address gets a link to confirm it, the old one is told,
and until the link is opened the old address stays. The answer never says whether another
account has the address."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

EDIT = reverse("accounts:profile_edit")


def edit_data(**changes):
    return {
        "display_name": "Alice W.",
        "email": "alice@example.org",
        "language": "",
        "country": "IT",
        "show_online": "on",
        **changes,
    }


def confirm_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/email/confirm/\S+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_changing_the_address_without_the_password_is_refused(logged_in, user):
    response = logged_in.post(EDIT, edit_data(email="alice.new@example.org"))
    assert response.status_code == 200
    assert response.context["form"].errors["current_password"] == [
        "Type your password to change your e-mail address."
    ]
    user.refresh_from_db()
    assert user.email == "alice@example.org"
    assert mail.outbox == []


def test_a_wrong_password_is_refused(logged_in, user):
    response = logged_in.post(
        EDIT, edit_data(email="alice.new@example.org", current_password="not-it")
    )
    assert response.context["form"].errors["current_password"] == ["That is not your password."]
    assert mail.outbox == []


def test_with_the_password_the_new_address_gets_a_link_and_the_old_one_is_told(logged_in, user):
    response = logged_in.post(
        EDIT,
        edit_data(email="alice.new@example.org", display_name="Queen", current_password=PASSWORD),
        follow=True,
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "To confirm alice.new@example.org, open the link we sent there." in page
    user.refresh_from_db()
    assert user.email == "alice@example.org"  # unchanged until the link is opened
    assert user.display_name == "Queen"  # the rest of the form is saved at once
    to_new, to_old = sorted(mail.outbox, key=lambda m: m.to != ["alice.new@example.org"])
    assert to_new.to == ["alice.new@example.org"]
    assert to_old.to == ["alice@example.org"]
    assert "alice.new@example.org" in to_old.body
    assert "/accounts/email/confirm/" not in to_old.body

    confirmed = logged_in.get(confirm_link(to_new), follow=True)
    assert confirmed.status_code == 200
    assert "Your e-mail address is now alice.new@example.org." in confirmed.content.decode()
    user.refresh_from_db()
    assert user.email == "alice.new@example.org"
    again = logged_in.get(confirm_link(to_new))  # once only
    assert again.status_code == 400
    assert "This link was already used" in again.content.decode()


def test_an_address_another_account_has_gets_the_same_answer_and_no_link(logged_in, user):
    UserFactory(username="bruno", email="Bruno@Example.org")
    response = logged_in.post(
        EDIT, edit_data(email="bruno@example.ORG", current_password=PASSWORD), follow=True
    )
    page = response.content.decode()
    assert "To confirm bruno@example.org, open the link we sent there." in page
    assert "already exists" not in page and "in use" not in page
    assert User.objects.filter(email__iexact="bruno@example.org").count() == 1
    to_taken = next(m for m in mail.outbox if m.to == ["bruno@example.org"])
    assert "/accounts/email/confirm/" not in to_taken.body


def test_an_expired_link_says_so(logged_in, user, settings, monkeypatch):
    logged_in.post(EDIT, edit_data(email="alice.new@example.org", current_password=PASSWORD))
    link = confirm_link(next(m for m in mail.outbox if m.to == ["alice.new@example.org"]))
    settings.ACCOUNTS_EMAIL_CONFIRM_MAX_AGE = -1  # every link is older than that
    response = logged_in.get(link)
    assert response.status_code == 400
    assert "This link has expired" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "alice@example.org"


def test_a_tampered_link_is_refused(logged_in, user):
    logged_in.post(EDIT, edit_data(email="alice.new@example.org", current_password=PASSWORD))
    link = confirm_link(next(m for m in mail.outbox if m.to == ["alice.new@example.org"]))
    token = link.rstrip("/").rsplit("/", 1)[1]
    tampered = link.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    response = logged_in.get(tampered)
    assert response.status_code == 400
    assert "This link is not valid" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "alice@example.org"


def test_a_link_opened_while_signed_in_as_someone_else_is_refused(client, logged_in, user):
    logged_in.post(EDIT, edit_data(email="alice.new@example.org", current_password=PASSWORD))
    link = confirm_link(next(m for m in mail.outbox if m.to == ["alice.new@example.org"]))
    client.force_login(UserFactory(username="mallory"))
    response = client.get(link)
    assert response.status_code == 403
    assert "This link was sent to another account" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "alice@example.org"


def test_clearing_the_address_needs_the_password_and_tells_the_old_address(logged_in, user):
    refused = logged_in.post(EDIT, edit_data(email=""))
    assert "current_password" in refused.context["form"].errors
    response = logged_in.post(EDIT, edit_data(email="", current_password=PASSWORD))
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == ""
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]


def test_the_same_address_in_another_case_is_no_change(logged_in, user):
    response = logged_in.post(EDIT, edit_data(email="ALICE@example.org"))
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == "alice@example.org"
    assert mail.outbox == []


def test_the_old_address_is_told_when_in_the_accounts_time_zone(user, monkeypatch):
    from datetime import UTC, datetime

    from django.utils import timezone

    from accounts.services import email_change_request

    user.time_zone = "Asia/Yangon"  # the browser's, kept in the profile (core/timezones.py)
    user.save(update_fields=["time_zone"])
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 1, 15, 20, 0, tzinfo=UTC))
    with timezone.override("Europe/Rome"):  # whatever zone the page that asked was in
        email_change_request(user=user, email="", site="https://example.org")
    (told,) = mail.outbox
    assert "Jan. 16, 2026, 2:30 a.m. (Myanmar (Burma) Time (UTC+06:30))" in told.body
