"""A tournament's own admin page (issue 25, points 2 and 3): its state, round, pairings with
their states and the standings; a button for each step allowed now; each step's confirmation
page in words, its effect on POST, and its refusal (a stale button) saying why; who may take
steps (a superuser; a league's moderator who is not staff; not a moderator of another league,
nor a member); a non-staff moderator creating a tournament and picking its entrants by name.

States are built through the services; a match is made late by moving its creation back past
the league's no-show wait (``no_show_wait``), the clock ``tournament_forfeit_no_shows`` reads."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import services as game_services
from games.models import Match
from leagues.models import Membership, Round, Tournament, TournamentMatch
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league, play_turns, resign_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def organiser(league):
    """A moderator of the North League who is not staff."""
    user = UserFactory(username="organiser", display_name="Organiser")
    join(league, user, role=Membership.Role.MODERATOR)
    return user


def players(league, n: int) -> list[Any]:
    users = [UserFactory(username=f"e{i}", display_name=f"E{i}") for i in range(1, n + 1)]
    for i, user in enumerate(users):
        join(league, user, rating=1700 - 10 * i)
    return users


def cup(league, n: int = 4, *, start: bool = True, **fields: Any) -> Tournament:
    fields.setdefault("format", "swiss")
    fields.setdefault("rounds", 3)
    t = ts.tournament_create(league=league, name="Cup", slug="cup", **fields)
    ts.tournament_open_registration(tournament=t)
    for user in players(league, n):
        ts.tournament_register(tournament=t, user=user)
    if start:
        ts.tournament_start(tournament=t)
    t.refresh_from_db()
    return t


def boards(t: Tournament, number: int | None = None) -> list[TournamentMatch]:
    return list(
        TournamentMatch.objects.filter(
            round__tournament=t, round__number=number or t.current_round
        ).order_by("board")
    )


def make_late(pairing: TournamentMatch) -> None:
    """Its match was made longer ago than the league's no-show wait."""
    wait = ts.no_show_wait(pairing.round.tournament)
    Match.objects.filter(pk=pairing.match_id).update(
        created_at=pairing.match.created_at - wait - wait
    )


def page(client, t: Tournament) -> str:
    response = client.get(reverse("admin:leagues_tournament_change", args=[t.pk]))
    assert response.status_code == 200, response.content.decode()[:2000]
    return response.content.decode()


def step_url(t: Tournament, step: str) -> str:
    return reverse("admin:leagues_tournament_step", args=[t.pk, step])


def result_url(t: Tournament, pairing: TournamentMatch) -> str:
    return reverse("admin:leagues_tournament_result", args=[t.pk, pairing.pk])


def said(response) -> str:
    """The page a step's redirect lands on, messages included."""
    return response.content.decode()


# --- the page -----------------------------------------------------------------------------------


def test_the_page_shows_the_state_the_round_each_pairing_and_the_standings(
    client, superuser, organiser, league
):
    t = cup(league, 13)  # six matches and a bye
    waiting, playing, late, played, forfeited, decided, bye = boards(t)
    assert bye.second_id is None
    play_turns(playing.match, 1)
    game_services.game_resign(
        game_id=playing.match.current_game.pk, user=playing.second, scope="game"
    )
    make_late(late)
    resign_match(played.match, played.second, turns=0)
    make_late(forfeited)
    assert ts.tournament_forfeit_no_shows(tournament=t) == 2  # late and forfeited
    ts.pairing_result_set(pairing=decided, winner_id=decided.second_id, by=organiser)
    late.refresh_from_db()
    late.source, late.winner, late.forfeit = "", None, False  # late again: no result yet
    late.save()
    Match.objects.filter(pk=late.match_id).update(status=Match.Status.ACTIVE)

    client.force_login(superuser)
    html = page(client, t)
    assert 'id="tournament-panel"' in html
    assert "Status: <strong>running</strong>" in html
    assert "round 1 of 3" in html
    states = {
        p.pk: state
        for p, state in [
            (waiting, "waiting"),
            (playing, "playing"),
            (late, "late"),
            (played, "played"),
            (forfeited, "forfeit"),
            (decided, "set"),
            (bye, "bye"),
        ]
    }
    for pk, state in states.items():
        assert f'data-pairing="{pk}" data-state="{state}"' in html
    assert "not started" in html
    assert "in play, 5–0" in html  # noqa: RUF001
    assert "late: neither has moved" in html
    assert f"finished, 0–0: {played.first.public_name} wins" in html  # noqa: RUF001
    assert "no-show or withdrawal: a double forfeit" in html
    assert f"set by Organiser: {decided.second.public_name} wins" in html
    assert 'id="tournament-standings"' in html
    # the steps allowed now: forfeit the no-show; closing waits for the match in play
    assert 'id="step-forfeit"' in html and 'id="step-close"' not in html
    assert "Round 1 cannot close while a match is in play" in html
    assert 'id="step-finish"' not in html and "Round 1 is under way" in html
    # a result may be set for the pairings without a result from their match
    settable = {p.pk for p in (waiting, playing, late, forfeited, decided)}
    for p in (waiting, playing, late, played, forfeited, decided, bye):
        link = result_url(t, p)
        assert (link in html) == (p.pk in settable), p


