"""The ranked queue: the pairing service on the database, and the queue socket
/ws/leagues/<slug>/queue/ against the whole ASGI application (docs/protocol.md, "The ranked
queue socket"), authenticated by real session cookies."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import Block
from games.models import Match
from leagues import services
from leagues.broadcast import queue_group
from leagues.models import Membership, QueueEntry
from tests.leagues.conftest import join, make_league
from tests.sockets import QUIET, GroupJoins, open_socket, session_cookie

# --- the service ------------------------------------------------------------------------------


@pytest.mark.django_db
class TestPairingService:
    def test_two_members_in_reach_start_a_ranked_match(self, league, members, alice, bob):
        services.queue_join(league=league, user=alice, channel="a")
        assert services.queue_pair(league=league) == []  # alone: waits
        services.queue_join(league=league, user=bob, channel="b")
        [match] = services.queue_pair(league=league)
        assert match.ranked and match.league == league
        assert {match.user0, match.user1} == {alice, bob}
        assert not QueueEntry.objects.exists()

    def test_the_closest_rating_is_paired_and_the_far_one_waits(self, league, alice, bob, carol):
        join(league, alice, rating=1500)
        join(league, bob, rating=1560)
        join(league, carol, rating=1530)
        for user in (alice, bob, carol):
            services.queue_join(league=league, user=user)
        earlier = timezone.now() - timedelta(seconds=5)
        QueueEntry.objects.filter(user=alice).update(joined_at=earlier)
        [match] = services.queue_pair(league=league)
        assert {match.user0, match.user1} == {alice, carol}
        assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["bob"]

    def test_a_gap_too_wide_waits_until_the_windows_widen(self, league, alice, bob):
        join(league, alice, rating=1500)
        join(league, bob, rating=1700)
        services.queue_join(league=league, user=alice)
        services.queue_join(league=league, user=bob)
        assert services.queue_pair(league=league) == []
        later = timezone.now() + timedelta(seconds=20)  # windows of 200 each
        QueueEntry.objects.update(seen_at=later)
        assert len(services.queue_pair(league=league, now=later)) == 1

    def test_a_blocked_pair_is_never_paired_and_each_waits_for_someone_else(
        self, league, members, alice, bob, carol
    ):
        Block.objects.create(blocker=bob, blocked=alice)
        services.queue_join(league=league, user=alice)
        services.queue_join(league=league, user=bob)
        assert services.queue_pair(league=league) == []
        assert QueueEntry.objects.count() == 2
        join(league, carol)
        services.queue_join(league=league, user=carol)
        [match] = services.queue_pair(league=league)
        assert alice in {match.user0, match.user1} and carol in {match.user0, match.user1}

    def test_stale_entries_are_dropped(self, league, members, alice, bob, settings):
        services.queue_join(league=league, user=alice)
        services.queue_join(league=league, user=bob)
        old = timezone.now() - timedelta(seconds=settings.LEAGUES_QUEUE_TTL + 1)
        QueueEntry.objects.filter(user=bob).update(seen_at=old)
        assert services.queue_waiting(league_id=league.pk) == 1
        assert services.queue_pair(league=league) == []
        assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["alice"]

    def test_a_member_banned_while_waiting_is_dropped(self, league, members, alice, bob):
        services.queue_join(league=league, user=alice)
        services.queue_join(league=league, user=bob)
        Membership.objects.filter(user=bob).update(status=Membership.Status.BANNED)
        assert services.queue_pair(league=league) == []
        assert list(QueueEntry.objects.values_list("user__username", flat=True)) == ["alice"]

    @pytest.mark.parametrize("status", ["pending", "banned", "left"])
    def test_only_active_members_may_queue(self, league, alice, status):
        join(league, alice, status=status)
        with pytest.raises(services.GameError) as info:
            services.queue_join(league=league, user=alice)
        assert info.value.code == "forbidden"
        assert not QueueEntry.objects.exists()

    def test_one_queue_at_a_time(self, league, alice):
        other = make_league("south")
        join(league, alice)
        join(other, alice)
        services.queue_join(league=league, user=alice)
        with pytest.raises(services.GameError) as info:
            services.queue_join(league=other, user=alice)
        assert "North League" in info.value.message

    def test_a_ranked_match_started_elsewhere_ends_the_wait(self, league, members, alice, bob):
        entry = services.queue_join(league=league, user=alice, channel="a")
        assert services.queue_refresh(
            league=league, user=alice, channel="a", since=entry.joined_at
        ) == services.QueueStatus(waiting=1)
        match = services.ranked_match_create(league=league, user0=bob, user1=alice)  # a challenge
        status = services.queue_refresh(
            league=league, user=alice, channel="a", since=entry.joined_at
        )
        assert status.paired is not None and status.paired["match"] == match.pk
        assert status.paired["opponent"]["username"] == "bob" and status.paired["seat"] == 1
        assert not QueueEntry.objects.exists()

    def test_a_dropped_place_is_taken_again_at_the_next_tick(self, league, members, alice):
        entry = services.queue_join(league=league, user=alice, channel="a")
        QueueEntry.objects.all().delete()  # as a pairing sweep drops a stale entry
        services.queue_refresh(league=league, user=alice, channel="a", since=entry.joined_at)
        assert QueueEntry.objects.get().channel == "a"

    def test_leaving_the_league_leaves_its_queue(self, league, members, alice):
        services.queue_join(league=league, user=alice)
        services.league_leave(league=league, user=alice)
        assert not QueueEntry.objects.exists()

    def test_a_second_tab_keeps_the_place_and_the_first_leaving_does_not_drop_it(
        self, league, members, alice
    ):
        first = services.queue_join(league=league, user=alice, channel="tab-1")
        second = services.queue_join(league=league, user=alice, channel="tab-2")
        assert second.pk == first.pk and second.joined_at == first.joined_at
        assert not services.queue_leave(league_id=league.pk, user=alice, channel="tab-1")
        assert services.queue_leave(league_id=league.pk, user=alice, channel="tab-2")


# --- the socket -------------------------------------------------------------------------------

cookie_for = session_cookie


async def connect(slug: str, cookie: str | None = None) -> WebsocketCommunicator:
    return await open_socket(f"/ws/leagues/{slug}/queue/", cookie)


async def until(socket: WebsocketCommunicator, kind: str) -> list[dict[str, Any]]:
    """Frames up to and including the first of type ``kind``."""
    received = []
    while True:
        frame = await socket.receive_json_from(timeout=5)
        received.append(frame)
        if frame["type"] == kind:
            return received


async def refused(socket: WebsocketCommunicator) -> tuple[dict[str, Any], int]:
    error = await socket.receive_json_from()
    closed = await socket.receive_output()
    assert closed["type"] == "websocket.close"
    return error, closed["code"]


@pytest.fixture
def fast_ticks(settings):
    settings.LEAGUES_QUEUE_TICK = 0.1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
class TestQueueSocket:
    async def test_two_members_are_paired_and_sent_to_one_table(
        self, league, members, alice, bob, fast_ticks
    ):
        cookies = {u.username: await sync_to_async(cookie_for)(u) for u in (alice, bob)}
        alices = await connect(league.slug, cookies["alice"])
        try:
            queued = await alices.receive_json_from(timeout=5)
            assert queued["type"] == "queued" and queued["league"] == league.slug
            assert (queued["waiting"], queued["rating"], queued["window"]) == (1, 1500, 100)
            bobs = await connect(league.slug, cookies["bob"])
            try:
                got = {"alice": await until(alices, "paired"), "bob": await until(bobs, "paired")}
                a, b = got["alice"][-1], got["bob"][-1]
                assert a["match"] == b["match"] and a["game"] == b["game"]
                assert a["url"] == b["url"] == f"/play/games/{a['game']}/"
                assert {a["seat"], b["seat"]} == {0, 1}
                assert a["opponent"] == {"username": "bob", "name": "Bob", "is_bot": False}
                assert b["opponent"]["username"] == "alice" and a["league"] == league.slug
                match = await sync_to_async(Match.objects.get)(pk=a["match"])
                assert match.ranked and match.league_id == league.pk
                assert not await sync_to_async(QueueEntry.objects.exists)()
                assert await bobs.receive_nothing(timeout=QUIET)  # paired once
            finally:
                await bobs.disconnect()
        finally:
            await alices.disconnect()
        assert await sync_to_async(Match.objects.count)() == 1

    async def test_a_blocked_pair_waits_on_the_socket_and_is_never_sent_to_a_table(
        self, league, members, alice, bob, fast_ticks
    ):
        await sync_to_async(Block.objects.create)(blocker=alice, blocked=bob)
        cookies = {u.username: await sync_to_async(cookie_for)(u) for u in (alice, bob)}
        alices = await connect(league.slug, cookies["alice"])
        bobs = await connect(league.slug, cookies["bob"])
        try:
            frames = []
            for socket in (alices, bobs):
                frames += await until(socket, "queued")
            # Several pairing ticks pass (0.1 s each): neither hears "paired".
            for socket in (alices, bobs):
                while not await socket.receive_nothing(timeout=QUIET):
                    frames.append(await socket.receive_json_from())
            assert "paired" not in {f["type"] for f in frames}
        finally:
            await bobs.disconnect()
            await alices.disconnect()
        assert await sync_to_async(Match.objects.count)() == 0

    async def test_a_non_member_is_refused_with_4403(self, league, members, carol):
        cookie = await sync_to_async(cookie_for)(carol)
        socket = await connect(league.slug, cookie)
        error, code = await refused(socket)
        assert error["code"] == "forbidden" and "not a member" in error["message"]
        assert code == 4403
        await socket.disconnect()
        assert not await sync_to_async(QueueEntry.objects.exists)()

    async def test_a_pending_member_is_refused(self, league, carol):
        await sync_to_async(join)(league, carol, status=Membership.Status.PENDING)
        socket = await connect(league.slug, await sync_to_async(cookie_for)(carol))
        error, code = await refused(socket)
        assert (error["code"], code) == ("forbidden", 4403)
        await socket.disconnect()

    async def test_anonymous_and_unknown_leagues_are_refused(self, league, members, alice):
        socket = await connect(league.slug)
        error, code = await refused(socket)
        assert (error["code"], code) == ("unauthenticated", 4401)
        await socket.disconnect()
        socket = await connect("nowhere", await sync_to_async(cookie_for)(alice))
        error, code = await refused(socket)
        assert (error["code"], code) == ("not_found", 4404)
        await socket.disconnect()

    async def test_disconnecting_leaves_the_queue_and_the_count_is_broadcast(
        self, league, alice, bob, fast_ticks
    ):
        await sync_to_async(join)(league, alice, rating=1500)
        await sync_to_async(join)(league, bob, rating=2400)  # too far: never paired here
        cookies = {u.username: await sync_to_async(cookie_for)(u) for u in (alice, bob)}
        alices = await connect(league.slug, cookies["alice"])
        try:
            assert (await alices.receive_json_from(timeout=5))["waiting"] == 1
            bobs = await connect(league.slug, cookies["bob"])
            queued = await bobs.receive_json_from(timeout=5)
            assert queued["type"] == "queued" and queued["waiting"] == 2
            count = await until(alices, "queue")
            assert count[-1]["waiting"] == 2
            assert await sync_to_async(QueueEntry.objects.count)() == 2
            await bobs.disconnect()
            frames = await until(alices, "queue")
            while frames[-1]["waiting"] != 1:  # a window change may come first
                frames = await until(alices, "queue")
            assert await sync_to_async(QueueEntry.objects.count)() == 1
        finally:
            await alices.disconnect()
        assert not await sync_to_async(QueueEntry.objects.exists)()
        assert not await sync_to_async(Match.objects.exists)()

    async def test_the_socket_takes_no_messages(self, league, members, alice, settings):
        settings.GAMES_WS_THROTTLE = (4, 60.0)  # the shared socket base's limit, read on connect
        socket = await connect(league.slug, await sync_to_async(cookie_for)(alice))
        try:
            assert (await socket.receive_json_from(timeout=5))["type"] == "queued"
            await socket.send_to(text_data='{"type": "sync"}')
            error = (await until(socket, "error"))[-1]
            assert error["code"] == "bad_message" and "close it to leave" in error["message"]
            for frame in (
                {"text_data": "{not json"},
                {"bytes_data": b"\x00"},
                {"text_data": "[1]"},
            ):
                await socket.send_to(**frame)
                assert (await until(socket, "error"))[-1]["code"] == "bad_message", frame
            await socket.send_to(text_data='{"type": "sync"}')  # the fifth in a minute
            throttled = (await until(socket, "error"))[-1]
            assert throttled["code"] == "throttled" and throttled["params"]["retry_after"] > 0
            assert await sync_to_async(QueueEntry.objects.filter(user=alice).exists)()
        finally:
            await socket.disconnect()
        assert not await sync_to_async(QueueEntry.objects.exists)()

    async def test_a_player_signed_out_while_waiting_is_not_paired_and_leaves_the_queue(
        self, league, members, alice, bob, fast_ticks, monkeypatch
    ):
        """Alice logs out elsewhere and the doorbell that would close her socket is lost: her
        next tick refuses to pair (core/credentials.py), closes with 4401, leaves the queue."""
        from django.contrib.sessions.models import Session

        from core import layer

        alices = await connect(league.slug, await sync_to_async(cookie_for)(alice))
        try:
            assert (await alices.receive_json_from(timeout=5))["type"] == "queued"
            monkeypatch.setattr(layer, "group_send_soon", lambda *args, **kwargs: None)
            await sync_to_async(Session.objects.all().delete)()  # her session ended
            error = (await until(alices, "error"))[-1]
            assert error["code"] == "unauthenticated"
            assert await alices.receive_output(timeout=5) == {
                "type": "websocket.close",
                "code": 4401,
            }
        finally:
            await alices.disconnect()
        assert not await sync_to_async(QueueEntry.objects.exists)()
        assert not await sync_to_async(Match.objects.exists)()

    async def test_a_lost_paired_message_is_found_at_the_next_tick(
        self, league, members, alice, bob, fast_ticks, monkeypatch
    ):
        from leagues import services as league_services

        monkeypatch.setattr(league_services, "queue_paired_send", lambda *a, **k: None)
        cookies = {u.username: await sync_to_async(cookie_for)(u) for u in (alice, bob)}
        alices = await connect(league.slug, cookies["alice"])
        bobs = await connect(league.slug, cookies["bob"])
        try:
            a = (await until(alices, "paired"))[-1]
            b = (await until(bobs, "paired"))[-1]
            assert a["match"] == b["match"]
        finally:
            await alices.disconnect()
            await bobs.disconnect()

    async def test_joined_with_the_channel_layer_away_the_socket_joins_at_the_next_tick(
        self, league, members, alice, bob, fast_ticks, monkeypatch
    ):
        """Redis refusing when the socket opened: it waits in the queue all the same, and a
        tick once the layer is back joins the queue's group, so its doorbell rings again."""
        from core.credentials import credentials_group

        joins = GroupJoins(monkeypatch)
        alices = await connect(league.slug, await sync_to_async(cookie_for)(alice))
        try:
            assert (await alices.receive_json_from(timeout=5))["type"] == "queued"
            joins.back()
            deadline = asyncio.get_running_loop().time() + 5
            while len(joins.added) < 2 and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)
            # The queue's group, and its user's (core/credentials.py).
            assert sorted(joins.added) == sorted(
                [queue_group(league.pk), credentials_group(alice.pk)]
            )
        finally:
            await alices.disconnect()
