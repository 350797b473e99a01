"""What a moderator reads about requests to join: the line on the league's page (a count only
when some wait, else "No requests are waiting.") and the requests page's empty state."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues.models import League, Membership
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db


def _requests_line(html: str) -> str:
    found = re.search(r'<p[^>]*data-part="requests"[^>]*>(.*?)</p>', html, re.S)
    assert found, "no requests line"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_a_moderator_reads_no_requests_waiting_and_never_a_zero_count(client, alice) -> None:
    guild = make_league("guild", admission=League.Admission.APPROVAL)
    join(guild, alice, role=Membership.Role.MODERATOR)
    client.force_login(alice)
    page = client.get(reverse("leagues:detail", args=["guild"])).content.decode()
    assert _requests_line(page) == "No requests are waiting."
    assert not re.search(r"\b0 requests?\b", page)
    page = client.get(reverse("leagues:requests", args=["guild"])).content.decode()
    assert "No requests are waiting." in page and "data-request=" not in page


def test_a_count_links_to_the_requests_when_some_wait(client, alice, bob, carol) -> None:
    guild = make_league("guild", admission=League.Admission.APPROVAL)
    join(guild, alice, role=Membership.Role.MODERATOR)
    join(guild, bob, status=Membership.Status.PENDING)
    client.force_login(alice)
    url = reverse("leagues:detail", args=["guild"])
    page = client.get(url).content.decode()
    assert _requests_line(page) == "1 request to join is waiting"
    assert f'href="{reverse("leagues:requests", args=["guild"])}"' in page
    join(guild, carol, status=Membership.Status.PENDING)
    assert _requests_line(client.get(url).content.decode()) == "2 requests to join are waiting"
    page = client.get(reverse("leagues:requests", args=["guild"])).content.decode()
    assert "No requests are waiting." not in page and page.count("data-request=") == 2


def test_a_member_who_does_not_moderate_sees_no_requests_line(client, alice, bob) -> None:
    guild = make_league("guild", admission=League.Admission.APPROVAL)
    join(guild, alice)
    join(guild, bob, status=Membership.Status.PENDING)
    client.force_login(alice)
    page = client.get(reverse("leagues:detail", args=["guild"])).content.decode()
    assert 'data-part="requests"' not in page and "requests to join" not in page
