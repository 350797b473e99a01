"""Names that impersonate (docs/accounts.md, "Names"): a username or display name whose Unicode
confusable skeleton matches a server bot's name, "Guest", "deleted player" (in any of the site's
languages) or another player's name is refused, and so is a name with bidirectional controls."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
EDIT = reverse("accounts:profile_edit")
LOOKS_LIKE = "That name looks too much like"
BIDI = "Names cannot contain characters that change the direction of text."


def sign_up(client, username):
    data = {"username": username, "email": "", "password1": "tangled-orchard-41"}
    return client.post(SIGNUP, {**data, "password2": data["password1"]})


def edit(client, display_name):
    data = {"display_name": display_name, "email": "alice@example.org", "language": ""}
    return client.post(EDIT, {**data, "country": "", "show_online": "on"})


def errors(response, field):
    return " ".join(response.context["form"].errors.get(field, []))


@pytest.mark.parametrize(
    "username",
    [
        "\u0415\u0445\u0440\u0435rtbot",  # Cyrillic Ie, Ha, Er, Ie + "rtbot": "Expertbot"
        "Gu\u0435st",  # Cyrillic Ie
        "GUEST",
        "de1eted_player",  # digit one for l
    ],
)
def test_sign_up_refuses_a_name_that_looks_like_the_sites_own(client, username):
    response = sign_up(client, username)
    assert response.status_code == 200
    assert LOOKS_LIKE in errors(response, "username")


def test_sign_up_refuses_a_name_that_looks_like_another_players(client, db):
    UserFactory(username="alice", display_name="")
    UserFactory(username="bruno", display_name="Queen of Spite")
    for lookalike in ("\u0430lice", "aIice", "QueenofSpite"):
        response = sign_up(client, lookalike)
        assert LOOKS_LIKE in errors(response, "username"), lookalike
    # Django folds compatibility forms of a username (NFKC), so this one is simply taken.
    assert "already exists" in errors(sign_up(client, "\uff41lice"), "username")


def test_sign_up_refuses_bidi_controls(client):
    response = sign_up(client, "evil\u202eman")
    assert BIDI in errors(response, "username")


def test_sign_up_takes_an_ordinary_name(client):
    assert sign_up(client, "carla").status_code == 302


def test_profile_refuses_display_names_that_impersonate(logged_in, user):
    UserFactory(username="bob", display_name="")
    with translation.override("vi"):
        deleted_vi = str(translation.gettext("deleted player"))
    for name in ("Expert bot", "Gr\u0435edy  Bot", "Guest", deleted_vi, "\u0412ob"):
        response = edit(logged_in, name)
        assert response.status_code == 200, name
        assert LOOKS_LIKE in errors(response, "display_name"), name
    user.refresh_from_db()
    assert user.display_name == "Alice W."


def test_profile_refuses_bidi_controls_in_a_display_name(logged_in, user):
    for control in ("\u202e", "\u2066", "\u200f", "\u061c"):
        response = edit(logged_in, f"Alice{control} W.")
        assert BIDI in errors(response, "display_name"), hex(ord(control))


def test_profile_takes_an_ordinary_name_or_ones_own_username(logged_in, user):
    assert edit(logged_in, "Queen of Spite").status_code == 302
    assert edit(logged_in, "ALICE").status_code == 302
