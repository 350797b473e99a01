"""The tournament admin through the test client: a whole tournament run from its page's steps
(open registration, start), results set and corrected on the pairings' admin, the standings
exported as CSV, league archiving, and who may do what (staff with permissions; a league's
moderator for that league only; others refused). The page itself and each step in detail:
test_admin_page.py."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.models import Match
from leagues.models import League, Membership, RatingChange, Tournament, TournamentMatch
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:leagues_tournament_changelist"


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def four(league: League) -> list:
    users = [UserFactory(username=f"q{i}") for i in range(4)]
    for i, user in enumerate(users):
        join(league, user, rating=1500 + 10 * i)
    return users


def act(client, action: str, tournament: Tournament, **extra):
    """A change list action on ``tournament``."""
    return client.post(
        reverse(CHANGELIST),
        {"action": action, "_selected_action": [tournament.pk], **extra},
        follow=True,
    )


def step(client, name: str, tournament: Tournament):
    """Take a step on the tournament's page (its confirmation's POST)."""
    return client.post(
        reverse("admin:leagues_tournament_step", args=[tournament.pk, name]), follow=True
    )


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_the_whole_tournament_through_the_admin(client, superuser, league):
    users = four(league)
    client.force_login(superuser)
    response = client.post(
        reverse("admin:leagues_tournament_add"),
        {
            "league": league.pk,
            "name": "Spring Swiss",
            "slug": "spring",
            "format": "swiss",
            "rounds": 2,
            "ranked": "on",
            "match_target": 5,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "round_set-TOTAL_FORMS": 0,
            "round_set-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(slug="spring")
    assert t.created_by == superuser and t.status == "draft"
    assert "Spring Swiss" in client.get(reverse(CHANGELIST)).content.decode()

    step(client, "open", t)
    t.refresh_from_db()
    assert t.status == "registration"
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    page = step(client, "start", t).content.decode()
    assert "started; round 1 is paired" in page
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1

    # the admin sets each result of round 1 (the matches are unplayed: they are aborted)
    for pairing in TournamentMatch.objects.filter(round__number=1):
        url = reverse("admin:leagues_tournamentmatch_change", args=[pairing.pk])
        assert client.get(url).status_code == 200
        response = client.post(url, {"winner": pairing.first_id, "forfeit": "on"})
        assert response.status_code == 302
        pairing.refresh_from_db()
        assert pairing.source == "admin" and pairing.winner_id == pairing.first_id
        assert pairing.match.status == Match.Status.ABORTED
    t.refresh_from_db()
    assert t.current_round == 2  # the last result closed round 1 and paired round 2

    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == "finished"

    # correct a played result: the ratings are recomputed
    played = TournamentMatch.objects.filter(round__number=2).first()
    loser = played.first_id if played.winner_id == played.second_id else played.second_id
    url = reverse("admin:leagues_tournamentmatch_change", args=[played.pk])
    client.post(url, {"winner": loser})
    played.refresh_from_db()
    assert played.winner_id == loser
    assert RatingChange.objects.get(match=played.match, membership__user_id=loser).score == 1.0

    response = act(client, "export_standings_csv", t)
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [int(r["rank"]) for r in rows] == [1, 2, 3, 4]
    assert {r["player"] for r in rows} == {u.username for u in users}
    assert all(r["buchholz"] != "" and r["sonneborn_berger"] != "" for r in rows)
    assert sum(float(r["points"]) for r in rows) == 4.0


def test_the_match_admin_filters_by_league_and_ranked(client, superuser, league):
    client.force_login(superuser)
    url = reverse("admin:games_match_changelist")
    response = client.get(url, {"league__id__exact": league.pk, "ranked__exact": "1"})
    assert response.status_code == 200
    assert "By league" in response.content.decode()


def test_archiving_a_league(client, superuser, league):
    client.force_login(superuser)
    client.post(
        reverse("admin:leagues_league_changelist"),
        {"action": "archive_selected", "_selected_action": [league.pk]},
    )
    league.refresh_from_db()
    assert league.status == League.Status.ARCHIVED


def test_a_moderator_manages_their_league_only(client, league):
    other = make_league("south")
    mod = UserFactory(username="mod", is_staff=True)
    join(league, mod, role=Membership.Role.MODERATOR)
    mine = ts.tournament_create(league=league, name="Mine", slug="mine", format="swiss")
    theirs = ts.tournament_create(league=other, name="Theirs", slug="theirs", format="swiss")
    client.force_login(mod)
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert "Mine" in page and "Theirs" not in page
    assert client.get(reverse("admin:leagues_tournament_change", args=[mine.pk])).status_code == 200
    response = client.get(reverse("admin:leagues_tournament_change", args=[theirs.pk]))
    assert response.status_code in (302, 403, 404)
    assert step(client, "open", theirs).status_code == 404  # not in their rows
    step(client, "open", mine)
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.status == "registration" and theirs.status == "draft"
    # the league admin, too: their league only, and no archiving of another
    client.post(
        reverse("admin:leagues_league_changelist"),
        {"action": "archive_selected", "_selected_action": [other.pk]},
    )
    other.refresh_from_db()
    assert other.status == League.Status.ACTIVE


def test_staff_with_permissions_see_every_league(client, league):
    other = make_league("south")
    staff = UserFactory(username="staffer", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="leagues",
            codename__in=["view_tournament", "change_tournament"],
        )
    )
    ts.tournament_create(league=league, name="Mine", slug="mine", format="swiss")
    ts.tournament_create(league=other, name="Theirs", slug="theirs", format="swiss")
    client.force_login(staff)
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert "Mine" in page and "Theirs" in page


def test_staff_without_permissions_nor_leagues_and_players_are_refused(client, league):
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    staff = UserFactory(username="plainstaff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse(CHANGELIST)).status_code == 403
    step(client, "open", t)
    player = UserFactory(username="player")
    join(league, player)  # a member, not a moderator
    client.force_login(player)
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 302 and "/login/" in response["Location"]
    step(client, "open", t)
    t.refresh_from_db()
    assert t.status == "draft"


def test_a_moderator_who_is_not_staff_runs_their_league_in_the_admin(client, league):
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    moderator = UserFactory(username="organiser")
    join(league, moderator, role=Membership.Role.MODERATOR)
    client.force_login(moderator)
    assert client.get(reverse(CHANGELIST)).status_code == 200
    step(client, "open", t)
    t.refresh_from_db()
    assert t.status == "registration"


def test_admins_pick_entrants_and_members_by_name(client, superuser, league):
    four(league)
    client.force_login(superuser)
    tournament_form = client.get(reverse("admin:leagues_tournament_add"))
    membership_form = client.get(reverse("admin:leagues_membership_add"))
    assert tournament_form.status_code == membership_form.status_code == 200
    for page in (tournament_form, membership_form):
        assert b"admin-autocomplete" in page.content  # a searchable list, not a raw id box
    found = client.get(
        reverse("admin:autocomplete"),
        {
            "term": "q2",
            "app_label": "leagues",
            "model_name": "entry",
            "field_name": "user",
        },
    )
    assert found.status_code == 200
    assert [row["text"] for row in found.json()["results"]] == ["q2"]
