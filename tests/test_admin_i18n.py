"""The admin in the reader's language: each app's name, and Django's own admin chrome, which
Django's Burmese and Bengali catalogs mostly lack (core/admin_texts.py lists it for ours)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.models import Membership
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league
from tests.test_error_pages import texts

pytestmark = pytest.mark.django_db

#: Django's admin texts a league moderator meets on these pages, as Django writes them.
CHROME = (
    "Site administration",
    "Recent actions",
    "Skip to main content",
    "Toggle theme",
    "Log out",
    "Change password",
    "Run the selected action",
    "Clear selection",
    "selected",
    "Filter",
    "Show counts",
    "Save and continue editing",
    "Save and add another",
    "History",
    "Are you sure you want to delete",
    "Yes, I’m sure",  # noqa: RUF001  (Django's apostrophe)
    "No, take me back",
    "Date/time",
    "Please enter your old password",
)


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def test_the_admin_names_each_app_in_the_readers_language(client, root, marked) -> None:
    client.force_login(root)
    html = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="vi").content.decode()

    for name in ("Players and accounts", "Matches and games", "Leagues", "Lobby", "API tokens"):
        assert f">[vi]{name}</a>" in html, name
    for english in (">Accounts<", ">Games<", ">Public API<"):
        assert english not in html, english


@pytest.mark.parametrize("language", ["bn", "my"])
def test_the_admin_chrome_reads_in_bengali_and_burmese(client, root, language) -> None:
    """The index, a change list with its filters and actions, a change form, the delete
    confirmation, the history and the password change: none of Django's English left."""
    league = make_league()
    join(league, root, role=Membership.Role.MODERATOR)
    client.force_login(root)
    pages = [
        reverse("admin:index"),
        reverse("admin:leagues_membership_changelist"),
        reverse("admin:leagues_league_change", args=[league.pk]),
        reverse("admin:leagues_league_delete", args=[league.pk]),
        reverse("admin:leagues_league_history", args=[league.pk]),
        reverse("admin:password_change"),
    ]
    read = ""  # what a person reads: text nodes, labels, titles
    for page in pages:
        response = client.get(page, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, page
        read += "\n".join(texts(response.content.decode())) + "\n"

    left = [text for text in CHROME if text in read]
    assert not left, left


def test_the_admin_is_headed_with_the_sites_name_not_djangos(client, root, marked) -> None:
    client.force_login(root)
    html = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="my").content.decode()

    assert "[my]Spite &amp; Malice administration" in html
    assert "Django administration" not in html


def test_the_log_in_protection_is_listed_in_the_readers_language(client, root, marked) -> None:
    """django-axes ships no vi, es, it, bn or my catalog: its app and models read in ours."""
    import ast
    from pathlib import Path

    import axes

    client.force_login(root)
    html = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="my").content.decode()
    assert "[my]Log-in protection" in html
    assert "[my]access attempts" in html.lower()  # the admin capitalises the first letter
    assert ">Axes<" not in html

    source = (Path(axes.__file__).parent / "models.py").read_text()
    tree = ast.parse((Path(__file__).parents[1] / "core" / "axes.py").read_text())
    listed = [
        n.args[0].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "gettext_noop"
    ]
    assert listed and all(f'_("{text}")' in source for text in listed)
