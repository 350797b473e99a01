"""A league's seasons (docs/leagues.md, "Seasons"): a moderator opens one; the ranked queue's
and the tournaments' rated matches count toward it, a casual match, a match against an engine
bot, an unrated one and another league's do not; the moderator closes it, and its final table
stays on the league's page as it stood, whatever is played or corrected afterwards. The
refusals, who may open and close one (per role, through the services and the admin), the order
of a table and the demo's open season."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from core.errors import GameError
from games import services as games
from games.models import Match
from leagues import services
from leagues.models import League, Membership, QueueEntry, Season, SeasonRow
from leagues.seasons import SeasonLine, season_close, season_open, season_ranked, season_table
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league, play_turns, resign_match, win_by_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(league) -> Any:
    """A moderator of the North League who is not staff."""
    user = UserFactory(username="mona", display_name="Mona")
    join(league, user, role=Membership.Role.MODERATOR)
    return user


@pytest.fixture
def south() -> League:
    return make_league("south")


@pytest.fixture
def other_moderator(south) -> Any:
    """A moderator of the South League only."""
    user = UserFactory(username="sam", display_name="Sam")
    join(south, user, role=Membership.Role.MODERATOR)
    return user


def queue_match(league: League, first: Any, second: Any) -> Match:
    """A ranked match the league's queue pairs (once their windows have widened)."""
    services.queue_join(league=league, user=first)
    services.queue_join(league=league, user=second)
    later = timezone.now() + timedelta(seconds=120)
    QueueEntry.objects.update(seen_at=later)
    [match] = services.queue_pair(league=league, now=later)
    return match


def tournament_match(league: League, first: Any, second: Any, slug: str = "cup") -> Match:
    """The one match of a round robin of two."""
    t = ts.tournament_create(league=league, name=slug.title(), slug=slug, format="round_robin")
    ts.tournament_open_registration(tournament=t)
    for user in (first, second):
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    return t.round_set.get().pairings.get().match


def table(season: Season) -> list[tuple[int, str, int, int, int, int, int]]:
    season.refresh_from_db()
    return [
        (line.rank, line.username, line.matches, line.wins, line.losses, line.points_for,
         line.points_against)
        for line in season_table(season)
    ]  # fmt: skip


def test_a_season_counts_its_leagues_rated_matches_closes_and_keeps_its_final_table(
    client, league, moderator, south, alice, bob, carol
) -> None:
    for user in (alice, bob, carol):
        join(league, user)
        join(south, user)
    league.bots_ranked = True
    league.save()
    before = resign_match(services.ranked_match_create(league=league, user0=bob, user1=carol), bob)
    assert before.status == Match.Status.FINISHED  # rated, but before the season opened

    season = season_open(league=league, name="Spring", by=moderator)
    assert season.is_open and season.starts_at <= timezone.now()
    assert table(season) == []

    # counts: a match of the ranked queue, and a ranked tournament's
    resign_match(queue_match(league, alice, bob), bob)
    win_by_target(tournament_match(league, alice, carol), carol)
    # does not count: a casual match, another league's, one resigned before it was rated and
    # one against an engine bot
    resign_match(games.match_create_between(user0=bob, user1=carol, rules=league.engine_rules), bob)
    resign_match(services.ranked_match_create(league=south, user0=bob, user1=carol), bob)
    resign_match(
        services.ranked_match_create(league=league, user0=carol, user1=bob), carol, turns=0
    )
    against_bot = services.ranked_match_create(league=league, user0=bob, bot="random")
    play_turns(against_bot)
    games.game_resign(game_id=against_bot.current_game.pk, user=bob, scope="match")
    assert Match.objects.filter(league=league, ranked=True, status="finished").count() == 5

    assert table(season) == [
        (1, "alice", 2, 2, 0, 10, 0),
        (2, "bob", 1, 0, 1, 0, 0),
        (2, "carol", 1, 0, 1, 0, 10),
    ]
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert 'data-state="open"' in page and "Spring" in page

    closed = season_close(season=season, by=moderator)
    assert closed.status == Season.Status.CLOSED and closed.ends_at is not None
    final = table(season)
    assert final == [
        (1, "alice", 2, 2, 0, 10, 0),
        (2, "bob", 1, 0, 1, 0, 0),
        (2, "carol", 1, 0, 1, 0, 10),
    ]
    assert SeasonRow.objects.filter(season=season).count() == 3

    # later: bob beats alice twice, and the league's ratings are recomputed (as after an admin's
    # correction); the closed season's table does not move, a new season counts only the later
    for _ in range(2):
        resign_match(services.ranked_match_create(league=league, user0=bob, user1=alice), alice)
    services.league_ratings_recompute(league=league)
    assert table(season) == final
    summer = season_open(league=league, name="Summer", by=moderator)
    resign_match(services.ranked_match_create(league=league, user0=carol, user1=bob), bob)
    assert [(line[1], line[3]) for line in table(summer)] == [("carol", 1), ("bob", 0)]

    # the league's page: the open season's table, and the closed one's final table with its dates
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    spring = page[page.index(f'data-season="{season.pk}"') :]
    spring = spring[: spring.index("</details>")]
    assert 'data-state="closed"' in spring
    assert "The final table: matches that ended from" in spring
    rows = [part.split('"')[0] for part in spring.split('<tr data-username="')[1:]]
    assert rows == ["alice", "bob", "carol"]
    assert page.index(f'data-season="{summer.pk}"') < page.index(f'data-season="{season.pk}"')


