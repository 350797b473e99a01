"""What is rated (docs/leagues.md, "What is rated"): a ranked match counts only once both sides
played a real part of it; two people start a bounded number of ranked matches together; a new
rating stands below the established ones until it met enough opponents; beating a bot lifts a
rating only so far; aborting is limited. Played as players meet them: the REST API, the
league's page, the queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from api.services import api_token_create
from games import services as games
from games.models import Match
from leagues import services
from leagues.models import Membership, QueueEntry, RatingChange
from tests.accounts.factories import UserFactory
from tests.games.helpers import a_side_move
from tests.leagues.conftest import join, play_turns

pytestmark = pytest.mark.django_db


class Player:
    """A player with an API token, who acts through the REST API."""

    def __init__(self, user) -> None:
        self.user = user
        self.api = APIClient()
        key = api_token_create(user=user, name="cli")[1]
        self.api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")

    def challenge(self, opponent: Player, **payload):
        return self.api.post(
            "/api/v1/challenges/",
            {"opponent": opponent.user.username, **payload},
            format="json",
        )

    def accept(self, challenge_id: int):
        return self.api.post(f"/api/v1/challenges/{challenge_id}/accept/")

    def resign(self, match_id: int):
        return self.api.post(f"/api/v1/matches/{match_id}/resign/")

    def discard(self, match: Match):
        game = match.games.order_by("-number").first()
        return self.api.post(
            f"/api/v1/games/{game.pk}/moves/",
            {
                "move": a_side_move(game, game.to_move),
                "version": game.version,
                "id": f"v{game.version}",
            },
            format="json",
        )

    def cancel(self, challenge_id: int):
        return self.api.post(f"/api/v1/challenges/{challenge_id}/cancel/")


@pytest.fixture
def alice(league) -> Player:
    user = UserFactory(username="alice", display_name="Alice")
    join(league, user)
    return Player(user)


@pytest.fixture
def bob(league) -> Player:
    user = UserFactory(username="bob", display_name="Bob")
    join(league, user)
    return Player(user)


def ranked_match(first: Player, second: Player) -> Match:
    """``first`` challenges ``second`` to a ranked match of the north league; ``second``
    accepts: the match, through the API."""
    sent = first.challenge(second, league="north")
    assert sent.status_code == 201, sent.content
    accepted = second.accept(sent.json()["id"])
    assert accepted.status_code == 200, accepted.content
    return Match.objects.get(pk=accepted.json()["match"])


def rating(player: Player) -> float:
    return Membership.objects.get(user=player.user).rating


def test_a_match_resigned_at_once_is_finished_but_not_rated(league, alice, bob) -> None:
    match = ranked_match(alice, bob)
    assert bob.resign(match.pk).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == 0
    assert rating(alice) == rating(bob) == 1500
    assert not RatingChange.objects.exists()
    assert Membership.objects.get(user=alice.user).matches == 0


def test_a_match_each_side_played_a_part_of_is_rated(league, alice, bob, settings) -> None:
    match = ranked_match(alice, bob)
    for _ in range(2 * settings.LEAGUES_RATED_MIN_TURNS - 1):  # one turn short for one side
        mover = alice if match.games.get().to_move == match.seat_of(alice.user) else bob
        assert mover.discard(match).status_code == 201
    loser = alice if match.games.get().to_move == match.seat_of(alice.user) else bob
    assert loser.discard(match).status_code == 201  # now both have played enough
    assert bob.resign(match.pk).status_code == 200
    assert rating(alice) > 1500 > rating(bob)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_two_players_start_a_limited_number_of_ranked_matches_together(
    league, alice, bob, settings
) -> None:
    settings.LEAGUES_RATED_PAIR_LIMIT = 2
    for _ in range(2):
        play_turns(match := ranked_match(alice, bob))
        assert bob.resign(match.pk).status_code == 200
    refused = alice.challenge(bob, league="north")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert "Alice and Bob have played 2 ranked matches together" in refused.json()["message"]
    casual = alice.challenge(bob)  # a casual match is open
    assert casual.status_code == 201
    alice.cancel(casual.json()["id"])
    # The league page's rules say so.
    page = alice.api.get(reverse("leagues:detail", args=["north"])).content.decode()
    assert "Two players start at most 2 ranked matches together in 1 day" in page
    # A day later they may again.
    Match.objects.update(created_at=timezone.now() - timedelta(days=1, seconds=1))
    assert alice.challenge(bob, league="north").status_code == 201


def test_the_queue_keeps_apart_two_players_at_their_limit(league, alice, bob, settings) -> None:
    settings.LEAGUES_RATED_PAIR_LIMIT = 1
    play_turns(match := ranked_match(alice, bob))
    bob.resign(match.pk)
    Membership.objects.update(rating=1500)  # within each other's window: only the cap counts
    services.queue_join(league=league, user=alice.user)
    services.queue_join(league=league, user=bob.user)
    assert services.queue_pair(league=league) == []
    assert QueueEntry.objects.count() == 2


def test_new_ratings_stand_below_the_established_until_they_met_enough_opponents(
    client, league, settings
) -> None:
    settings.LEAGUES_ESTABLISHED_OPPONENTS = 2
    farmer, steady = UserFactory(username="farmer"), UserFactory(username="steady")
    join(league, farmer, rating=1950, deviation=60, opponents=1)
    join(league, steady, rating=1600, deviation=60, opponents=2)
    standings = client.get("/api/v1/leagues/north/standings/").json()["results"]
    rows = {row["player"]["username"]: row for row in standings}
    assert [row["player"]["username"] for row in standings] == ["steady", "farmer"]
    assert rows["farmer"]["provisional"] and not rows["farmer"]["established"]
    assert rows["steady"]["established"] and not rows["steady"]["provisional"]
    page = client.get(reverse("leagues:detail", args=["north"])).content.decode()
    assert page.index('data-username="steady"') < page.index('data-username="farmer"')
    farmer_row = page[page.index('data-username="farmer"') :].split("</tr>")[0]
    assert 'class="provisional"' in farmer_row
    assert "fewer than 2 different opponents" in page


def test_each_new_opponent_counts_once(league, alice, bob) -> None:
    carol = Player(UserFactory(username="carol"))
    join(league, carol.user)
    for opponent in (bob, carol, bob):
        play_turns(match := ranked_match(alice, opponent))
        opponent.resign(match.pk)
    assert Membership.objects.get(user=alice.user).opponents == 2
    services.league_ratings_recompute(league=league)
    assert Membership.objects.get(user=alice.user).opponents == 2


def test_wins_against_a_bot_lift_a_rating_no_higher_than_the_bots_plus_a_margin(
    league, alice, settings
) -> None:
    league.bots_ranked = True
    league.save()
    ceiling = settings.LEAGUES_BOT_RATINGS["greedy"] + settings.LEAGUES_BOT_MARGIN
    for _ in range(40):
        match = services.ranked_match_create(league=league, user0=alice.user, bot="greedy")
        play_turns(match)
        # The person wins the match: the bot's last game is lost on points.
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED,
            winner=0,
            end_reason=Match.EndReason.TARGET_REACHED,
            finished_at=timezone.now(),
        )
        services.rating_apply_match(match=Match.objects.get(pk=match.pk))
    assert 1500 < rating(alice) <= ceiling


def abort_through_the_table(match: Match, player: Player) -> None:
    games.game_abort(game_id=match.games.get().pk, user=player.user)


def test_aborting_too_often_closes_ranked_play_for_a_while(
    client, league, alice, bob, settings
) -> None:
    for _ in range(settings.LEAGUES_ABORT_LIMIT):
        abort_through_the_table(ranked_match(alice, bob), alice)
    refused = alice.challenge(bob, league="north")
    assert refused.status_code == 403
    assert "Alice aborted 3 ranked matches in 1 day" in refused.json()["message"]
    assert "ranked play opens again in" in refused.json()["message"]
    casual = alice.challenge(bob)  # casual matches stay open
    assert casual.status_code == 201
    alice.cancel(casual.json()["id"])
    client.force_login(alice.user)  # the queue page says why she may not wait there
    queue = client.get(reverse("leagues:queue", args=["north"]), follow=True)
    assert "ranked play opens again" in queue.content.decode()
    # Once the oldest abort is a day old, ranked play opens again.
    oldest = Match.objects.filter(aborted_by=alice.user).order_by("finished_at").first()
    Match.objects.filter(pk=oldest.pk).update(
        finished_at=timezone.now() - timedelta(days=1, seconds=1)
    )
    assert alice.challenge(bob, league="north").status_code == 201
