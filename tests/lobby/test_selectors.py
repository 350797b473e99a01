"""``lobby.selectors.matches_just_started``: a match a challenge or a seek began is announced
again to both its players for ``LOBBY_TABLE_WAITING`` seconds, while it is on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from lobby import selectors, services
from tests.lobby.conftest import SMALL

pytestmark = pytest.mark.django_db


def accepted_challenge(alice, bob):
    sent = services.challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    match = services.challenge_accept(challenge_id=sent.pk, user=bob)
    return sent, match


def test_both_players_of_an_accepted_challenge_hear_of_its_start_again(alice, bob, carol) -> None:
    sent, match = accepted_challenge(alice, bob)
    game = match.current_game
    expected = {
        "type": "challenge_accepted",
        "challenge": sent.pk,
        "match": match.pk,
        "game": game.pk,
        "url": f"/play/games/{game.pk}/",
    }
    assert selectors.matches_just_started(user=alice) == [expected]
    assert selectors.matches_just_started(user=bob) == [expected]
    assert selectors.matches_just_started(user=carol) == []


def test_a_taken_seek_is_told_again_until_the_wait_ends(alice, bob, settings) -> None:
    seek = services.seek_create(owner=alice, rules=SMALL)
    match = services.seek_take(seek_id=seek.pk, user=bob)
    [frame] = selectors.matches_just_started(user=alice)
    assert (frame["type"], frame["seek"], frame["game"]) == (
        "seek_taken",
        seek.pk,
        match.current_game.pk,
    )
    assert (frame["owner"]["username"], frame["taker"]["username"]) == ("alice", "bob")

    later = timezone.now() + timedelta(seconds=settings.LOBBY_TABLE_WAITING + 1)
    assert selectors.matches_just_started(user=alice, now=later) == []


def test_a_match_no_longer_on_is_not_told_again(alice, bob) -> None:
    from games.services import game_resign

    _sent, match = accepted_challenge(alice, bob)
    game_resign(game_id=match.current_game.pk, user=bob, scope="match")
    assert selectors.matches_just_started(user=alice) == []
