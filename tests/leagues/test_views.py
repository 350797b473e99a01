"""The league pages: list, standings (sorting, the "?" marker), join/leave/request/approve,
the queue page, ranked challenges from the standings, and ratings on profiles."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues import services
from leagues.models import League, Membership
from lobby.models import Challenge
from lobby.services import challenge_accept, challenge_create
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league, resign_match

pytestmark = pytest.mark.django_db


def test_the_list_shows_active_leagues_and_archived_apart(client, alice) -> None:
    make_league("north")
    make_league("old", status=League.Status.ARCHIVED)
    page = client.get(reverse("leagues:list")).content.decode()
    assert "North League" in page and "Archived leagues" in page
    assert page.index("North League") < page.index("Archived leagues") < page.index("Old League")


def test_the_nav_links_to_the_leagues(client) -> None:
    assert f'href="{reverse("leagues:list")}"' in client.get("/").content.decode()


def test_the_league_page_shows_rules_standings_and_matches(client, league, members, alice, bob):
    match = resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    live = services.ranked_match_create(league=league, user0=bob, user1=alice)
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert "A pay-off pile of 5 cards" in page and "A match goes to 10 points" in page
    assert "Only people play ranked matches" in page
    assert page.index('data-username="alice"') < page.index('data-username="bob"')
    assert f'data-match="{match.pk}"' in page and f'data-match="{live.pk}"' in page
    assert reverse("games:table", args=[live.current_game.pk]) in page
    assert reverse("games:replay", args=[match.current_game.pk]) in page


def test_provisional_ratings_are_marked(client, league, alice, bob) -> None:
    join(league, alice, rating=1712.4, deviation=80, opponents=5)
    join(league, bob)  # new: deviation 350
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    alice_row = page[page.index('data-username="alice"') :].split("</tr>")[0]
    bob_row = page[page.index('data-username="bob"') :].split("</tr>")[0]
    assert ">1712<" in alice_row and 'class="provisional"' not in alice_row
    assert ">1500<abbr" in bob_row and 'class="provisional"' in bob_row


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        ("rating", ["alice", "bob", "carol"]),
        ("matches", ["carol", "bob", "alice"]),
        ("wins", ["bob", "alice", "carol"]),
        ("points", ["carol", "alice", "bob"]),
        ("nonsense", ["alice", "bob", "carol"]),
    ],
)
def test_standings_sort(client, league, alice, bob, carol, sort, order) -> None:
    join(league, alice, rating=1700, matches=1, wins=1, points_for=30)
    join(league, bob, rating=1600, matches=4, wins=3, points_for=10)
    join(league, carol, rating=1500, matches=9, wins=0, points_for=90)
    page = client.get(reverse("leagues:detail", args=[league.slug]), {"sort": sort})
    html = page.content.decode()
    assert [html.index(f'data-username="{u}"') for u in order] == sorted(
        html.index(f'data-username="{u}"') for u in order
    )


def test_equal_rows_keep_a_stable_order(client, league, alice, bob, carol) -> None:
    for user in (carol, alice, bob):
        join(league, user)
    rows = [r.username for r in services_standings(league, "wins")]
    assert rows == ["alice", "bob", "carol"]


def services_standings(league, sort):
    from leagues.selectors import league_standings

    return league_standings(league=league, sort=sort)


def test_join_leave_and_request_flows(client, alice) -> None:
    open_league = make_league("north")
    closed = make_league("guild", admission=League.Admission.APPROVAL)
    client.force_login(alice)
    page = client.get(reverse("leagues:detail", args=["guild"])).content.decode()
    assert "Request to join" in page
    client.post(reverse("leagues:join", args=["north"]))
    assert Membership.objects.get(league=open_league, user=alice).status == "active"
    page = client.get(reverse("leagues:detail", args=["north"])).content.decode()
    assert "Play ranked" in page and reverse("leagues:queue", args=["north"]) in page
    response = client.post(reverse("leagues:join", args=["guild"]), follow=True)
    assert "waits for a moderator" in response.content.decode()
    assert Membership.objects.get(league=closed, user=alice).status == "pending"
    client.post(reverse("leagues:leave", args=["north"]))
    assert Membership.objects.get(league=open_league, user=alice).status == "left"
    assert client.get(reverse("leagues:join", args=["north"])).status_code == 405


def test_a_moderator_approves_on_the_requests_page(client, alice, bob, carol) -> None:
    guild = make_league("guild", admission=League.Admission.APPROVAL)
    join(guild, alice, role=Membership.Role.MODERATOR)
    request = join(guild, bob, status=Membership.Status.PENDING)
    client.force_login(alice)
    page = client.get(reverse("leagues:requests", args=["guild"])).content.decode()
    assert f'data-request="{request.pk}"' in page
    client.post(reverse("leagues:approve", args=["guild", request.pk]))
    request.refresh_from_db()
    assert request.status == "active"
    other = join(guild, carol, status=Membership.Status.PENDING)
    client.post(reverse("leagues:decline", args=["guild", other.pk]))
    other.refresh_from_db()
    assert other.status == "left"


def test_a_moderator_of_another_league_is_refused(client, alice, bob) -> None:
    north = make_league("north")
    guild = make_league("guild", admission=League.Admission.APPROVAL)
    join(north, alice, role=Membership.Role.MODERATOR)
    request = join(guild, bob, status=Membership.Status.PENDING)
    client.force_login(alice)
    assert client.get(reverse("leagues:requests", args=["guild"])).status_code == 403
    response = client.post(reverse("leagues:approve", args=["guild", request.pk]))
    assert response.status_code == 403
    # nor through her own league's address
    response = client.post(reverse("leagues:approve", args=["north", request.pk]))
    assert response.status_code == 404
    request.refresh_from_db()
    assert request.status == "pending"


def test_the_queue_page_is_for_active_members(client, league, alice, bob) -> None:
    join(league, alice)
    join(league, bob, status=Membership.Status.BANNED)
    client.force_login(alice)
    page = client.get(reverse("leagues:queue", args=[league.slug])).content.decode()
    assert f'data-queue-ws="/ws/leagues/{league.slug}/queue/"' in page
    assert "js/queue.js" in page and "Cancel: leave the queue" in page
    client.force_login(bob)
    response = client.get(reverse("leagues:queue", args=[league.slug]))
    assert response.status_code == 302


def test_a_ranked_challenge_from_the_standings(client, league, members, alice, bob) -> None:
    client.force_login(alice)
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    assert reverse("leagues:ranked_challenge", args=[league.slug]) in page
    response = client.post(
        reverse("leagues:ranked_challenge", args=[league.slug]),
        {"league": league.slug, "username": "bob"},
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert challenge.ranked and challenge.league == league and challenge.rules == league.rules
    match = challenge_accept(challenge_id=challenge.pk, user=bob)
    assert match.ranked and match.league == league and (match.user0, match.user1) == (alice, bob)


def test_a_ranked_challenge_needs_two_active_members(league, alice, bob, carol) -> None:
    from lobby.errors import LobbyError

    join(league, alice)
    join(league, bob, status=Membership.Status.PENDING)
    with pytest.raises(LobbyError) as info:
        challenge_create(challenger=alice, challenged_username="bob", league=league)
    assert info.value.code == "forbidden" and "approval" in info.value.message
    with pytest.raises(LobbyError):
        challenge_create(challenger=carol, challenged_username="alice", league=league)


def test_membership_is_checked_again_when_a_ranked_challenge_is_accepted(
    league, members, alice, bob
) -> None:
    from lobby.errors import LobbyError

    challenge = challenge_create(challenger=alice, challenged_username="bob", league=league)
    assert "Ranked in North League" in _summary(challenge, bob)
    Membership.objects.filter(user=alice).update(status=Membership.Status.BANNED)
    with pytest.raises(LobbyError) as info:
        challenge_accept(challenge_id=challenge.pk, user=bob)
    assert info.value.code == "closed"
    challenge.refresh_from_db()
    assert challenge.status == "cancelled" and challenge.match is None


def _summary(challenge, viewer) -> str:
    from lobby.selectors import challenge_data

    return challenge_data(challenge, viewer_id=viewer.pk)["summary"]


def test_the_profile_shows_league_ratings_a_chart_and_the_record(
    client, league, members, alice, bob
) -> None:
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    resign_match(services.ranked_match_create(league=league, user0=bob, user1=alice), bob)
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    card = page[page.index('class="rating-card"') :]
    assert "North League" in card and "2 won · 0 lost · 0 tied" in card
    assert '<svg class="rating-chart"' in card and "<title" in card
    assert card.count("<circle") == 3  # the start and two rated matches
    assert "Alice&#x27;s rating in North League" in card
    assert 'data-wins="2" data-losses="0" data-ties="0"' in page
    assert reverse("games:history", args=["alice"]) in page
    rating = round(Membership.objects.get(user=alice).rating)
    assert f">{rating}<abbr" in card or f">{rating}</span>" in card


def test_a_profile_without_leagues(client, alice) -> None:
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "Alice is not in any league yet." in page and "No matches yet." in page

    client.force_login(alice)
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "You are not in any league yet." in page


def test_another_players_profile_without_leagues_does_not_say_you_in_italian(client, alice) -> None:
    """Italian said "Non sei ancora in nessuna lega" (you are not...) on anyone's profile."""
    client.cookies["django_language"] = "it"
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    assert "Alice non è ancora in nessuna lega." in page
    assert "Non sei" not in page


