"""Tournaments: the list and a tournament (entrants, rounds with pairings, standings), your
entry; the query parameters."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from api.serializers.common import OptionalPersonField, PersonField
from api.serializers.leagues import choice_text, match_api_url
from leagues.models import Entry, Round, Tournament, TournamentMatch
from leagues.tournaments import selectors

VISIBLE_STATUSES = [
    (value, label) for value, label in Tournament.Status.choices if value != "draft"
]


class TournamentListQuery(serializers.Serializer):
    league = serializers.SlugField(required=False, help_text="Only this league's tournaments.")
    status = serializers.ChoiceField(
        choices=VISIBLE_STATUSES,
        required=False,
        help_text="Only tournaments of this status (drafts are never listed).",
    )


class LeagueRefSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    api_url = serializers.SerializerMethodField()

    def get_api_url(self, league: Any) -> str:
        return reverse("api:league", args=[league.slug])


class TournamentSerializer(serializers.Serializer):
    """A tournament as the list shows it. Needs ``tournaments_visible``'s annotations."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.SlugField(help_text="Unique within its league.")
    league = LeagueRefSerializer()
    format = choice_text(Tournament.Format.choices)
    status = choice_text(Tournament.Status.choices)
    ranked = serializers.BooleanField(help_text="Its matches are rated in the league.")
    match_target = serializers.IntegerField(
        allow_null=True, help_text="Points that win a match; null: the league's."
    )
    entrants = serializers.IntegerField(help_text="Registered entrants (withdrawn ones left out).")
    rounds_planned = serializers.SerializerMethodField(
        help_text="How many rounds it plays with its entrants (0 below two)."
    )
    current_round = serializers.IntegerField(help_text="0 before it starts.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.SerializerMethodField(help_text="The tournament's page on the site.")
    api_url = serializers.SerializerMethodField()

    def get_rounds_planned(self, tournament: Tournament) -> int:
        return selectors.tournament_planned_rounds(tournament)

    def get_url(self, tournament: Tournament) -> str:
        return reverse("leagues:tournament", args=[tournament.league.slug, tournament.slug])

    def get_api_url(self, tournament: Tournament) -> str:
        return reverse("api:tournament", args=[tournament.pk])


class EntrySerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    player = PersonField(source="user")
    status = choice_text(Entry.Status.choices)
    seed_rating = serializers.SerializerMethodField(
        help_text="The league rating when it started (the seeding), rounded; null before."
    )
    joined_at = serializers.DateTimeField(allow_null=True)

    def get_seed_rating(self, entry: Entry) -> int | None:
        return None if entry.seed_rating is None else round(entry.seed_rating)


class PairingSerializer(serializers.Serializer):
    """A pairing of a round (a ``PairingView``)."""

    board = serializers.IntegerField()
    first = PersonField(help_text="Seat 0.")
    second = OptionalPersonField(help_text="Seat 1; null: a bye.")
    winner = OptionalPersonField(help_text="null: pending, a draw or a double forfeit.")
    result = serializers.CharField(
        help_text='"1-0", "0-1", "½-½", "0-0" (double forfeit), "bye"; "" pending.'
    )
    source = choice_text(TournamentMatch.Source.choices, 'How the result came; "" pending.')
    forfeit = serializers.BooleanField()
    match = serializers.IntegerField(source="match.pk", allow_null=True)
    scores = serializers.SerializerMethodField(help_text="The match's score, seat 0 then seat 1.")
    live = serializers.BooleanField(help_text="Its match is in play.")
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="The match's last game (watch or replay)."
    )
    api_url = serializers.SerializerMethodField(help_text="The match in the API; null: no match.")

    def get_scores(self, pairing: selectors.PairingView) -> list[int] | None:
        return None if pairing.match is None else [pairing.match.score0, pairing.match.score1]

    def get_api_url(self, pairing: selectors.PairingView) -> str | None:
        return None if pairing.match is None else match_api_url(pairing.match.pk)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = choice_text(Round.Status.choices)
    started_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    pairings = PairingSerializer(many=True, help_text="In board order.")


class TournamentStandingSerializer(serializers.Serializer):
    """A row of ``tournament_standings``."""

    rank = serializers.IntegerField()
    player = PersonField(source="user")
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()
    buchholz = serializers.FloatField(allow_null=True, help_text="Swiss.")
    sonneborn_berger = serializers.FloatField(allow_null=True, help_text="Swiss, round robin.")
    head_to_head = serializers.FloatField(allow_null=True, help_text="Round robin.")
    reached = serializers.CharField(help_text='Elimination: "champion", "final", …; "" else.')
    withdrawn = serializers.BooleanField()
    rating = serializers.IntegerField(allow_null=True, help_text="The league rating now.")


class TournamentDetailSerializer(TournamentSerializer):
    you = EntrySerializer(allow_null=True, help_text="Your entry; null if you are not entered.")
    entries = EntrySerializer(
        many=True, help_text="Every entry, withdrawn ones too: by seed rating, then who came first."
    )
    rounds = RoundSerializer(many=True, help_text="Round 1 first.")
    standings = TournamentStandingSerializer(
        many=True, help_text="Best first, once it has started; empty before."
    )
