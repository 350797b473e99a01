"""An entrant who leaves the league, is banned or deletes the account while a tournament runs is
withdrawn from it: their open pairing is forfeited, and the round still closes when the others'
match ends, with the next round paired without them (docs/tournaments.md, "Withdrawals"). An
entrant who aborts their match forfeits it, and the round goes on."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from api.services import api_token_create
from games.models import Match
from leagues.models import Entry, Membership, Round, Tournament, TournamentMatch
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, resign_match

pytestmark = pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


def swiss_of_four(league) -> tuple[Tournament, list]:
    users = [UserFactory(username=f"p{i}", password="pw-secret-1") for i in range(1, 5)]
    for i, user in enumerate(users):
        join(league, user, rating=1600 - 20 * i)
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss", rounds=2)
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    return ts.tournament_start(tournament=t), users


def pairing_of(t: Tournament, user) -> TournamentMatch:
    """``user``'s pairing in round one."""
    return TournamentMatch.objects.get(
        Q(first_id=user.pk) | Q(second_id=user.pk), round__tournament=t, round__number=1
    )


def others_resign_through_the_api(t: Tournament, leaver) -> None:
    """The pairing without the leaver ends: its first player resigns the match with a token.
    The resignation is answered 200 (it used to be refused 403 "… is not a member of …", or
    to leave the round open for good)."""
    [other] = (
        TournamentMatch.objects.filter(round__tournament=t, round__number=1)
        .exclude(first_id=leaver.pk)
        .exclude(second_id=leaver.pk)
    )
    api = APIClient()
    key = api_token_create(user=other.first, name="cli")[1]
    response = api.post(
        f"/api/v1/matches/{other.match_id}/resign/", HTTP_AUTHORIZATION=f"Bearer {key}"
    )
    assert response.status_code == 200, response.content


def assert_round_two_paired_without(t: Tournament, leaver) -> None:
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.CLOSED
    second = Round.objects.get(tournament=t, number=2)
    seated = {i for p in second.pairings.all() for i in (p.first_id, p.second_id)}
    assert leaver.pk not in seated
    assert len(seated - {None}) == 3  # the three still in: a match and a bye


def assert_withdrawn_with_their_pairing_forfeited(t: Tournament, leaver) -> None:
    assert Entry.objects.get(tournament=t, user=leaver).status == Entry.Status.WITHDRAWN
    pairing = pairing_of(t, leaver)
    assert pairing.source == TournamentMatch.Source.FORFEIT and pairing.forfeit
    assert pairing.winner_id not in (None, leaver.pk)
    assert Match.objects.get(pk=pairing.match_id).status == Match.Status.ABORTED


def test_a_member_who_leaves_the_league_is_withdrawn_and_the_round_goes_on(client, league):
    t, users = swiss_of_four(league)
    leaver = users[3]
    client.force_login(leaver)
    client.post(reverse("leagues:leave", args=[league.slug]))
    assert_withdrawn_with_their_pairing_forfeited(t, leaver)
    others_resign_through_the_api(t, leaver)
    assert_round_two_paired_without(t, leaver)


def test_a_banned_member_is_withdrawn(league):
    t, users = swiss_of_four(league)
    leaver = users[0]
    membership = Membership.objects.get(league=league, user=leaver)
    membership.status = Membership.Status.BANNED  # as the admin's change form saves it
    membership.save()
    assert_withdrawn_with_their_pairing_forfeited(t, leaver)
    others_resign_through_the_api(t, leaver)
    assert_round_two_paired_without(t, leaver)


def test_a_deleted_account_is_withdrawn(client, league):
    t, users = swiss_of_four(league)
    leaver = users[2]
    client.force_login(leaver)
    response = client.post(reverse("accounts:delete"), {"password": "pw-secret-1"})
    assert response.status_code == 302
    assert_withdrawn_with_their_pairing_forfeited(t, leaver)
    others_resign_through_the_api(t, leaver)
    assert_round_two_paired_without(t, leaver)


def test_an_entrant_who_can_no_longer_play_is_left_out_of_the_next_round_whatever_missed_it(
    league,
):
    t, users = swiss_of_four(league)
    leaver = users[1]
    resign_match(pairing_of(t, leaver).match, leaver)  # their match is over first
    # A change no signal hears (a bulk update): the pairing must still not refuse them.
    Membership.objects.filter(user=leaver).update(status=Membership.Status.LEFT)
    others_resign_through_the_api(t, leaver)
    assert_round_two_paired_without(t, leaver)
    assert Entry.objects.get(tournament=t, user=leaver).status == Entry.Status.WITHDRAWN


@pytest.mark.asyncio
async def test_an_entrant_who_aborts_their_match_forfeits_it_and_the_round_goes_on(league):
    from asgiref.sync import sync_to_async

    from tests.games.test_consumers import open_socket, session_cookie
    from tests.sockets import frames, send

    t, users = await sync_to_async(swiss_of_four)(league)
    quitter = users[0]
    pairing = await sync_to_async(pairing_of)(t, quitter)
    game_id = await sync_to_async(lambda: pairing.match.current_game.pk)()
    socket = await open_socket(game_id, await sync_to_async(session_cookie)(Client(), quitter))
    try:
        await socket.receive_json_from()
        await send(socket, {"type": "abort"})
        assert "match_end" in [f["type"] for f in await frames(socket)]
    finally:
        await socket.disconnect()
    pairing = await sync_to_async(TournamentMatch.objects.get)(pk=pairing.pk)
    assert pairing.source == TournamentMatch.Source.FORFEIT and pairing.forfeit
    assert pairing.winner_id not in (None, quitter.pk)
    await sync_to_async(others_resign_through_the_api)(t, quitter)
    await sync_to_async(assert_round_two_paired_with_everyone)(t)


def assert_round_two_paired_with_everyone(t: Tournament) -> None:
    """An abort is a forfeit, not a withdrawal: the quitter is paired again."""
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.CLOSED
    second = Round.objects.get(tournament=t, number=2)
    assert {i for p in second.pairings.all() for i in (p.first_id, p.second_id)} == {
        e.user_id for e in t.entries.all()
    }