def _your_rating(page: str) -> str:
    """The "You in this league" card's rating and chart (up to its Leave button)."""
    start = page.index('data-part="your-rating"')
    return page[start : page.index("/leave/", start)]


def test_a_member_sees_their_rating_history_on_the_league_page(
    client, league, members, alice, bob
) -> None:
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    url = reverse("leagues:detail", args=[league.slug])
    client.force_login(alice)
    mine = _your_rating(client.get(url).content.decode())
    rating = round(Membership.objects.get(user=alice).rating)
    assert "Your rating" in mine and f">{rating}<" in mine
    assert '<svg class="rating-chart"' in mine and mine.count("<circle") == 2
    # in Burmese, its dates in Burmese words and Latin digits
    alice.language = "my"
    alice.save(update_fields=["language"])
    mine = _your_rating(client.get(url).content.decode())
    dates = re.search(r'class="rating-chart-dates"[^>]*>(.*?)</div>', mine).group(1)
    shown = re.sub(r"<[^>]+>", "", dates)
    assert re.search("[0-9]", shown) and not re.search("[\u1040-\u1049]", shown)
    # a member before any rated match sees no chart yet; a visitor sees no card at all
    carol = join(league, UserFactory(username="carol"))
    client.force_login(carol.user)
    mine = _your_rating(client.get(url).content.decode())
    assert "No rated match yet." in mine and "<svg" not in mine
    client.logout()
    assert 'data-part="your-rating"' not in client.get(url).content.decode()