def test_earlier_rounds_are_below_the_current_one(client, superuser, league):
    t = cup(league, 4)
    for p in boards(t):
        ts.pairing_result_set(pairing=p, winner_id=p.first_id)
    t.refresh_from_db()
    assert t.current_round == 2
    client.force_login(superuser)
    html = page(client, t)
    assert 'id="pairings-current"' in html and 'id="pairings-round-1"' in html
    assert html.index('id="pairings-current"') < html.index('id="tp-earlier"')


def test_the_form_groups_the_rules_and_shows_the_leagues_in_words(client, superuser, league):
    t = cup(league, 2, start=False)
    client.force_login(superuser)
    html = page(client, t)
    assert "<h2" in html and ">Rules</h2>" in html
    assert "The points that win a match of this tournament" in html
    assert "A pay-off pile of 5 cards" in html and "A match goes to 10 points" in html
    add = client.get(reverse("admin:leagues_tournament_add")).content.decode()
    assert "Shown once the tournament is saved" in add


# --- each step: its confirmation, its effect, its refusal ---------------------------------------


def test_open_registration_then_start(client, organiser, league):
    t = ts.tournament_create(league=league, name="Cup", slug="cup", format="swiss", rounds=2)
    client.force_login(organiser)
    assert 'id="step-open"' in page(client, t)
    confirm = client.get(step_url(t, "open")).content.decode()
    assert "Registration for Cup opens" in confirm and 'id="step-confirm-button"' in confirm
    t.refresh_from_db()
    assert t.status == "draft"  # a GET only asks
    done = said(client.post(step_url(t, "open"), follow=True))
    assert "Cup: registration is open." in done
    t.refresh_from_db()
    assert t.status == "registration"

    # a stale button: registration is open already
    again = said(client.post(step_url(t, "open"), follow=True))
    assert "Refused: Open registration. Cup: registration opens only from a draft." in again

    # too few entrants: the page says why it cannot start, and the step refuses
    html = page(client, t)
    assert 'id="step-start"' not in html
    assert "Cup needs at least two entrants to start." in html
    refused = said(client.get(step_url(t, "start"), follow=True))
    assert "Refused: Start the tournament. Cup needs at least two entrants to start." in refused
    for user in players(league, 3):
        ts.tournament_register(tournament=t, user=user)
    confirm = client.get(step_url(t, "start")).content.decode()
    assert "Cup starts with its entrants (3)" in confirm and "Rounds planned: 2." in confirm
    done = said(client.post(step_url(t, "start"), follow=True))
    assert "Cup: started; round 1 is paired." in done
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1


