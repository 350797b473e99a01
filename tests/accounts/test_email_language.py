"""The password-reset e-mail speaks the account's language (its profile's choice), else the
language of the page it was asked from."""

import pytest
from django.contrib.auth import forms as auth_forms
from django.core import mail
from django.urls import reverse
from django.utils import translation

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

RESET = reverse("accounts:password_reset")


@pytest.fixture
def sent_in(monkeypatch):
    """The language active while each e-mail is rendered and sent."""
    languages: list[str] = []
    send = auth_forms.PasswordResetForm.send_mail

    def recording(self, *args, **kwargs):
        languages.append(translation.get_language())
        return send(self, *args, **kwargs)

    monkeypatch.setattr(auth_forms.PasswordResetForm, "send_mail", recording)
    return languages


def test_the_reset_mail_is_in_the_accounts_language(client, sent_in):
    user = UserFactory(language="vi")
    response = client.post(RESET, {"email": user.email}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    assert sent_in == ["vi"]
    assert len(mail.outbox) == 1


def test_without_a_profile_language_the_mail_follows_the_page(client, sent_in):
    user = UserFactory(language="")
    client.post(RESET, {"email": user.email}, HTTP_ACCEPT_LANGUAGE="it")
    assert sent_in == ["it"]
    assert len(mail.outbox) == 1
    assert user.get_username() in mail.outbox[0].body
