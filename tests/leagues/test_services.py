"""Ranked matches, ratings and membership through the services: who may play ranked, a match
played out updates both memberships, RatingChange rows and the standings, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import GameError
from games import services as game_services
from games.models import Match
from leagues import glicko2, selectors, services
from leagues.models import League, Membership, RatingChange
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import SMALL, join, make_league, resign_match, win_by_target

pytestmark = pytest.mark.django_db


def refusal(call, **kwargs) -> GameError:
    with pytest.raises(GameError) as info:
        call(**kwargs)
    return info.value


# --- ranked creation --------------------------------------------------------------------------


def test_a_ranked_match_uses_the_leagues_knobs(league, members, alice, bob) -> None:
    match = services.ranked_match_create(league=league, user0=alice, user1=bob)
    assert (match.ranked, match.league, match.user0, match.user1) == (True, league, alice, bob)
    assert match.rules == SMALL.to_dict() and match.target == 10


@pytest.mark.parametrize(
    ("status", "words"),
    [
        (Membership.Status.PENDING, "waits for a moderator's approval"),
        (Membership.Status.BANNED, "may not play ranked"),
        (Membership.Status.LEFT, "is not a member"),
    ],
)
def test_only_active_members_play_ranked(league, alice, bob, status, words) -> None:
    join(league, alice)
    join(league, bob, status=status)
    error = refusal(services.ranked_match_create, league=league, user0=alice, user1=bob)
    assert error.code == "forbidden" and words in error.message and "Bob" in error.message
    error = refusal(services.ranked_match_create, league=league, user0=bob, user1=alice)
    assert error.code == "forbidden"
    assert not Match.objects.exists()


def test_a_non_member_cannot_play_ranked(league, alice, bob) -> None:
    join(league, alice)
    error = refusal(services.ranked_match_create, league=league, user0=alice, user1=bob)
    assert error.message == "Bob is not a member of North League."


def test_an_archived_league_refuses_ranked_play(league, members, alice, bob) -> None:
    league.status = League.Status.ARCHIVED
    league.save()
    error = refusal(services.ranked_match_create, league=league, user0=alice, user1=bob)
    assert error.code == "forbidden" and "archived" in error.message


def test_members_of_another_league_do_not_count(league, alice, bob) -> None:
    other = make_league("south")
    join(other, alice)
    join(other, bob)
    join(league, alice)
    assert refusal(services.ranked_match_create, league=league, user0=alice, user1=bob)


def test_no_path_makes_a_ranked_match_outside_a_league(alice, bob) -> None:
    error = refusal(
        game_services.match_create_between, user0=alice, user1=bob, rules=SMALL, ranked=True
    )
    assert error.code == "forbidden" and "league" in error.message
    error = refusal(game_services.match_create, user=alice, bot="greedy", rules=SMALL, ranked=True)
    assert error.code == "forbidden"
    assert not Match.objects.exists()


def test_the_database_refuses_ranked_without_a_league(alice, bob) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(user0=alice, user1=bob, rules=SMALL.to_dict(), ranked=True)


def test_a_casual_path_with_a_league_still_checks_members(league, alice, bob) -> None:
    join(league, alice)
    error = refusal(
        game_services.match_create_between,
        user0=alice,
        user1=bob,
        rules=SMALL,
        ranked=True,
        league=league,
    )
    assert error.code == "forbidden"


def test_bots_play_ranked_only_where_the_league_allows(league, alice) -> None:
    join(league, alice)
    error = refusal(services.ranked_match_create, league=league, user0=alice, bot="greedy")
    assert error.message == "Bots do not play ranked matches in North League."
    league.bots_ranked = True
    league.save()
    match = services.ranked_match_create(league=league, user0=alice, bot="random")
    assert match.ranked and match.bot1 == "random"


def test_a_person_against_a_bot_is_rated_against_its_fixed_rating(league, alice, settings) -> None:
    league.bots_ranked = True
    league.save()
    membership = join(league, alice)
    match = services.ranked_match_create(league=league, user0=alice, bot="expert")
    resign_match(match, alice)
    change = RatingChange.objects.get()
    assert change.membership == membership  # the bot is never rated
    assert (change.opponent_rating, change.opponent_deviation) == (
        settings.LEAGUES_BOT_RATINGS["expert"],
        settings.LEAGUES_BOT_DEVIATION,
    )
    expected = glicko2.rate(glicko2.Rating(), [(glicko2.Rating(1700, 50), glicko2.LOSS)])
    membership.refresh_from_db()
    assert membership.rating == pytest.approx(expected.rating)
    assert (membership.matches, membership.losses) == (1, 1)


def test_a_rematch_of_a_ranked_match_is_checked_again(league, members, alice, bob) -> None:
    match = resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    Membership.objects.filter(user=bob).update(status=Membership.Status.BANNED)
    game_services.match_rematch(match_id=match.pk, user=bob, action="offer")
    error = refusal(game_services.match_rematch, match_id=match.pk, user=alice, action="accept")
    assert error.code == "forbidden" and "Bob" in error.message


# --- ratings ----------------------------------------------------------------------------------


def test_a_ranked_match_played_through_updates_both_memberships(league, members, alice, bob):
    a, b = members
    match = win_by_target(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    assert (match.status, match.end_reason, match.winner) == ("finished", "target_reached", 0)
    a.refresh_from_db()
    b.refresh_from_db()
    won = glicko2.rate(glicko2.Rating(), [(glicko2.Rating(), glicko2.WIN)])
    lost = glicko2.rate(glicko2.Rating(), [(glicko2.Rating(), glicko2.LOSS)])
    assert (a.rating, a.deviation, a.volatility) == pytest.approx(
        (won.rating, won.deviation, won.volatility)
    )
    assert (b.rating, b.deviation) == pytest.approx((lost.rating, lost.deviation))
    assert round(a.rating) == 1662 and round(b.rating) == 1338
    assert (a.matches, a.wins, a.losses, a.points_for, a.points_against) == (
        1,
        1,
        0,
        match.score0,
        match.score1,
    )
    assert (b.matches, b.wins, b.losses, b.points_for, b.points_against) == (
        1,
        0,
        1,
        match.score1,
        match.score0,
    )
    assert match.score0 >= 10 and a.rated_at == b.rated_at == match.finished_at
    rows = {c.membership_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(rows) == {a.pk, b.pk}
    assert (rows[a.pk].rating_before, rows[a.pk].rating_after, rows[a.pk].score) == (
        1500,
        pytest.approx(a.rating),
        1.0,
    )
    assert rows[b.pk].opponent_rating == 1500 and rows[b.pk].score == 0.0
    standings = selectors.league_standings(league=league)
    assert [r.username for r in standings] == ["alice", "bob"]
    assert [r.rating for r in standings] == [1662, 1338]


def test_the_standings_order_follows_the_results(league, alice, bob, carol) -> None:
    for user in (alice, bob, carol):
        join(league, user)
    # bob beats alice, then carol beats alice: alice last; bob and carol on top
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), alice)
    resign_match(services.ranked_match_create(league=league, user0=carol, user1=alice), alice)
    rows = selectors.league_standings(league=league)
    assert rows[-1].username == "alice"
    assert {r.username for r in rows[:2]} == {"bob", "carol"}
    assert [r.rank for r in rows] == [1, 2, 3]
    by_matches = selectors.league_standings(league=league, sort="matches")
    assert by_matches[0].username == "alice" and by_matches[0].matches == 2


def test_a_match_is_rated_once(league, members, alice, bob) -> None:
    a, _ = members
    match = resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    a.refresh_from_db()
    rating = a.rating
    assert services.rating_apply_match(match=match) == []  # again: nothing
    a.refresh_from_db()
    assert (a.rating, a.matches) == (rating, 1)
    assert RatingChange.objects.count() == 2
    change = RatingChange.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            **{
                f.name: getattr(change, f.name)
                for f in RatingChange._meta.concrete_fields
                if f.name != "id"
            }
        )


def test_an_aborted_ranked_match_is_not_rated(league, members, alice, bob) -> None:
    match = services.ranked_match_create(league=league, user0=alice, user1=bob)
    game_services.game_abort(game_id=match.current_game.pk, user=alice)
    match.refresh_from_db()
    assert match.status == "aborted"
    assert services.rating_apply_match(match=match) == []
    assert not RatingChange.objects.exists()
    assert Membership.objects.filter(matches=0, rating=1500).count() == 2


def test_casual_matches_are_not_rated(league, members, alice, bob) -> None:
    match = game_services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    resign_match(match, bob)
    assert not RatingChange.objects.exists()


def test_inactivity_grows_the_deviation_before_the_next_match(league, members, alice, bob):
    a, _ = members
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    a.refresh_from_db()
    settled = a.glicko
    later = a.rated_at + timedelta(days=7 * 3 + 1)  # three whole weekly periods
    shown = services.membership_rating_now(a, now=later)
    assert shown.deviation == pytest.approx(glicko2.inflate(settled, 3).deviation)
    # the next match rates from the grown deviation
    Membership.objects.filter(pk=a.pk).update(rated_at=timezone.now() - timedelta(days=22))
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    change = RatingChange.objects.filter(membership=a).order_by("at", "pk").last()
    assert change.idle_periods == 3


def test_an_inactive_players_rating_becomes_provisional_again(league, members) -> None:
    a, _ = members
    now = timezone.now()
    Membership.objects.filter(pk=a.pk).update(deviation=60, rated_at=now, opponents=5)
    rows = selectors.league_standings(league=league, now=now)
    assert not next(r for r in rows if r.username == "alice").provisional
    far = now + timedelta(days=7 * 400)
    rows = selectors.league_standings(league=league, now=far)
    assert next(r for r in rows if r.username == "alice").provisional


# --- membership -------------------------------------------------------------------------------


def test_join_an_open_league_at_once_and_leave(league, alice) -> None:
    membership = services.league_join(league=league, user=alice)
    assert membership.status == "active" and membership.rating == 1500
    assert membership.deviation == 350 and membership.volatility == 0.06
    assert services.league_join(league=league, user=alice).pk == membership.pk  # again: same
    assert services.league_leave(league=league, user=alice).status == "left"
    assert services.league_join(league=league, user=alice).status == "active"  # back


def test_a_league_by_approval_takes_requests(alice, bob, carol) -> None:
    closed = make_league("guild", admission=League.Admission.APPROVAL)
    join(closed, alice, role=Membership.Role.MODERATOR)
    request = services.league_join(league=closed, user=bob)
    assert request.status == "pending"
    assert services.membership_approve(membership_id=request.pk, moderator=alice).is_active
    again = services.league_join(league=closed, user=carol)
    assert services.membership_decline(membership_id=again.pk, moderator=alice).status == "left"


def test_a_moderator_of_one_league_cannot_approve_in_another(alice, bob) -> None:
    a = make_league("a-league")
    b = make_league("b-league", admission=League.Admission.APPROVAL)
    join(a, alice, role=Membership.Role.MODERATOR)
    join(b, alice)  # a mere player in B
    request = services.league_join(league=b, user=bob)
    error = refusal(services.membership_approve, membership_id=request.pk, moderator=alice)
    assert error.code == "forbidden"
    error = refusal(services.membership_decline, membership_id=request.pk, moderator=alice)
    assert error.code == "forbidden"
    request.refresh_from_db()
    assert request.status == "pending"
    plain_staff = UserFactory(is_staff=True)  # staff, but no operator of the leagues
    error = refusal(services.membership_approve, membership_id=request.pk, moderator=plain_staff)
    assert error.code == "forbidden"
    assert services.membership_approve(
        membership_id=request.pk, moderator=UserFactory(is_superuser=True, is_staff=True)
    ).is_active


def test_a_banned_member_cannot_join_again(league, alice) -> None:
    join(league, alice, status=Membership.Status.BANNED)
    assert refusal(services.league_join, league=league, user=alice).code == "forbidden"
    assert services.league_leave(league=league, user=alice).status == "banned"


def test_an_archived_league_takes_no_new_members(alice) -> None:
    old = make_league("old", status=League.Status.ARCHIVED)
    assert refusal(services.league_join, league=old, user=alice).code == "forbidden"
