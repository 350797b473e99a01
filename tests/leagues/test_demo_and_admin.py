"""The demo league from load_demo, and the admin pages of the leagues app."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.models import League, Membership, QueueEntry, RatingChange
from leagues.services import queue_join, ranked_match_create
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, resign_match

pytestmark = pytest.mark.django_db


def test_load_demo_makes_a_playable_demo_league_once() -> None:
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    league = League.objects.get(slug="demo")
    assert league.is_active and league.admission == "open"
    assert (league.rules["payoff_size"], league.rules["match_target"]) == (10, 25)
    members = {m.user.username: m for m in Membership.objects.filter(league=league)}
    assert set(members) == {"alice", "bruno"}
    assert members["alice"].role == "moderator" and members["bruno"].role == "player"
    assert all(m.is_active for m in members.values())
    match = ranked_match_create(
        league=league, user0=members["alice"].user, user1=members["bruno"].user
    )
    assert match.ranked and match.target == 25
    out = io.StringIO()
    call_command("load_demo", "--allow-production", stdout=out)
    assert Membership.objects.filter(league=league).count() == 2
    assert "leagues:" not in out.getvalue()


def test_the_admin_pages_render_and_approve(client, league, alice, bob) -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    a = join(league, alice)
    b = join(league, bob)
    resign_match(ranked_match_create(league=league, user0=alice, user1=bob), bob)
    queue_join(league=league, user=alice)
    for model in (League, Membership, QueueEntry, RatingChange):
        url = reverse(f"admin:leagues_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, model
    change = RatingChange.objects.first()
    url = reverse("admin:leagues_ratingchange_change", args=[change.pk])
    assert client.get(url).status_code == 200  # viewable, read-only
    assert client.post(url, {}).status_code == 403
    Membership.objects.filter(pk=b.pk).update(status=Membership.Status.PENDING)
    client.post(
        reverse("admin:leagues_membership_changelist"),
        {"action": "approve_selected", "_selected_action": [a.pk, b.pk]},
    )
    b.refresh_from_db()
    assert b.status == "active"
