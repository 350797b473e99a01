"""Bot accounts play ranked only in leagues that let bots play ranked (docs/bot_accounts.md):
ranked challenges, the queue, the engine-bot form and tournaments all ask
``ranked_member_check``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import CLOSED, FORBIDDEN, GameError
from leagues import services
from leagues.models import QueueEntry
from leagues.tournaments import services as ts
from lobby import services as lobby_services
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def robo(db):
    return UserFactory(username="robo", display_name="Robo", is_bot=True)


@pytest.fixture
def bots_league(db):
    return make_league("arena", name="Arena", bots_ranked=True)


def refusal(call, /, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


BOT_REFUSAL = "Robo is a bot account, and bots do not play ranked matches in North League."


def test_the_check_refuses_a_bot_account_only_where_bots_do_not_play_ranked(
    league, bots_league, robo, alice
):
    join(league, robo)
    join(bots_league, robo)
    error = refusal(services.ranked_member_check, league=league, user=robo)
    assert (error.code, error.message) == (FORBIDDEN, BOT_REFUSAL)
    assert services.ranked_member_check(league=bots_league, user=robo).user == robo
    assert services.ranked_member_check(league=league, user=robo, ranked=False).user == robo
    # A bot account that is no member is told that, in a league that lets bots play.
    other = make_league("south", bots_ranked=True)
    assert "not a member" in refusal(services.ranked_member_check, league=other, user=robo).message


def test_ranked_challenges_with_a_bot_account(league, bots_league, robo, alice):
    for each in (league, bots_league):
        join(each, robo)
        join(each, alice)
    for challenger, challenged in ((robo, "alice"), (alice, "robo")):
        error = refusal(
            lobby_services.challenge_create,
            challenger=challenger,
            challenged_username=challenged,
            league=league,
        )
        assert (error.code, error.message) == (FORBIDDEN, BOT_REFUSAL)

    challenge = lobby_services.challenge_create(
        challenger=alice, challenged_username="robo", league=bots_league
    )
    match = lobby_services.challenge_accept(challenge_id=challenge.pk, user=robo)
    assert match.ranked and match.league == bots_league and match.user1 == robo


def test_a_ranked_challenge_is_refused_at_accept_when_the_league_stops_letting_bots_play(
    bots_league, robo, alice
):
    join(bots_league, robo)
    join(bots_league, alice)
    challenge = lobby_services.challenge_create(
        challenger=robo, challenged_username="alice", league=bots_league
    )
    bots_league.bots_ranked = False
    bots_league.save()
    error = refusal(lobby_services.challenge_accept, challenge_id=challenge.pk, user=alice)
    assert error.code == CLOSED  # the lobby closes a ranked challenge that can no longer be played
    assert "Robo is a bot account, and bots do not play ranked matches in Arena." in error.message


def test_the_queue_with_a_bot_account(league, bots_league, robo, alice, client):
    join(league, robo)
    join(bots_league, robo)
    join(bots_league, alice)
    error = refusal(services.queue_join, league=league, user=robo)
    assert (error.code, error.message) == (FORBIDDEN, BOT_REFUSAL)
    assert not QueueEntry.objects.exists()

    client.force_login(robo)
    response = client.get(reverse("leagues:queue", args=[league.slug]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("leagues:detail", args=[league.slug])
    assert BOT_REFUSAL in response.content.decode()
    assert client.get(reverse("leagues:queue", args=[bots_league.slug])).status_code == 200

    services.queue_join(league=bots_league, user=robo)
    services.queue_join(league=bots_league, user=alice)
    [match] = services.queue_pair(league=bots_league)
    assert match.ranked and {match.user0, match.user1} == {robo, alice}


def test_the_queue_drops_a_waiting_bot_account_once_bots_may_not_play(bots_league, robo, alice):
    join(bots_league, robo)
    join(bots_league, alice)
    services.queue_join(league=bots_league, user=robo)
    services.queue_join(league=bots_league, user=alice)
    bots_league.bots_ranked = False
    bots_league.save()
    assert services.queue_pair(league=bots_league) == []
    assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["alice"]


def test_a_bot_account_plays_the_engine_ranked_only_where_bots_play(league, bots_league, robo):
    join(league, robo)
    join(bots_league, robo)
    error = refusal(services.ranked_match_create, league=league, user0=robo, bot="random")
    assert error.code == FORBIDDEN
    match = services.ranked_match_create(league=bots_league, user0=robo, bot="random")
    assert match.ranked and match.user0 == robo


def test_tournament_registration_with_a_bot_account(league, bots_league, robo):
    join(league, robo)
    join(bots_league, robo)
    ranked = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    ts.tournament_open_registration(tournament=ranked)
    error = refusal(ts.tournament_register, tournament=ranked, user=robo)
    assert (error.code, error.message) == (FORBIDDEN, BOT_REFUSAL)
    assert not ranked.entries.exists()

    casual = ts.tournament_create(
        league=league, name="Friendly", slug="friendly", format="swiss", ranked=False
    )
    ts.tournament_open_registration(tournament=casual)
    assert ts.tournament_register(tournament=casual, user=robo).user == robo

    open_cup = ts.tournament_create(league=bots_league, name="Open", slug="open", format="swiss")
    ts.tournament_open_registration(tournament=open_cup)
    assert ts.tournament_register(tournament=open_cup, user=robo).user == robo


def test_tournament_registration_page_shows_the_refusal(league, robo, client):
    join(league, robo)
    cup = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    ts.tournament_open_registration(tournament=cup)
    client.force_login(robo)
    url = reverse("leagues:tournament_register", args=[league.slug, "cup"])
    response = client.post(url, follow=True)
    assert BOT_REFUSAL in response.content.decode()
    assert not cup.entries.exists()


def test_standings_and_the_tournament_page_mark_the_bot_account(bots_league, robo, alice, client):
    join(bots_league, robo)
    join(bots_league, alice)
    body = client.get(reverse("leagues:detail", args=[bots_league.slug])).content.decode()
    assert 'Robo</a> <span class="badge-bot"' in body
    assert 'Alice</a> <span class="badge-bot"' not in body
    assert body.count('class="badge-bot"') == 1

    cup = ts.tournament_create(league=bots_league, name="Open", slug="open", format="swiss")
    ts.tournament_open_registration(tournament=cup)
    ts.tournament_register(tournament=cup, user=robo)
    ts.tournament_register(tournament=cup, user=alice)
    body = client.get(reverse("leagues:tournament", args=[bots_league.slug, "open"]))
    assert 'Robo <span class="badge-bot"' in body.content.decode()
