"""games.admin_rules: every admin that stores a rules dict edits it through the knob fields
(challenges, seeks, challenge links; a league's in tests/leagues/test_admin_rules.py), and a
match's rules, fixed once it is dealt, are shown as a list an organiser reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import engine
from games.admin_rules import RulesAdminForm, rules_list
from games.presets import CUSTOM, QUICK
from lobby.models import Challenge, ChallengeLink, Seek
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL
from tests.leagues.test_admin_scoping import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def _later():
    return timezone.now() + timedelta(hours=1)


@pytest.fixture(params=["challenge", "seek", "challengelink"])
def stored(request, alice, bob):
    """A lobby row with SMALL rules, and its admin change page's name."""
    if request.param == "challenge":
        row = Challenge.objects.create(
            challenger=alice, challenged=bob, rules=SMALL.to_dict(), expires_at=_later()
        )
    elif request.param == "seek":
        row = Seek.objects.create(owner=alice, rules=SMALL.to_dict(), expires_at=_later())
    else:
        row = ChallengeLink.objects.create(
            maker=alice, token="t0k3n", rules=SMALL.to_dict(), expires_at=_later()
        )
    return row, f"admin:lobby_{request.param}_change"


def test_the_lobby_s_rules_are_edited_through_the_knobs(client, root, stored) -> None:
    row, name = stored
    url = reverse(name, args=[row.pk])
    client.force_login(root)
    page = client.get(url)
    form = page.context["adminform"].form
    assert isinstance(form, RulesAdminForm) and "rules" not in form.fields
    assert form["payoff_size"].value() == SMALL.payoff_size

    response = client.post(url, form_data(page, preset=CUSTOM, hand_size="7", decks="3"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    row.refresh_from_db()
    assert (
        row.rules
        == engine.Rules(
            payoff_size=SMALL.payoff_size, match_target=SMALL.match_target, hand_size=7, decks=3
        ).to_dict()
    )

    client.post(url, form_data(client.get(url), preset=QUICK.key))
    row.refresh_from_db()
    assert row.rules == QUICK.rules.to_dict()


def test_a_match_s_rules_are_shown_as_a_list_and_never_change(client, root, human_starts) -> None:
    match = human_starts(root)
    url = reverse("admin:games_match_change", args=[match.pk])
    client.force_login(root)
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not {"rules", "preset", "payoff_size"} & set(form.fields)
    html = page.content.decode()
    assert f"<li>Pay-off pile: {SMALL.payoff_size}</li>" in html
    assert "<li>Decks: 2</li>" in html
    assert "<li>An empty hand refills during the turn</li>" in html

    response = client.post(url, {**form_data(page), "rules": '{"payoff_size": 30}'})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.rules == SMALL.to_dict()


def test_the_list_reads_in_the_reader_s_language(marked) -> None:
    from django.utils import translation

    with translation.override("vi"):
        html = str(rules_list(engine.Rules(king_on_empty=False).to_dict()))
    assert "<li>[vi]Hand: 5</li>" in html
    assert "<li>[vi]Only an Ace starts an empty center stack</li>" in html


def test_stored_rules_the_engine_refuses_are_shown_as_the_house_rules() -> None:
    assert rules_list({"payoff_size": 0}) == rules_list(None) == rules_list({})
    assert "<li>Pay-off pile: 20</li>" in rules_list(None)
