"""An entrant is told on their per-user socket (/ws/me/, on whatever page they are) when their
tournament round is paired: ``tournament_paired``, with whom they play and the way to the
table (docs/protocol.md, "The per-user socket")."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from leagues.models import TournamentMatch
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, resign_match
from tests.sockets import QUIET, frames, open_socket, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


def _tournament(league, n: int, **fields):
    users = [UserFactory(username=f"e{i}", display_name=f"Entrant {i}") for i in range(n)]
    for i, user in enumerate(users):
        join(league, user, rating=1500 + 10 * i)
    t = ts.tournament_create(league=league, name="Spring Cup", slug="spring", **fields)
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    return t, users


async def me(user):
    socket = await open_socket("/ws/me/", await sync_to_async(session_cookie)(user))
    assert (await socket.receive_json_from())["type"] == "challenges"
    assert (await socket.receive_json_from())["type"] == "games"
    return socket


def paired(received: list[dict]) -> list[dict]:
    return [f for f in received if f["type"] == "tournament_paired"]


async def test_each_entrant_is_told_their_round_is_paired_and_whom_they_play(league):
    t, users = await sync_to_async(_tournament)(league, 3, format="swiss", rounds=2)
    sockets = [await me(user) for user in users]
    outsider = await me(await sync_to_async(UserFactory)(username="outsider"))
    try:
        await sync_to_async(ts.tournament_start)(tournament=t)
        page = reverse("leagues:tournament", args=[league.slug, "spring"])
        told = {}
        for user, socket in zip(users, sockets, strict=True):
            [frame] = paired(await frames(socket))
            told[user.username] = frame
            assert frame["league"] == league.slug and frame["tournament"] == "spring"
            assert frame["name"] == "Spring Cup" and frame["round"] == 1
            assert frame["tournament_url"] == page

        @sync_to_async
        def pairings():
            return list(TournamentMatch.objects.select_related("first", "second", "match"))

        for p in await pairings():
            if p.second is None:  # the bye: nobody to play, the way to the tournament
                frame = told[p.first.username]
                assert frame["opponent"] is None and frame["match"] is None
                assert frame["game"] is None and frame["url"] == page
                continue
            game = await sync_to_async(lambda m=p.match: m.current_game)()
            for me_, other in ((p.first, p.second), (p.second, p.first)):
                frame = told[me_.username]
                assert frame["opponent"] == {
                    "username": other.username,
                    "name": other.public_name,
                    "is_bot": False,
                }
                assert (frame["match"], frame["game"]) == (p.match_id, game.pk)
                assert frame["url"] == reverse("games:table", args=[game.pk])
        assert await outsider.receive_nothing(timeout=QUIET)  # nobody else hears of it
    finally:
        for socket in [*sockets, outsider]:
            await socket.disconnect()


async def test_the_next_round_is_told_when_the_last_match_of_the_round_ends(league):
    t, users = await sync_to_async(_tournament)(league, 2, format="swiss", rounds=2)
    await sync_to_async(ts.tournament_start)(tournament=t)
    sockets = [await me(user) for user in users]  # opened after round 1 was paired
    try:

        @sync_to_async
        def finish_round_one():
            p = TournamentMatch.objects.select_related("match", "second").get(round__number=1)
            resign_match(p.match, p.second)

        await finish_round_one()
        for user, socket in zip(users, sockets, strict=True):
            [frame] = paired(await frames(socket))
            assert frame["round"] == 2 and frame["game"] is not None
            assert frame["opponent"]["username"] == next(u for u in users if u != user).username
    finally:
        for socket in sockets:
            await socket.disconnect()