def test_the_league_page_says_the_season_in_words_and_a_closed_one_stays_after_it_ends(
    client, league, moderator, alice, bob
) -> None:
    join(league, alice)
    join(league, bob)
    season = season_open(league=league, name="Autumn Cup", by=moderator)
    url = reverse("leagues:detail", args=[league.slug])
    page = client.get(url).content.decode()
    assert "Autumn Cup" in page and "Open since" in page
    assert "No match has counted yet." in page
    assert "Ranked by most wins, then most points scored" in page
    resign_match(queue_match(league, alice, bob), alice)
    season_close(season=season, by=moderator)
    page = client.get(url).content.decode()
    assert "Open since" not in page
    assert f'data-season="{season.pk}" data-state="closed" open' in page  # the latest, unfolded
    assert "from " in page and "The final table" in page
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert '<tr data-username="bob" class="you">' not in page
    assert '<tr data-username="alice" class="you">' in page


def test_a_league_without_seasons_shows_none_but_its_moderators_see_where_to_open_one(
    client, league, moderator
) -> None:
    url = reverse("leagues:detail", args=[league.slug])
    assert 'id="seasons-title"' not in client.get(url).content.decode()
    client.force_login(moderator)
    page = client.get(url).content.decode()
    assert "No season is open." in page
    assert reverse("admin:leagues_season_changelist") in page


def test_the_refusals_say_why(league, moderator) -> None:
    with pytest.raises(GameError, match="needs a name"):
        season_open(league=league, name="  ", by=moderator)
    season = season_open(league=league, name="Spring", by=moderator)
    with pytest.raises(GameError, match="already has an open season, Spring: close it first"):
        season_open(league=league, name="Spring again", by=moderator)
    season_close(season=season, by=moderator)
    with pytest.raises(GameError, match="Spring is closed already"):
        season_close(season=season, by=moderator)
    league.status = League.Status.ARCHIVED
    league.save()
    with pytest.raises(GameError, match="is archived"):
        season_open(league=league, name="Summer", by=moderator)


