"""A league's rules in the admin (issue 25, point 1): a field per knob with its range, the
presets one click away, validated by the engine, refused in the organiser's language, stored as
``Rules.to_dict()`` — for a moderator who is not staff as for a superuser, and for nobody who
does not run the league."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

import engine
from games.presets import CUSTOM, STANDARD
from leagues.models import League, Membership
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import SMALL, join, make_league
from tests.leagues.test_admin_scoping import form_data

pytestmark = pytest.mark.django_db

KNOBS = [
    "payoff_size",
    "hand_size",
    "decks",
    "side_stacks",
    "center_stacks",
    "king_on_empty",
    "refill_empty_hand",
    "match_target",
]


@pytest.fixture
def mod(league) -> Any:
    """A moderator of the North League who is not staff."""
    user = UserFactory(username="mod")
    join(league, user, role=Membership.Role.MODERATOR)
    assert not user.is_staff
    return user


def change_url(league: League) -> str:
    return reverse("admin:leagues_league_change", args=[league.pk])


def open_form(client: Any, league: League, **headers: Any) -> Any:
    page = client.get(change_url(league), **headers)
    assert page.status_code == 200
    return page


def errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200, "the form was saved"
    return {k: list(v) for k, v in response.context["adminform"].form.errors.items()}


def test_the_rules_are_a_field_per_knob_with_its_range_not_json(client, league, mod) -> None:
    client.force_login(mod)
    page = open_form(client, league)
    form = page.context["adminform"].form
    assert "rules" not in form.fields
    assert [name for name in form.fields if name in KNOBS or name == "preset"] == [
        "preset",
        *KNOBS,
    ]
    for name in KNOBS:
        assert form[name].value() == SMALL.to_dict()[name], name
    assert form["preset"].value() == CUSTOM  # SMALL is no preset
    payoff = form.fields["payoff_size"]
    assert (payoff.label, payoff.min_value, payoff.max_value) == ("Pay-off pile", 5, 30)
    assert str(payoff.help_text) == "Cards dealt to each pay-off pile (5 to 30)."
    decks = form.fields["decks"]
    assert (decks.min_value, decks.max_value) == (1, engine.rules.MAX_DECKS)
    html = page.content.decode()
    assert "engine Rules.to_dict()" not in html
    assert 'type="number" name="payoff_size" value="5" min="5" max="30"' in html
    assert 'class="module aligned custom-rules"' in html  # presets.js picks "Custom" from here
    assert "data-presets=" in html and "/static/js/presets.js" in html
    for label in ("Quick: Pay-off piles of 5", "Standard: ", "Full match: ", "Custom: "):
        assert label in html


def test_a_moderator_saves_the_knobs_and_the_engine_s_dict_is_stored(client, league, mod) -> None:
    client.force_login(mod)
    data = form_data(
        open_form(client, league),
        preset=CUSTOM,
        payoff_size="12",
        hand_size="6",
        decks="3",
        side_stacks="5",
        center_stacks="2",
        king_on_empty="",
        match_target="40",
    )
    data.pop("king_on_empty")  # an unchecked box sends nothing
    response = client.post(change_url(league), data)
    assert response.status_code == 302, errors(response)
    league.refresh_from_db()
    # every knob (compared as a dict: PostgreSQL's jsonb keeps no key order)
    assert league.rules == engine.Rules(
        payoff_size=12, hand_size=6, decks=3, side_stacks=5, center_stacks=2,
        king_on_empty=False, refill_empty_hand=True, match_target=40,
    ).to_dict()  # fmt: skip


def test_choosing_a_preset_and_saving_stores_its_knobs(client, league, mod) -> None:
    """Without JavaScript the knobs still hold the old values: the preset wins."""
    client.force_login(mod)
    data = form_data(open_form(client, league), preset=STANDARD.key, payoff_size="29")
    response = client.post(change_url(league), data)
    assert response.status_code == 302, errors(response)
    league.refresh_from_db()
    assert league.rules == STANDARD.rules.to_dict()
    assert open_form(client, league).context["adminform"].form["preset"].value() == "standard"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"decks": "1", "payoff_size": "30"},
            "__all__",
            "The deck is too small: it has 52 cards, and two pay-off piles of 30 and two hands "
            "of 5 need 70. Add a deck, or deal smaller piles or hands.",
        ),
        ({"payoff_size": "0"}, "payoff_size", "“Pay-off pile” must be at least 5."),
        ({"decks": "9"}, "decks", "“Decks” must be at most 8."),
        ({"side_stacks": "7"}, "side_stacks", "“Side stacks” must be at most 6."),
    ],
)
def test_a_knob_out_of_range_is_refused_with_the_engine_s_reason(
    client, league, mod, changes, field, message
) -> None:
    client.force_login(mod)
    data = form_data(open_form(client, league), preset=CUSTOM, **changes)
    assert errors(client.post(change_url(league), data)) == {field: [message]}
    league.refresh_from_db()
    assert league.rules == SMALL.to_dict()


def test_the_refusal_reads_in_the_organiser_s_language(client, league, mod, marked) -> None:
    """The admin is translated (LocaleMiddleware): the engine's reason and the knob's name come
    out of the catalog of the language asked for."""
    client.force_login(mod)
    data = form_data(open_form(client, league), preset=CUSTOM, payoff_size="0")
    for language in ("vi", "bn"):
        response = client.post(change_url(league), data, HTTP_ACCEPT_LANGUAGE=language)
        assert errors(response)["payoff_size"] == [
            f"[{language}]“[{language}]Pay-off pile” must be at least 5."
        ]
    data = form_data(open_form(client, league), preset=CUSTOM, decks="1", payoff_size="30")
    response = client.post(change_url(league), data, HTTP_ACCEPT_LANGUAGE="bn")
    assert errors(response)["__all__"][0].startswith("[bn]The deck is too small: it has 52")


def test_a_new_league_starts_from_the_house_rules(client) -> None:
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    page = client.get(reverse("admin:leagues_league_add"))
    form = page.context["adminform"].form
    assert form["preset"].value() == "full"
    assert {name: form[name].value() for name in KNOBS} == engine.Rules().to_dict()
    data = form_data(page, name="East", slug="east", preset="quick")
    response = client.post(reverse("admin:leagues_league_add"), data)
    assert response.status_code == 302, errors(response)
    assert (
        League.objects.get(slug="east").rules
        == engine.Rules(payoff_size=5, match_target=1).to_dict()
    )


def test_nobody_else_changes_the_league_s_rules(client, league, mod) -> None:
    """A moderator of another league, a member and plain staff reach no form of North's."""
    south = make_league("south")
    other = UserFactory(username="southmod")
    join(south, other, role=Membership.Role.MODERATOR)
    member = UserFactory(username="member")
    join(league, member)
    desk = UserFactory(username="desk", is_staff=True)
    for user in (other, member, desk):
        client.force_login(user)
        assert client.get(change_url(league)).status_code != 200, user
        client.post(change_url(league), {"preset": STANDARD.key, "name": "x", "slug": "north"})
    league.refresh_from_db()
    assert league.rules == SMALL.to_dict()


def test_who_may_only_view_a_league_reads_its_rules_as_a_list(client, league) -> None:
    viewer = UserFactory(username="viewer", is_staff=True)
    viewer.user_permissions.add(
        Permission.objects.get(codename="view_league", content_type__app_label="leagues")
    )
    client.force_login(viewer)
    page = open_form(client, league)
    assert "payoff_size" not in page.context["adminform"].form.fields
    html = page.content.decode()
    assert "<li>Pay-off pile: 5</li>" in html
    assert "<li>A King may start an empty center stack</li>" in html
    assert "<li>Points to win the match: 10</li>" in html