def test_forfeit_the_no_shows(client, organiser, league):
    t = cup(league, 4)
    absent, present = boards(t)
    client.force_login(organiser)
    refused = said(client.post(step_url(t, "forfeit"), follow=True))
    assert "Refused: Forfeit the no-shows. Nobody in round 1 is late yet" in refused
    assert not TournamentMatch.objects.filter(round__tournament=t).exclude(source="").exists()

    play_turns(present.match, 0)
    game = present.match.current_game
    mover = game.to_move
    from tests.games.helpers import a_side_move

    game_services.game_play_move(
        game_id=game.pk,
        move=a_side_move(game, mover),
        version=game.version,
        user=present.match.user_at(mover),
    )
    make_late(absent)
    make_late(present)
    mover_name = present.match.user_at(mover).public_name
    other_name = present.match.user_at(1 - mover).public_name
    assert 'id="step-forfeit"' in page(client, t)
    confirm = client.get(step_url(t, "forfeit")).content.decode()
    assert "Forfeit the no-shows of round 1" in confirm
    assert "neither has moved: a double forfeit, no point for either." in confirm
    assert f"{other_name} has not moved: {mover_name} wins by forfeit." in confirm
    done = said(client.post(step_url(t, "forfeit"), follow=True))
    assert "Cup: 2 pairings forfeited." in done
    absent.refresh_from_db()
    present.refresh_from_db()
    assert absent.forfeit and absent.winner_id is None
    assert present.forfeit and present.winner.public_name == mover_name
    t.refresh_from_db()
    assert t.current_round == 2  # the round's last results: round 2 is paired


def test_close_the_round(client, organiser, league):
    t = cup(league, 4)
    unplayed, busy = boards(t)
    play_turns(busy.match, 1)
    client.force_login(organiser)
    html = page(client, t)
    assert 'id="step-close"' not in html
    refused = said(client.post(step_url(t, "close"), follow=True))
    assert "Refused: Close round 1. Round 1 cannot close while a match is in play:" in refused
    assert f"{busy.first.public_name} v {busy.second.public_name}" in refused
    t.refresh_from_db()
    assert t.current_round == 1

    resign_match(busy.match, busy.first, turns=0)
    assert 'id="step-close"' in page(client, t)
    confirm = client.get(step_url(t, "close")).content.decode()
    assert "Close round 1 now: its pairings without a result are scored as forfeits" in confirm
    assert (
        f"{unplayed.first.public_name} v {unplayed.second.public_name}: neither has moved: "
        "a double forfeit" in confirm
    )
    assert "Then round 2 is paired and its matches begin." in confirm
    done = said(client.post(step_url(t, "close"), follow=True))
    assert "Cup: round 1 closed; round 2 is paired." in done
    unplayed.refresh_from_db()
    assert unplayed.forfeit and unplayed.winner_id is None
    assert unplayed.match.status == Match.Status.ABORTED
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.CLOSED


def test_finish_refused_while_a_round_is_under_way_then_allowed_between_rounds(
    client, organiser, league
):
    t = cup(league, 4)
    first, second = boards(t)
    play_turns(first.match, 1)
    client.force_login(organiser)
    html = page(client, t)
    assert 'id="step-finish"' not in html
    refused = said(client.post(step_url(t, "finish"), follow=True))
    assert "Refused: Finish the tournament. Round 1 is under way" in refused
    t.refresh_from_db()
    assert t.status == "running"

    resign_match(first.match, first.second, turns=0)
    ts.pairing_result_set(pairing=second, winner_id=second.first_id, by=organiser)
    t.refresh_from_db()
    assert t.current_round == 2  # round 2 is paired and nobody has played in it
    round_two = [p.match for p in boards(t)]
    assert 'id="step-finish"' in page(client, t)
    confirm = client.get(step_url(t, "finish")).content.decode()
    assert "Finish Cup now." in confirm
    assert "Round 2, paired but not begun, is called off" in confirm
    done = said(client.post(step_url(t, "finish"), follow=True))
    assert "Cup: finished: the standings are final." in done
    t.refresh_from_db()
    assert t.status == "finished" and t.current_round == 1 and t.finished_at is not None
    assert not Round.objects.filter(tournament=t, number=2).exists()
    assert all(Match.objects.get(pk=m.pk).status == Match.Status.ABORTED for m in round_two if m)
    html = page(client, t)
    assert "Final standings" in html and 'id="tournament-steps"' not in html