def test_one_open_season_per_league_holds_in_the_database(league, south) -> None:
    from django.db import IntegrityError, transaction

    Season.objects.create(league=league, name="A", starts_at=timezone.now())
    Season.objects.create(league=south, name="B", starts_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(league=league, name="C", starts_at=timezone.now())


def test_who_may_open_and_close_a_season(league, moderator, other_moderator, alice) -> None:
    join(league, alice)
    admin = UserFactory(is_staff=True, is_superuser=True)
    for nobody in (other_moderator, alice, None):
        with pytest.raises(GameError, match="Only moderators of North League"):
            season_open(league=league, name="Spring", by=nobody)
    season = season_open(league=league, name="Spring", by=moderator)
    for nobody in (other_moderator, alice):
        with pytest.raises(GameError, match="Only moderators of North League"):
            season_close(season=season, by=nobody)
    season_close(season=season, by=moderator)
    season_close(season=season_open(league=league, name="Summer", by=admin), by=admin)
    assert Season.objects.filter(league=league, status="closed").count() == 2


# --- the admin ---------------------------------------------------------------------------------


def test_a_moderator_who_is_not_staff_opens_and_closes_a_season_in_the_admin(
    client, league, moderator, alice, bob
) -> None:
    join(league, alice)
    join(league, bob)
    client.force_login(moderator)
    add = reverse("admin:leagues_season_add")
    assert client.get(add).status_code == 200
    answer = client.post(add, {"league": league.pk, "name": "Spring", "order": "points"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    season = Season.objects.get(league=league)
    assert (season.name, season.order, season.status) == ("Spring", "points", "open")

    # a second open season: a form error saying why, nothing saved
    answer = client.post(add, {"league": league.pk, "name": "Again", "order": "wins"})
    assert answer.status_code == 200
    assert "already has an open season, Spring: close it first." in answer.content.decode()
    assert Season.objects.count() == 1

    resign_match(queue_match(league, alice, bob), bob)
    change = reverse("admin:leagues_season_change", args=[season.pk])
    assert "Alice" in client.get(change).content.decode()  # the table as it stands

    # close: the action asks first, saying what closing does; then closes
    changelist = reverse("admin:leagues_season_changelist")
    chosen = {"action": "close_selected", "_selected_action": [season.pk]}
    answer = client.post(changelist, chosen)
    assert answer.status_code == 200
    assert "Closing a season makes its table final" in answer.content.decode()
    season.refresh_from_db()
    assert season.is_open
    answer = client.post(changelist, {**chosen, "confirmed": "yes"}, follow=True)
    assert "Spring: closed; its final table is kept." in answer.content.decode()
    season.refresh_from_db()
    assert not season.is_open and season.rows.count() == 2
    # closed: read-only, and closing again is refused with the reason
    answer = client.post(changelist, {**chosen, "confirmed": "yes"}, follow=True)
    assert "Spring: Spring is closed already." in answer.content.decode()
    answer = client.get(change)
    assert "name" not in answer.context["adminform"].form.fields
    assert "order" not in answer.context["adminform"].form.fields
    assert "Close this season" not in answer.content.decode()
    assert 'name="_save"' not in answer.content.decode()
    client.post(change, {"name": "Renamed", "order": "wins"})
    season.refresh_from_db()
    assert season.name == "Spring"

    # a season's own button: the same confirmation, then the close
    summer = season_open(league=league, name="Summer", by=moderator)
    change = reverse("admin:leagues_season_change", args=[summer.pk])
    close = reverse("admin:leagues_season_close", args=[summer.pk])
    assert close in client.get(change).content.decode()
    answer = client.get(close)
    assert "Closing a season makes its table final" in answer.content.decode()
    assert 'name="action"' not in answer.content.decode()
    summer.refresh_from_db()
    assert summer.is_open
    answer = client.post(close, {"confirmed": "yes"}, follow=True)
    assert answer.redirect_chain[-1][0] == change
    assert "Summer: closed; its final table is kept." in answer.content.decode()
    summer.refresh_from_db()
    assert not summer.is_open


def test_a_moderator_of_another_league_neither_sees_nor_closes_its_seasons(
    client, league, moderator, other_moderator
) -> None:
    season = season_open(league=league, name="Spring", by=moderator)
    client.force_login(other_moderator)
    changelist = reverse("admin:leagues_season_changelist")
    assert "Spring" not in client.get(changelist).content.decode()
    assert client.get(reverse("admin:leagues_season_change", args=[season.pk])).status_code == 302
    client.post(
        changelist,
        {"action": "close_selected", "_selected_action": [season.pk], "confirmed": "yes"},
    )
    close = reverse("admin:leagues_season_close", args=[season.pk])
    assert client.get(close).status_code == 404
    assert client.post(close, {"confirmed": "yes"}).status_code == 404
    season.refresh_from_db()
    assert season.is_open
    # the add form offers only their own league: a POST naming another is a form error
    add = reverse("admin:leagues_season_add")
    leagues = client.get(add).context["adminform"].form.fields["league"].queryset
    assert list(leagues) == [other_moderator.league_memberships.get().league]
    answer = client.post(add, {"league": league.pk, "name": "Mine", "order": "wins"})
    assert answer.status_code == 200 and Season.objects.count() == 1


def test_a_member_and_a_visitor_do_not_reach_the_seasons_admin(client, league, alice) -> None:
    join(league, alice)
    url = reverse("admin:leagues_season_add")
    assert client.get(url).status_code == 302  # to the admin's log-in
    client.force_login(alice)
    assert client.get(url).status_code == 302
    assert client.post(url, {"league": league.pk, "name": "X", "order": "wins"}).status_code == 302
    assert not Season.objects.exists()
    season = Season.objects.create(league=league, name="Spring", starts_at=timezone.now())
    close = reverse("admin:leagues_season_close", args=[season.pk])
    assert client.post(close, {"confirmed": "yes"}).status_code == 302
    season.refresh_from_db()
    assert season.is_open


def test_a_superuser_sees_every_leagues_seasons(client, league, moderator, south) -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    season_open(league=league, name="North Spring", by=admin)
    season_open(league=south, name="South Spring", by=admin)
    client.force_login(admin)
    page = client.get(reverse("admin:leagues_season_changelist")).content.decode()
    assert "North Spring" in page and "South Spring" in page


# --- the order of a table ----------------------------------------------------------------------


def line(name: str, pk: int, **numbers: int) -> SeasonLine:
    user = User(username=name, display_name=name.title())
    return SeasonLine(membership=Membership(pk=pk, user=user), **numbers)


def test_a_table_is_ranked_as_the_league_chose_and_equals_share_a_place() -> None:
    lines = [
        line("ann", 1, matches=4, wins=3, losses=1, points_for=40, points_against=30),
        line("ben", 2, matches=4, wins=2, losses=2, points_for=60, points_against=20),
        line("cid", 3, matches=3, wins=3, losses=0, points_for=40, points_against=35),
        line("dot", 4, matches=3, wins=3, losses=0, points_for=40, points_against=35),
    ]

    def ranks(order: str) -> list[tuple[int, str]]:
        return [(x.rank, x.username) for x in season_ranked(lines, order)]

    # wins, then points scored, then fewer matches: cid and dot equal, ann behind them
    assert ranks("wins") == [(1, "cid"), (1, "dot"), (3, "ann"), (4, "ben")]
    # wins, then the points difference (ann +10 beats cid's and dot's +5)
    assert ranks("difference") == [(1, "ann"), (2, "cid"), (2, "dot"), (4, "ben")]
    # points scored first
    assert ranks("points") == [(1, "ben"), (2, "cid"), (2, "dot"), (4, "ann")]


# --- the demo ----------------------------------------------------------------------------------


def test_the_demo_club_has_an_open_season_with_results() -> None:
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    club = League.objects.get(slug="club")
    season = Season.objects.get(league=club)
    assert season.is_open
    lines = season_table(season)
    assert len(lines) >= 3 and sum(x.wins for x in lines) >= 3
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    assert Season.objects.filter(league=club).count() == 1
