"""Each player's match history (the Watch list: test_watch.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.selectors import match_history_for, match_history_rows
from games.services import game_abort, game_resign
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, current_game

pytestmark = pytest.mark.django_db


def test_history_lists_results_right_from_each_players_seat(client, alice, bob) -> None:
    won = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game_resign(game_id=current_game(won).pk, user=bob, scope="game")  # alice 5
    game_resign(game_id=current_game(won).pk, user=bob, scope="match")
    lost = services.match_create(user=alice, bot="expert", rules=SMALL)
    game_resign(game_id=current_game(lost).pk, user=alice, scope="match")
    aborted = services.match_create(user=alice, bot="greedy", rules=SMALL)
    game_abort(game_id=current_game(aborted).pk, user=alice)
    playing = services.match_create(user=alice, bot="random", rules=SMALL)
    UserFactory(username="carol")

    rows = match_history_rows(list(match_history_for(alice)), alice)
    seen = [(r.match, r.opponent, r.result, r.score, r.opponent_score, r.ranked) for r in rows]
    assert seen == [
        (playing, "Random bot", "in_progress", 0, 0, False),
        (aborted, "Greedy bot", "aborted", 0, 0, False),
        (lost, "Expert bot", "lost", 0, 0, False),
        (won, "Bob", "won", 5, 0, False),
    ]
    assert [g.number for g in rows[3].replayable] == [1, 2]
    assert rows[0].replayable == [] and rows[0].current_game == current_game(playing)
    [bobs] = match_history_rows(list(match_history_for(bob)), bob)
    assert (bobs.opponent, bobs.result, bobs.score, bobs.opponent_score, bobs.seat) == (
        "Alice", "lost", 0, 5, 1
    )  # fmt: skip

    response = client.get(reverse("games:history", args=["ALICE"]))
    assert response.status_code == 200 and response.context["player"] == alice
    html = response.content.decode()
    for game in rows[3].replayable:
        assert reverse("games:replay", args=[game.pk]) in html
    assert reverse("games:history", args=["bob"]) in html
    assert "5\u20130" in html and "in progress" in html and "aborted" in html
    assert client.get(reverse("games:history", args=["carol"])).context["rows"] == []
    assert client.get(reverse("games:history", args=["nobody"])).status_code == 404
