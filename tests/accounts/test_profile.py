import pytest
from django.core import mail
from django.urls import reverse

from accounts import services
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

EDIT = reverse("accounts:profile_edit")


def profile_url(username):
    return reverse("accounts:profile", args=[username])


def test_profile_shows_public_information(client, user):
    user.country = "IT"
    user.save()
    response = client.get(profile_url("alice"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "<h1" in body and "Alice W." in body
    assert "@alice" in body
    assert "Italy" in body
    assert "\U0001f1ee\U0001f1f9" in body  # the Italian flag emoji
    assert "Member since" in body
    assert user.date_joined.strftime("%B %Y") in body
    assert "alice@example.org" not in body  # the e-mail address is private
    assert "coming soon" not in body.lower()


def test_profile_without_display_name_or_country(client):
    UserFactory(username="plain", display_name="", country="")
    body = client.get(profile_url("plain")).content.decode()
    assert '<h1 id="profile-name">plain</h1>' in body
    assert "Country" not in body


def test_own_profile_links_to_edit_others_do_not(client, user):
    other = UserFactory()
    client.force_login(other)
    assert EDIT not in client.get(profile_url("alice")).content.decode()
    client.force_login(user)
    assert EDIT in client.get(profile_url("alice")).content.decode()


def test_profile_url_in_another_case_redirects_to_the_canonical_one(client, user):
    response = client.get(profile_url("ALICE"))
    assert response.status_code == 301
    assert response.url == profile_url("alice")


def test_unknown_profile_is_404(client, db):
    assert client.get(profile_url("nobody")).status_code == 404


def test_deleted_profile_is_404(client, user):
    deleted = services.user_delete(user=user)
    assert client.get(profile_url("alice")).status_code == 404
    assert client.get(profile_url(deleted.username)).status_code == 404


# --- edit ------------------------------------------------------------------------------


def edit_data(**changes):
    return {
        "display_name": "Queen of Spite",
        "email": "alice@example.org",
        "language": "it",
        "country": "VN",
        **changes,
    }


def test_edit_needs_login(client):
    response = client.get(EDIT)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_edit_form_is_prefilled(logged_in):
    response = logged_in.get(EDIT)
    assert response.status_code == 200
    assert response.context["form"].initial["display_name"] == "Alice W."
    assert 'name="csrfmiddlewaretoken"' in response.content.decode()


def test_edit_saves(logged_in, user):
    response = logged_in.post(
        EDIT, edit_data(email="Alice.New@Example.org", current_password=PASSWORD)
    )
    assert response.status_code == 302
    assert response.url == profile_url("alice")
    user.refresh_from_db()
    assert user.display_name == "Queen of Spite"
    assert user.language == "it"
    assert user.country.code == "VN"
    assert user.email == "alice@example.org"  # until confirmed (test_email_change.py)
    assert mail.outbox[0].to == ["Alice.New@example.org"]  # the domain is normalised
    body = logged_in.get(response.url).content.decode()
    assert "Queen of Spite" in body and "Vietnam" in body


def test_edit_can_clear_display_name_language_and_country(logged_in, user):
    response = logged_in.post(EDIT, edit_data(display_name="  ", language="", country=""))
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.language, user.country.code or "") == ("", "", "")
    assert user.public_name == "alice"


def test_edit_can_clear_the_email_and_says_what_it_is_for(logged_in, user):
    page = logged_in.get(EDIT).content.decode()
    assert "without one, a forgotten password cannot be reset" in page
    response = logged_in.post(EDIT, edit_data(email="", current_password=PASSWORD))
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.email == ""


def test_edit_hides_or_shows_that_you_are_online(logged_in, user):
    html = logged_in.get(EDIT).content.decode()
    assert 'name="show_online"' in html and "Show when I am online" in html
    assert "Other players see you in the list of who is online now." in html
    logged_in.post(EDIT, edit_data())  # a checkbox left unticked posts nothing
    user.refresh_from_db()
    assert user.show_online is False
    logged_in.post(EDIT, edit_data(show_online="on"))
    user.refresh_from_db()
    assert user.show_online is True


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        (
            {"language": "xx"},
            "language",
            "Select a valid choice. xx is not one of the available choices.",
        ),
        (
            {"country": "ZZ"},
            "country",
            "Select a valid choice. ZZ is not one of the available choices.",
        ),
        (
            {"display_name": "x" * 41},
            "display_name",
            "Ensure this value has at most 40 characters (it has 41).",
        ),
    ],
)
def test_edit_bad_input(logged_in, user, changes, field, message):
    response = logged_in.post(EDIT, edit_data(**changes))
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
    user.refresh_from_db()
    assert user.display_name == "Alice W."
    assert user.email == "alice@example.org"


def test_edit_rejected_form_does_not_change_the_header_name(logged_in):
    response = logged_in.post(EDIT, edit_data(email="bad"))
    assert response.context["user"].public_name == "Alice W."


def test_edit_keeping_own_email_in_another_case_is_fine(logged_in, user):
    response = logged_in.post(EDIT, edit_data(email="ALICE@example.org"))
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("language", "germany"), [("vi", "Đức"), ("my", "ဂျာမနီ"), ("bn", "জার্মানি"), ("es", "Alemania")]
)
def test_the_country_reads_in_the_readers_language_the_flag_only_beside_it(
    client, user, language, germany
):
    user.country = "DE"
    user.save()
    client.cookies["django_language"] = language
    body = client.get(profile_url("alice")).content.decode()
    assert (
        '<dd class="profile-country"><span class="flag" aria-hidden="true">\U0001f1e9\U0001f1ea'
        f"</span> {germany}</dd>"
    ) in body
