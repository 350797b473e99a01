"""The tournament page (entrants, rounds, standings with tie-breaks, the bracket, live and
replay links, register and withdraw) and the league page's list of tournaments."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues.models import Entry, Membership, Tournament, TournamentMatch
from leagues.tournaments import selectors as tsel
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


def players(league, n: int) -> list:
    users = [UserFactory(username=f"u{i}", display_name=f"Player {i}") for i in range(n)]
    for i, user in enumerate(users):
        join(league, user, rating=1500 + 10 * i)
    return users


def url(t: Tournament, name: str = "leagues:tournament") -> str:
    return reverse(name, args=[t.league.slug, t.slug])


def test_register_and_withdraw_from_the_page(client, league):
    (me,) = players(league, 1)
    outsider = UserFactory(username="outsider")
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss")
    ts.tournament_open_registration(tournament=t)
    client.force_login(me)
    page = client.get(url(t)).content.decode()
    assert "Register" in page
    client.post(url(t, "leagues:tournament_register"))
    assert Entry.objects.filter(tournament=t, user=me).exists()
    page = client.get(url(t)).content.decode()
    assert "You are entered." in page and "Player 0" in page
    client.post(url(t, "leagues:tournament_withdraw"))
    assert not Entry.objects.filter(tournament=t, user=me).exists()
    client.force_login(outsider)
    assert "Register" not in client.get(url(t)).content.decode()
    response = client.post(url(t, "leagues:tournament_register"), follow=True)
    assert "not a member" in response.content.decode()
    assert not Entry.objects.filter(tournament=t, user=outsider).exists()
    client.logout()
    response = client.post(url(t, "leagues:tournament_register"))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_swiss_page_shows_rounds_live_links_then_standings_and_ratings(client, league):
    users = players(league, 4)
    t = ts.tournament_create(
        league=league, name="Spring Swiss", slug="spring", format="swiss", rounds=2, match_target=5
    )
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    page = client.get(url(t)).content.decode()
    assert "Round 1" in page and "watch live" in page and "playing" in page
    league_page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert "Spring Swiss" in league_page and url(t) in league_page

    ts.tournament_autoplay(tournament=t)
    page = client.get(url(t)).content.decode()
    assert "Final standings" in page and "Buchholz" in page and "replay" in page
    assert "watch live" not in page
    rows = tsel.tournament_standings(t)
    # the rows appear in the standings' order, with their tie-breaks and league ratings
    positions = [page.index(f'data-username="{r.user.username}"') for r in rows]
    assert positions == sorted(positions)
    for r in rows:
        rating = round(Membership.objects.get(league=league, user=r.user).rating)
        assert r.rating == rating
        assert f'<td class="num rating">{rating}</td>' in page


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_an_elimination_page_draws_the_bracket(client, league):
    users = players(league, 3)
    t = ts.tournament_create(
        league=league, name="KO", slug="ko", format="elimination", ranked=False, match_target=5
    )
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    page = client.get(url(t)).content.decode()
    assert 'class="bracket"' in page and "Semi-finals" in page and "Final" in page
    assert "to be decided" in page and "bye" in page
    ts.tournament_autoplay(tournament=t)
    page = client.get(url(t)).content.decode()
    assert "Champion:" in page and "champion" in page


def test_unknown_tournaments_are_404(client, league):
    response = client.get(reverse("leagues:tournament", args=[league.slug, "nope"]))
    assert response.status_code == 404


def test_a_draft_is_seen_only_by_its_leagues_moderators_as_in_the_api(client, league):
    member, moderator = players(league, 2)
    Membership.objects.filter(user=moderator).update(role=Membership.Role.MODERATOR)
    t = ts.tournament_create(league=league, name="Secret Cup", slug="secret", format="swiss")
    assert client.get(url(t)).status_code == 404  # a visitor
    assert client.get(f"/api/v1/tournaments/{t.pk}/").status_code == 404
    client.force_login(member)
    assert client.get(url(t)).status_code == 404
    assert client.post(url(t, "leagues:tournament_register")).status_code == 404
    client.force_login(moderator)
    assert "Secret Cup" in client.get(url(t)).content.decode()
    ts.tournament_open_registration(tournament=t)
    client.logout()
    assert "Secret Cup" in client.get(url(t)).content.decode()


def pairing_cell(page: str, name: str) -> str:
    """The row of the newest round's pairing where ``name`` plays."""
    rows = re.findall(r"<tr[^>]*>.*?</tr>", page[page.index('class="pairings"') :], re.S)
    return next(r for r in rows if name in r)


def test_an_entrant_plays_their_own_match_others_watch_it(client, league):
    users = players(league, 4)
    outsider = UserFactory(username="watcher")
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss", rounds=2)
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    mine = TournamentMatch.objects.get(round__tournament=t, first=users[0])
    theirs = TournamentMatch.objects.exclude(pk=mine.pk).get(round__tournament=t)
    table = reverse("games:table", args=[mine.match.current_game.pk])
    other_table = reverse("games:table", args=[theirs.match.current_game.pk])
    opponent = mine.second

    client.force_login(users[0])
    page = client.get(url(t)).content.decode()
    # told at the top that the round is paired, and whom they play, with the way to the table
    card = page[page.index('data-part="your-pairing"') :].split("</div>")[0]
    assert f"Round 1 is paired: you play <strong>{opponent.public_name}</strong>." in card
    assert f'<a class="button" href="{table}">Play your match</a>' in card
    row = pairing_cell(page, f'href="{table}"')
    assert "Play your match" in row and "watch live" not in row and 'class="you"' in row
    other = pairing_cell(page, f'href="{other_table}"')
    assert "watch live" in other and "Play your match" not in other

    for viewer in (outsider, None):  # someone else, and a visitor: only "watch live"
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        page = client.get(url(t)).content.decode()
        assert "Play your match" not in page and 'data-part="your-pairing"' not in page
        assert "watch live" in pairing_cell(page, f'href="{table}"')


def test_an_entrant_with_a_bye_is_told_so(client, league):
    users = players(league, 3)
    t = ts.tournament_create(league=league, name="Odd", slug="odd", format="swiss", rounds=2)
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    bye = TournamentMatch.objects.get(round__tournament=t, second__isnull=True)
    client.force_login(bye.first)
    page = client.get(url(t)).content.decode()
    assert "Round 1 is paired: you have a bye, a point without playing." in page
    assert "Play your match" not in page


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
@pytest.mark.parametrize("format", ["swiss", "round_robin", "elimination"])
def test_a_finished_tournament_shows_its_winner(client, league, format):
    users = players(league, 4)
    t = ts.tournament_create(
        league=league, name="Final", slug="final", format=format, rounds=2, match_target=5
    )
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    ts.tournament_start(tournament=t)
    client.force_login(users[0])
    assert 'data-part="winner"' not in client.get(url(t)).content.decode()
    ts.tournament_autoplay(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    winner = tsel.tournament_standings(t)[0].user
    page = client.get(url(t)).content.decode()
    line = page[page.index('data-part="winner"') :].split("</p>")[0]
    assert f"Winner: <strong>{winner.public_name}</strong>" in line
    assert 'data-part="your-pairing"' not in page  # nothing left to play