def test_set_a_pairings_result(client, organiser, league):
    t = cup(league, 4)
    playing, played = boards(t)
    play_turns(playing.match, 1)
    resign_match(played.match, played.second, turns=0)
    client.force_login(organiser)

    confirm = client.get(result_url(t, playing)).content.decode()
    assert (
        f"Set the result of {playing.first.public_name} v {playing.second.public_name} "
        "(round 1, board 1)." in confirm
    )
    assert "Their match is in play (0–0): it plays on, but the result you set here" in confirm  # noqa: RUF001
    assert 'id="result-draw"' in confirm and 'id="result-double_forfeit"' in confirm
    assert "Choose a result." in client.post(result_url(t, playing), {}).content.decode()

    # a match played to its end keeps its result
    html = page(client, t)
    assert result_url(t, playing) in html and result_url(t, played) not in html
    refused = said(client.post(result_url(t, played), {"result": "second"}, follow=True))
    assert "was played to its end: its result stands." in refused
    played.refresh_from_db()
    assert played.source == "played" and played.winner_id == played.first_id

    done = said(client.post(result_url(t, playing), {"result": "second_forfeit"}, follow=True))
    assert f"{playing.second.public_name} wins by forfeit" in done
    playing.refresh_from_db()
    assert playing.source == "admin" and playing.winner_id == playing.second_id
    assert playing.forfeit and playing.result_set_by == organiser

    t.refresh_from_db()
    assert t.current_round == 2  # that was round 1's last result


def test_a_bye_has_no_result_and_an_elimination_no_draw(client, superuser, league):
    t = cup(league, 3, format="elimination", rounds=None)
    bye = next(p for p in boards(t) if p.second_id is None)
    game = next(p for p in boards(t) if p.second_id is not None)
    client.force_login(superuser)
    refused = said(client.get(result_url(t, bye), follow=True))
    assert "Refused: Set the result. A bye has no result to set." in refused
    confirm = client.get(result_url(t, game)).content.decode()
    assert 'id="result-draw"' not in confirm and "Their match has not begun" in confirm
    from core.errors import GameError

    with pytest.raises(GameError, match="needs a winner"):
        ts.pairing_result_set(pairing=game, winner_id=None)
    other = ts.tournament_create(league=make_league("south"), name="X", slug="x", format="swiss")
    assert (
        client.get(reverse("admin:leagues_tournament_result", args=[other.pk, game.pk]))
    ).status_code == 404  # the pairing must be the tournament's own


# --- who may do what ----------------------------------------------------------------------------


def test_a_moderator_of_another_league_gets_no_step(client, league):
    t = cup(league, 4)
    south = make_league("south")
    stranger = UserFactory(username="stranger")
    join(south, stranger, role=Membership.Role.MODERATOR)
    client.force_login(stranger)
    assert client.get(reverse("admin:index")).status_code == 200  # their own admin
    assert client.get(reverse("admin:leagues_tournament_change", args=[t.pk])).status_code in (
        302,
        404,
    )
    pairing = boards(t)[0]
    for url in (step_url(t, "close"), step_url(t, "finish"), result_url(t, pairing)):
        assert client.get(url).status_code == 404
        assert client.post(url, {"result": "first"}).status_code == 404
    pairing.refresh_from_db()
    t.refresh_from_db()
    assert pairing.source == "" and t.status == "running"


def test_staff_who_see_every_tournament_but_run_no_league_get_no_step(client, league):
    t = cup(league, 2, start=False)
    staff = UserFactory(username="viewer", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="leagues", codename="view_tournament")
    )
    client.force_login(staff)
    assert 'id="tournament-panel"' not in page(client, t)
    assert client.get(step_url(t, "start")).status_code == 403
    assert client.post(step_url(t, "start")).status_code == 403
    t.refresh_from_db()
    assert t.status == "registration"


