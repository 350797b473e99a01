"""`manage.py tournament_autoplay`: the demo's four-player Swiss in Club 104, played to
the end by the bots; its standings, the league's ratings and its season afterwards."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from leagues.demo import SEASON_RESULTS
from leagues.models import (
    League,
    Membership,
    RatingChange,
    Season,
    Tournament,
    TournamentMatch,
)
from leagues.seasons import season_table
from leagues.tournaments import Entrant, swiss_standings
from leagues.tournaments import selectors as tsel
from leagues.tournaments import services as ts

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_the_demo_swiss_of_four_runs_to_the_end_with_the_command():
    call_command("load_demo", "--allow-production", stdout=io.StringIO())
    club = League.objects.get(slug="club")
    members = Membership.objects.filter(
        league=club, status="active", user__is_bot=False
    ).select_related("user")  # the four people; the bot account robo stays out
    assert sorted(m.user.username for m in members) == ["alice", "bruno", "carmen", "dai"]
    t = ts.tournament_create(league=club, name="Club Swiss", slug="swiss", format="swiss", rounds=3)
    ts.tournament_open_registration(tournament=t)
    for m in members:
        ts.tournament_register(tournament=t, user=m.user)
    ts.tournament_start(tournament=t)

    out = io.StringIO()
    call_command("tournament_autoplay", "swiss", "--league", "club", "--rounds", "1", stdout=out)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 2
    assert "round 1: 2 match(es) to play" in out.getvalue()
    assert "round 1 closed" in out.getvalue()

    out = io.StringIO()
    call_command("tournament_autoplay", "swiss", stdout=out)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert "Club Swiss is finished" in out.getvalue()
    pairings = TournamentMatch.objects.filter(round__tournament=t)
    assert pairings.count() == 6 and all(p.source == "played" for p in pairings)
    assert len({frozenset((p.first_id, p.second_id)) for p in pairings}) == 6  # no rematch
    entrants = [Entrant(e.user_id, e.seed_rating) for e in t.entries.all()]
    expected = swiss_standings(entrants, [ts.result_of(p) for p in pairings])
    assert [r.user.pk for r in tsel.tournament_standings(t)] == [s.id for s in expected]
    assert RatingChange.objects.filter(match__tournament_pairing__round__tournament=t).count() == 12
    # beside the demo season's results, the Swiss counts toward the Club's open season
    demo = 2 * len(SEASON_RESULTS)
    assert sum(m.matches for m in Membership.objects.filter(league=club)) == 12 + demo
    assert sum(line.matches for line in season_table(Season.objects.get(league=club))) == 12 + demo

    with pytest.raises(CommandError, match="not running"):
        call_command("tournament_autoplay", "swiss", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No single tournament"):
        call_command("tournament_autoplay", "nope", stdout=io.StringIO())
