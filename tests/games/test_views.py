"""The lobby and the table pages (games.views): context, redirects, the form's bounds."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

import engine
from games.forms import MatchCreateForm
from games.models import Match
from games.presets import QUICK
from games.selectors import game_state_frame
from games.services import game_resign
from tests.games.helpers import current_game

pytestmark = pytest.mark.django_db

HOUSE = engine.Rules()
VALID = {
    "bot": "greedy",
    "payoff_size": 5,
    "hand_size": 5,
    "side_stacks": 4,
    "center_stacks": 3,
    "king_on_empty": "on",
    "refill_empty_hand": "on",
    "match_target": 10,
}


def test_the_lobby_offers_the_presets_with_quick_chosen_and_its_knobs_filled_in(
    client, alice
) -> None:
    client.force_login(alice)
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 200
    form = response.context["form"]
    assert isinstance(form, MatchCreateForm)
    assert list(form.fields) == [
        "preset", "bot", "payoff_size", "hand_size", "decks", "side_stacks", "center_stacks",
        "king_on_empty", "refill_empty_hand", "match_target",
    ]  # fmt: skip
    assert [value for value, _ in form.fields["bot"].choices] == ["random", "greedy", "expert"]
    for name in MatchCreateForm.KNOBS:
        assert form.fields[name].initial == getattr(QUICK.rules, name)
    html = response.content.decode()
    for label in ("Quick", "Standard", "Full match", "Custom"):
        assert f">{label}</label>" in html
    assert re.search(r'<input type="radio" name="preset" value="quick"[^>]*checked>', html)
    assert response.context["matches_in_progress"] == []


def test_posting_the_lobby_creates_a_match_and_opens_its_table(client, alice) -> None:
    client.force_login(alice)
    response = client.post(reverse("games:lobby"), {**VALID, "king_on_empty": ""})

    match = Match.objects.get()
    game = current_game(match)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", kwargs={"game_id": game.pk})
    assert (match.user0, match.bot1, match.target, match.ranked) == (alice, "greedy", 10, False)
    assert (
        match.rules == engine.Rules(payoff_size=5, match_target=10, king_on_empty=False).to_dict()
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bot", "grandmaster"),
        ("payoff_size", 4),
        ("payoff_size", 31),
        ("hand_size", 9),
        ("side_stacks", 0),
        ("center_stacks", 7),
        ("match_target", 0),
        ("match_target", "many"),
    ],
)
def test_the_form_refuses_values_out_of_bounds_with_a_clear_error(
    client, alice, field, value
) -> None:
    client.force_login(alice)
    response = client.post(reverse("games:lobby"), {**VALID, field: value})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field] and errors[field][0]
    assert not Match.objects.exists()


def test_the_lobby_lists_the_users_matches_in_progress(client, alice, bob, human_starts) -> None:
    mine = human_starts(alice)
    finished = human_starts(alice)
    game_resign(game_id=current_game(finished).pk, user=alice, scope="match")
    human_starts(bob)
    client.force_login(alice)

    listed = client.get(reverse("games:lobby")).context["matches_in_progress"]

    assert [m.pk for m in listed] == [mine.pk]
    assert listed[0].current_game == current_game(mine)


def test_the_table_gives_a_player_their_seat_and_state(client, alice, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)
    client.force_login(alice)

    response = client.get(reverse("games:table", kwargs={"game_id": game.pk}))

    assert response.status_code == 200
    context = response.context
    assert (context["game"], context["match"], context["seat"]) == (game, match, 0)
    assert context["ws_path"] == f"/ws/games/{game.pk}/"
    assert context["seat_names"] == ["Alice", "Greedy bot"]
    assert context["initial_state"] == game_state_frame(game, 0)
    assert json.loads(json.dumps(context["initial_state"])) == context["initial_state"]


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_anyone_may_watch_a_table(client, alice, bob, human_starts, who) -> None:
    game = current_game(human_starts(alice))
    if who == "stranger":
        client.force_login(bob)
    response = client.get(reverse("games:table", kwargs={"game_id": game.pk}))
    assert response.status_code == 200
    assert response.context["seat"] is None
    state = response.context["initial_state"]
    assert state == game_state_frame(game, None)
    assert [p["hand"] for p in state["view"]["players"]] == [None, None]
    assert alice.username not in json.dumps(state["view"])


def test_unknown_games_and_matches_are_404(client) -> None:
    assert client.get(reverse("games:table", kwargs={"game_id": 999999})).status_code == 404
    assert client.get(reverse("games:match", kwargs={"match_id": 999999})).status_code == 404


def test_a_match_address_leads_to_its_current_game(client, alice, human_starts) -> None:
    match = human_starts(alice)
    first = current_game(match)
    url = reverse("games:match", kwargs={"match_id": match.pk})
    assert client.get(url)["Location"] == reverse("games:table", kwargs={"game_id": first.pk})

    game_resign(game_id=first.pk, user=alice, scope="game")
    second = current_game(match)
    assert second.number == 2
    assert client.get(url)["Location"] == reverse("games:table", kwargs={"game_id": second.pk})


def test_matches_in_progress_against_bots_are_capped_on_the_form(client, alice, settings) -> None:
    """The play-a-bot form and the home page's quick game (the same view) refuse a match past
    GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT, saying why; a finished match makes room."""
    settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = 2
    client.force_login(alice)
    assert client.post(reverse("games:lobby"), VALID).status_code == 302
    assert (
        client.post(reverse("games:lobby"), {"bot": "random", "preset": "quick"}).status_code == 302
    )
    for given in (VALID, {"bot": "random", "preset": "quick"}):
        response = client.post(reverse("games:lobby"), given)
        assert response.status_code == 200
        assert (
            "You have 2 matches against bots in progress: finish or resign one first."
            in response.content.decode()
        )
    assert Match.objects.count() == 2
    game_resign(game_id=current_game(Match.objects.first()).pk, user=alice, scope="match")
    assert client.post(reverse("games:lobby"), VALID).status_code == 302