@pytest.mark.parametrize(
    ("language", "germany"), [("vi", "Đức"), ("my", "ဂျာမနီ"), ("en", "Germany")]
)
def test_the_standings_name_each_country_in_the_readers_language(
    client, league, members, alice, bob, language, germany
) -> None:
    alice.country = "DE"
    alice.save(update_fields=["country"])
    bob.country = ""
    bob.save(update_fields=["country"])
    client.cookies["django_language"] = language
    page = client.get(reverse("leagues:detail", args=[league.slug])).content.decode()
    row = page[page.index('data-username="alice"') :].split("</tr>")[0]
    assert re.search(
        rf'<span class="standing-country"><span class="flag" aria-hidden="true">[^<]+</span> '
        rf"{germany}</span>",
        row,
    )
    assert "standing-country" not in page[page.index('data-username="bob"') :].split("</tr>")[0]


def test_the_profile_chart_says_its_dates_in_vietnamese(client, league, members, alice, bob):
    resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    client.cookies["django_language"] = "vi"
    page = client.get(reverse("accounts:profile", args=["alice"])).content.decode()
    dates = re.search(r'class="rating-chart-dates"[^>]*>(.*?)</div>', page).group(1)
    assert re.fullmatch(r"(<time datetime=\"[\d-]+\">\d+ thg \d+, \d{4}</time>)+", dates)


def test_a_players_own_live_match_reads_play_where_others_watch(
    client, league, members, alice, bob
):
    match = services.ranked_match_create(league=league, user0=alice, user1=bob)
    table = reverse("games:table", args=[match.current_game.pk])
    url = reverse("leagues:detail", args=[league.slug])

    def link() -> str:
        page = client.get(url).content.decode()
        return re.search(rf'<a href="{table}">([^<]+)</a>', page).group(1)

    assert link() == "watch"  # a visitor
    client.force_login(alice)
    assert link() == "Play your match"
    client.force_login(join(league, UserFactory(username="carol")).user)
    assert link() == "watch"


def test_the_queue_tells_a_player_who_may_not_join_why_in_the_second_person(
    client, league, carol
) -> None:
    """Not "Carol is not a member of North League." said to Carol herself."""
    client.force_login(carol)
    page = client.get(reverse("leagues:queue", args=[league.slug]), follow=True)
    assert "You are not a member of North League." in page.content.decode()
    join(league, carol, status=Membership.Status.PENDING)
    page = client.get(reverse("leagues:queue", args=[league.slug]), follow=True)
    assert "Your request to join North League waits for a moderator" in page.content.decode()
