import pytest
from django.urls import reverse

from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:accounts_user_changelist")


@pytest.fixture
def admin_client_(client):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_changelist_loads_with_columns_and_filters(admin_client_):
    UserFactory(username="bruno", display_name="Bruno B.", country="IT")
    response = admin_client_.get(CHANGELIST)
    assert response.status_code == 200
    body = response.content.decode()
    for heading in ("Username", "E-mail address", "Display name", "Country", "Last login"):
        assert heading in body
    for filter_title in ("staff status", "superuser status", "active", "preferred language"):
        assert f"By {filter_title}" in body
    assert "Bruno B." in body


def test_changelist_search(admin_client_):
    UserFactory(username="bruno", display_name="Bruno B.")
    UserFactory(username="carla", display_name="Carla C.", email="carla@elsewhere.net")
    response = admin_client_.get(CHANGELIST, {"q": "elsewhere"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [User.objects.get(username="carla")]
    response = admin_client_.get(CHANGELIST, {"q": "Bruno B"})
    assert [u.username for u in response.context["cl"].result_list] == ["bruno"]


def test_changelist_filter(admin_client_):
    UserFactory(username="sleepy", is_active=False)
    response = admin_client_.get(CHANGELIST, {"is_active__exact": "0"})
    assert [u.username for u in response.context["cl"].result_list] == ["sleepy"]
    response = admin_client_.get(CHANGELIST, {"country": "IT"})
    assert response.status_code == 200


def test_change_page_shows_the_extra_fields(admin_client_):
    bruno = UserFactory(username="bruno")
    response = admin_client_.get(reverse("admin:accounts_user_change", args=[bruno.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    for name in ("display_name", "language", "country"):
        assert f'name="{name}"' in body
    assert "Deleted at" in body


def test_admin_change_duplicate_email_is_a_form_error(admin_client_):
    UserFactory(email="taken@example.org")
    bruno = UserFactory(username="bruno")
    url = reverse("admin:accounts_user_change", args=[bruno.pk])
    form = admin_client_.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "password"}
    data.update(
        {
            "email": "TAKEN@example.org",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "12:00:00",
            "groups": [],
            "user_permissions": [],
        }
    )
    response = admin_client_.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["email"] == [
        "An account with this e-mail address already exists."
    ]


def test_anonymise_action(admin_client_):
    bruno = UserFactory(username="bruno")
    response = admin_client_.post(
        CHANGELIST, {"action": "anonymise_accounts", "_selected_action": [bruno.pk]}
    )
    assert response.status_code == 302
    bruno.refresh_from_db()
    assert bruno.username.startswith("deleted-") and bruno.deleted_at is not None
