"""A new player signs up, logs out, logs in again and finds their profile, in a real browser."""

import re
import secrets

import pytest

pytestmark = pytest.mark.browser

PASSWORD = "a-long-Browser-pass-42"


def test_sign_up_log_out_log_in_and_see_the_profile(page, live_server_url):
    from playwright.sync_api import expect

    username = f"player{secrets.token_hex(4)}"

    page.goto(f"{live_server_url}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Spite & Malice")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile("e-mail", re.IGNORECASE)).fill(f"{username}@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    # Signed up and logged in: back on the home page, welcomed, the nav shows the player.
    expect(page).to_have_url(f"{live_server_url}/")
    expect(page.get_by_role("status")).to_contain_text(username)
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name=username)).to_be_visible()

    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_role("link", name=username)).to_have_count(0)

    nav.get_by_role("link", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill(username.upper())  # usernames ignore case at log-in
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_role("main").get_by_role("button", name="Log in").click()

    expect(page).to_have_url(f"{live_server_url}/")
    expect(page.get_by_test_id("welcome")).to_contain_text(username)
    page.get_by_test_id("welcome").get_by_role("link", name="Your profile", exact=True).click()

    expect(page).to_have_url(re.compile(rf"/accounts/u/{username}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(username)
    expect(page.get_by_role("link", name="Edit profile")).to_be_visible()
