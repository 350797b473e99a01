"""Leagues: the list and a league, standings, members, your membership; the query parameters."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import MatchSeatSerializer, PersonField, match_seats
from leagues import selectors
from leagues.models import League, Membership


def match_api_url(match_id: int) -> str:
    """The match in the API (``api:match``)."""
    return reverse("api:match", args=[match_id])


def choice_text(choices: Any, help_text: str = "", **kwargs: Any) -> serializers.CharField:
    """An output field holding one of ``choices``: a string whose values the help lists (not an
    enum component, whose names would collide between the areas' many ``status`` fields)."""
    values = ", ".join(str(value) or '""' for value, _label in choices)
    return serializers.CharField(help_text=f"{help_text} One of: {values}.".lstrip(), **kwargs)


# --- query parameters -------------------------------------------------------------------------


class LeagueListQuery(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=League.Status.choices, required=False, help_text="Only leagues of this status."
    )
    member = serializers.ChoiceField(
        choices=[("me", "me")],
        required=False,
        help_text="``me``: only the leagues you are an active member of (needs authentication).",
    )


class StandingsQuery(serializers.Serializer):
    sort = serializers.ChoiceField(
        choices=selectors.SORTS,
        default="rating",
        help_text="rating (default), matches, wins or points (points scored); ties by rating, "
        "then username.",
    )


class MembersQuery(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=Membership.Status.choices,
        default=Membership.Status.ACTIVE,
        help_text="active (default, anyone); pending, left, banned: the league's moderators only.",
    )


# --- leagues ----------------------------------------------------------------------------------


class LeagueSerializer(serializers.Serializer):
    """A league as the list shows it. Needs ``leagues_visible``'s ``members`` annotation."""

    slug = serializers.SlugField()
    name = serializers.CharField()
    description = serializers.CharField()
    status = choice_text(League.Status.choices)
    admission = choice_text(
        League.Admission.choices,
        help_text="open: joining makes you a member; approval: a moderator accepts each request.",
    )
    bots_ranked = serializers.BooleanField(help_text="Members may play ranked matches v bots.")
    turn_time_limit = serializers.IntegerField(help_text="Seconds a ranked turn may take.")
    members = serializers.IntegerField(help_text="How many active members.")
    rules = serializers.DictField(help_text="The engine's knobs for its ranked matches.")
    rules_summary = serializers.SerializerMethodField(
        help_text="The knobs and ranked-play settings as lines a player reads."
    )
    url = serializers.SerializerMethodField(help_text="The league's page on the site.")
    api_url = serializers.SerializerMethodField()

    def get_rules_summary(self, league: League) -> list[str]:
        return selectors.league_rules_lines(league)

    def get_url(self, league: League) -> str:
        return reverse("leagues:detail", args=[league.slug])

    def get_api_url(self, league: League) -> str:
        return reverse("api:league", args=[league.slug])


class MembershipSerializer(serializers.Serializer):
    """A membership with its rating as it stands now (a ``MemberRow``)."""

    player = PersonField(source="membership.user")
    status = choice_text(Membership.Status.choices, source="membership.status")
    role = choice_text(Membership.Role.choices, source="membership.role")
    rating = serializers.IntegerField(help_text="Glicko-2, rounded.")
    deviation = serializers.IntegerField(
        help_text="Grown by each whole rating period without a match."
    )
    provisional = serializers.BooleanField(
        help_text="Deviation above 110, or fewer different opponents than a rating needs to be "
        'established: shown with a "?".'
    )
    established = serializers.BooleanField(
        source="membership.established",
        help_text="Has met enough different opponents in rated matches (docs/leagues.md).",
    )
    matches = serializers.IntegerField(source="membership.matches")
    wins = serializers.IntegerField(source="membership.wins")
    losses = serializers.IntegerField(source="membership.losses")
    points_for = serializers.IntegerField(source="membership.points_for")
    points_against = serializers.IntegerField(source="membership.points_against")
    joined_at = serializers.DateTimeField(source="membership.joined_at")


class MatchRowSerializer(serializers.Serializer):
    """A ranked match of the league (a ``MatchRow``)."""

    id = serializers.IntegerField(source="match.pk")
    players = serializers.SerializerMethodField(
        help_text="Seat 0, then seat 1, as the matches API shows seats."
    )
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Seat 0, seat 1.")
    status = serializers.CharField(source="match.status", help_text="active or finished.")
    winner = serializers.IntegerField(allow_null=True, help_text="The winning seat, if any.")
    date = serializers.DateTimeField(help_text="When it finished (or started, while live).")
    game = serializers.IntegerField(
        source="game.pk", allow_null=True, help_text="The current game (live) or the last one."
    )
    api_url = serializers.SerializerMethodField()

    @extend_schema_field(MatchSeatSerializer(many=True))
    def get_players(self, row: selectors.MatchRow) -> list[dict[str, Any]]:
        return match_seats(row.match)

    def get_api_url(self, row: selectors.MatchRow) -> str:
        return match_api_url(row.match.pk)


class LeagueTournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.CharField()
    status = serializers.CharField()
    api_url = serializers.SerializerMethodField()

    def get_api_url(self, tournament: Any) -> str:
        return reverse("api:tournament", args=[tournament.pk])


class LeagueDetailSerializer(LeagueSerializer):
    you = MembershipSerializer(
        allow_null=True,
        help_text="Your membership (any status, left included); null if you never joined.",
    )
    live = MatchRowSerializer(many=True, help_text="Ranked matches in play, newest first.")
    recent = MatchRowSerializer(many=True, help_text="The latest finished ranked matches.")
    tournaments = LeagueTournamentSerializer(many=True, help_text="Drafts hidden, newest first.")


class StandingSerializer(serializers.Serializer):
    """A row of ``league_standings``."""

    rank = serializers.IntegerField()
    player = PersonField(source="membership.user")
    rating = serializers.IntegerField(help_text="Rounded, as it stands now.")
    deviation = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text='Uncertain (deviation above 110) or not yet established: shown with a "?".'
    )
    established = serializers.BooleanField(
        help_text="Has met enough different opponents in rated matches; by rating, the "
        "established come first."
    )
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    ties = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    moderator = serializers.BooleanField()