def test_a_member_has_no_admin(client, league):
    t = cup(league, 2, start=False)
    member = UserFactory(username="member")
    join(league, member)
    client.force_login(member)
    for url in (reverse("admin:leagues_tournament_change", args=[t.pk]), step_url(t, "start")):
        response = client.post(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    t.refresh_from_db()
    assert t.status == "registration"


def test_an_unknown_step_is_not_found(client, superuser, league):
    t = cup(league, 2, start=False)
    client.force_login(superuser)
    assert client.get(step_url(t, "delete")).status_code == 404


# --- a moderator who is not staff creates a tournament and picks its entrants ----------------


def test_a_moderator_who_is_not_staff_creates_a_tournament_with_entrants(client, organiser, league):
    south = make_league("south")
    entrants = players(league, 2)
    outsider = UserFactory(username="outsider")  # a member of another league only
    join(south, outsider)
    client.force_login(organiser)
    add = client.get(reverse("admin:leagues_tournament_add"))
    assert add.status_code == 200
    leagues = set(add.context["adminform"].form.fields["league"].queryset)
    assert leagues == {league}

    def autocomplete(term: str):
        return client.get(
            reverse("admin:autocomplete"),
            {"term": term, "app_label": "leagues", "model_name": "entry", "field_name": "user"},
        )

    found = autocomplete("e")
    assert found.status_code == 200
    assert {row["text"] for row in found.json()["results"]} >= {"e1", "e2"}
    assert autocomplete("outsider").json()["results"] == []  # not a member of their league
    assert autocomplete("example.org").json()["results"] == []  # no search by e-mail
    # the rest of the accounts stays closed to them
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 403
    for model, field in (("membership", "user"), ("tournamentmatch", "winner")):
        refused = client.get(
            reverse("admin:autocomplete"),
            {"term": "e", "app_label": "leagues", "model_name": model, "field_name": field},
        )
        assert refused.status_code == 403

    form = {
        "league": league.pk,
        "name": "Spring",
        "slug": "spring",
        "format": "swiss",
        "rounds": 2,
        "ranked": "on",
        "match_target": "",
        "entries-TOTAL_FORMS": 3,
        "entries-INITIAL_FORMS": 0,
        "entries-0-user": entrants[0].pk,
        "entries-0-status": "registered",
        "entries-1-user": entrants[1].pk,
        "entries-1-status": "registered",
        "entries-2-user": outsider.pk,
        "entries-2-status": "registered",
        "round_set-TOTAL_FORMS": 0,
        "round_set-INITIAL_FORMS": 0,
    }
    response = client.post(reverse("admin:leagues_tournament_add"), form)
    assert response.status_code == 200  # refused: the outsider may not play in the league
    assert "not a member" in response.content.decode().lower()
    assert not Tournament.objects.filter(slug="spring").exists()
    form["entries-TOTAL_FORMS"] = 2
    response = client.post(reverse("admin:leagues_tournament_add"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get(slug="spring")
    assert t.created_by == organiser and t.entries.count() == 2

    # a league of someone else's is refused on a crafted POST
    form.update({"league": south.pk, "slug": "autumn", "entries-TOTAL_FORMS": 0})
    assert client.post(reverse("admin:leagues_tournament_add"), form).status_code == 200
    assert not Tournament.objects.filter(slug="autumn").exists()

    # they run every step of it
    client.post(step_url(t, "open"))
    client.post(step_url(t, "start"))
    t.refresh_from_db()
    assert t.status == "running"
    # once it has started, its entrants and its league are no longer edited here
    html = page(client, t)
    assert 'name="entries-0-user"' not in html and 'name="league"' not in html


def form_fields(html: str) -> dict[str, Any]:
    """The values a browser would post from the admin's change form."""
    from html.parser import HTMLParser

    class Form(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.data: dict[str, Any] = {}
            self.inside = False
            self.select: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            if tag == "form" and a.get("id") == "tournament_form":
                self.inside = True
            if not self.inside or not a.get("name"):
                if tag == "option" and self.select and "selected" in a:
                    self.data[self.select] = a.get("value")
                return
            name = str(a["name"])
            if tag == "input" and a.get("type") == "checkbox":
                if "checked" in a:
                    self.data[name] = "on"
            elif tag == "input" and a.get("type") not in ("submit", "button"):
                self.data[name] = a.get("value") or ""
            elif tag == "select":
                self.select = name
                self.data.setdefault(name, "")

        def handle_endtag(self, tag: str) -> None:
            if tag == "form":
                self.inside = False
            if tag == "select":
                self.select = None

    parser = Form()
    parser.feed(html)
    return parser.data


def test_the_organiser_saves_a_running_tournaments_form(client, organiser, league):
    t = cup(league, 4)
    client.force_login(organiser)
    data = form_fields(page(client, t))
    data["name"] = "Spring Cup"
    data["rounds"] = "2"  # fixed once started: not a field any more, ignored
    response = client.post(reverse("admin:leagues_tournament_change", args=[t.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    t.refresh_from_db()
    assert t.name == "Spring Cup" and t.rounds == 3 and t.entries.count() == 4


@pytest.mark.parametrize("target", ["0", "501"])
def test_the_match_target_out_of_range_is_refused_in_the_engines_words(
    client, organiser, league, target
):
    from django.utils import translation

    from games.forms import knob_error_messages

    client.force_login(organiser)
    form = {
        "league": league.pk,
        "name": "Spring",
        "slug": "spring",
        "format": "swiss",
        "rounds": 2,
        "match_target": target,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "round_set-TOTAL_FORMS": 0,
        "round_set-INITIAL_FORMS": 0,
    }
    answer = client.post(reverse("admin:leagues_tournament_add"), form, HTTP_ACCEPT_LANGUAGE="vi")
    assert answer.status_code == 200  # the form again, nothing saved
    assert not Tournament.objects.filter(slug="spring").exists()
    which = "min_value" if target == "0" else "max_value"
    with translation.override("vi"):
        expected = str(knob_error_messages("match_target")[which])
    with translation.override("en"):
        assert expected != str(knob_error_messages("match_target")[which])  # not the English
    assert answer.context["adminform"].form.errors["match_target"] == [expected]


def test_finish_is_refused_before_round_one_has_closed(client, organiser, league):
    t = cup(league, 4)
    client.force_login(organiser)
    text = page(client, t)
    assert 'id="step-finish"' not in text
    assert "No round has been played yet" in text
    response = client.post(step_url(t, "finish"), follow=True)
    assert "Refused: Finish the tournament. No round has been played yet" in said(response)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_only_a_swiss_chooses_its_rounds_and_too_many_are_warned_of(client, organiser, league):
    client.force_login(organiser)
    form = {
        "league": league.pk,
        "name": "Ladder",
        "slug": "ladder",
        "format": "round_robin",
        "rounds": 4,
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
    }
    answer = client.post(reverse("admin:leagues_tournament_add"), form)
    assert answer.context["adminform"].form.errors["rounds"] == [
        "Only a Swiss tournament chooses its rounds: leave this empty."
    ]
    t = cup(league, 3, start=False, rounds=3)
    confirm = client.get(step_url(t, "start")).content.decode()
    assert "3 rounds for 3 players is more than a Swiss can pair without rematches" in confirm


def test_a_started_tournament_shows_its_entrants_and_pairings_by_name_without_dead_links(
    client, organiser, league
):
    t = cup(league, 4)
    client.force_login(organiser)
    text = page(client, t)
    assert "E1" in text and "/admin/accounts/user/" not in text
    assert 'name="rounds"' not in text  # fixed once started
    pairing = boards(t)[0]
    text = client.get(
        reverse("admin:leagues_tournamentmatch_change", args=[pairing.pk])
    ).content.decode()
    assert pairing.first.public_name in text
    assert "/admin/accounts/user/" not in text and "/admin/games/match/" not in text


def test_the_last_rounds_result_says_the_tournament_ends(client, organiser, league):
    t = cup(league, 2, rounds=1)
    client.force_login(organiser)
    confirm = client.get(result_url(t, boards(t)[0])).content.decode()
    assert "the round closes: the tournament ends" in confirm
    assert "neither has moved" in confirm
