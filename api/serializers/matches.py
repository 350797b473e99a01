"""Matches and challenges: what the API shows of them, and what it accepts to start one.

The knobs a program may send are exactly the site's: ``RulesSerializer``'s fields are built from
the site's knob fields (``games.forms.KnobsForm``, the lobbies' and the admin's), and the lobby's
``RulesForm`` validates them, so the API and the site accept the same rules and refuse them in
the same words (``games.refusals.rules_refusal_message``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

import engine
from api.serializers.common import MatchSeatSerializer, PersonSerializer, match_seats
from games.forms import KnobsForm, MatchCreateForm, knob_error_messages
from games.models import BotLevel, Game, Match
from games.refusals import rules_refusal_message
from games.services import RESIGN_SCOPES
from lobby.forms import RulesForm
from lobby.models import Challenge

_HOUSE = engine.Rules()
HOUSE_KNOBS: dict[str, Any] = {name: getattr(_HOUSE, name) for name in KnobsForm.KNOBS}


def _form_errors(form: forms.Form) -> dict[str, list[str]]:
    return {
        "non_field_errors" if name == "__all__" else name: [str(m) for m in messages]
        for name, messages in form.errors.items()
    }


# --- rules ------------------------------------------------------------------------------------


def _knob_field(name: str) -> serializers.Field:
    field = RulesForm.base_fields[name]
    words = [
        f"{field.label}.",
        str(field.help_text),
        f"House rules: {json.dumps(HOUSE_KNOBS[name])}.",
    ]
    text = " ".join(w for w in words if w)
    if isinstance(field, forms.BooleanField):
        return serializers.BooleanField(required=False, help_text=text)
    return serializers.IntegerField(
        required=False,
        min_value=getattr(field, "min_value", None),
        max_value=getattr(field, "max_value", None),
        help_text=text,
        # DRF formats these with str.format: the site's words have no braces to fill.
        error_messages=knob_error_messages(name),
    )


def _not_a_knob(name: str) -> str:
    return str(
        rules_refusal_message(
            engine.RulesError(
                "unknown", f"unknown rule {name!r}", knob=name, knobs=tuple(HOUSE_KNOBS)
            )
        )
    )


class _RulesBase(serializers.Serializer):
    """The knobs of a casual match; any knob left out is the house rule. Validated into an
    ``engine.Rules``."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(k) for k in data if k not in HOUSE_KNOBS)
            if unknown:
                raise serializers.ValidationError({k: [_not_a_knob(k)] for k in unknown})
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> engine.Rules:  # type: ignore[override]
        form = RulesForm(data={**HOUSE_KNOBS, **attrs})
        if not form.is_valid():
            raise serializers.ValidationError(_form_errors(form))
        rules: engine.Rules = form.cleaned_data["rules"]
        return rules


RulesSerializer = type(
    "RulesSerializer",
    (_RulesBase,),
    {
        "__module__": __name__,
        "__doc__": _RulesBase.__doc__,
        **{name: _knob_field(name) for name in KnobsForm.KNOBS},
    },
)


def _bot_errors(level: str) -> list[str]:
    """The bot lobby's refusal of ``level`` (a level the engine does not offer yet)."""
    form = MatchCreateForm(data={"bot": level, **HOUSE_KNOBS})
    form.is_valid()
    return [str(m) for m in form.errors.get("bot", [])]


RULES_OR_LEAGUE = _("Send rules for a casual match or a league for a ranked one, not both.")


# --- what the API accepts ---------------------------------------------------------------------


class MatchCreateSerializer(serializers.Serializer):
    bot = serializers.ChoiceField(choices=BotLevel.choices, help_text="The server bot to play.")
    rules = RulesSerializer(
        required=False, help_text="A casual match's knobs (house rules where left out)."
    )
    league = serializers.SlugField(
        required=False,
        max_length=80,
        help_text="A ranked match of this league, under its knobs (where it lets bots play "
        "ranked).",
    )

    def validate_bot(self, value: str) -> str:
        errors = _bot_errors(value)
        if errors:
            raise serializers.ValidationError(errors)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "rules" in attrs and "league" in attrs:
            raise serializers.ValidationError({"league": [RULES_OR_LEAGUE]})
        return attrs


class ChallengeCreateSerializer(serializers.Serializer):
    opponent = serializers.CharField(max_length=150, help_text="The username to challenge.")
    rules = RulesSerializer(
        required=False, help_text="A casual match's knobs (house rules where left out)."
    )
    league = serializers.SlugField(
        required=False,
        max_length=80,
        help_text="A ranked challenge in this league, under its knobs (both must be members).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "rules" in attrs and "league" in attrs:
            raise serializers.ValidationError({"league": [RULES_OR_LEAGUE]})
        return attrs


class ResignSerializer(serializers.Serializer):
    scope = serializers.ChoiceField(
        choices=RESIGN_SCOPES,
        default="match",
        help_text='"game": the opponent scores the cards left in your pay-off pile and the '
        'match goes on; "match" (the default): the opponent wins the match.',
    )


class MatchListQuerySerializer(serializers.Serializer):
    player = serializers.CharField(
        required=False, max_length=150, help_text="Only matches of this username (either seat)."
    )
    league = serializers.SlugField(
        required=False, max_length=80, help_text="Only matches of this league (by slug)."
    )
    status = serializers.ChoiceField(
        choices=Match.Status.choices, required=False, help_text="Only matches in this status."
    )
    ranked = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Only ranked, or only casual."
    )
    mine = serializers.BooleanField(
        required=False, default=False, help_text="Only your own matches (needs authentication)."
    )


# --- what the API shows -----------------------------------------------------------------------


class MatchLeagueSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class MatchGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="1 for the match's first game.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    outcome = serializers.SerializerMethodField(
        help_text="{winner (a seat, null for a tie or an abort), points, reason} once over."
    )
    first_player = serializers.IntegerField(help_text="The seat that played first.")
    moves = serializers.IntegerField(
        source="log_rows",
        help_text="Rows of the game's move log (moves and take-backs), as its moves/ counts.",
    )
    url = serializers.SerializerMethodField(help_text="The game's table on the site.")
    api_url = serializers.SerializerMethodField(help_text="The game for you (api:game).")

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_outcome(self, game: Game) -> dict[str, Any] | None:
        return game.outcome_dict()

    def get_url(self, game: Game) -> str:
        return reverse("games:table", args=[game.pk])

    def get_api_url(self, game: Game) -> str:
        return reverse("api:game", args=[game.pk])


class MatchRematchSerializer(serializers.Serializer):
    offered_by = serializers.IntegerField(
        allow_null=True, help_text="The seat that offered a rematch; null if none waits."
    )
    match = serializers.IntegerField(allow_null=True, help_text="The rematch, once made.")
    game = serializers.IntegerField(allow_null=True, help_text="The rematch's first game.")


class MatchSerializer(serializers.Serializer):
    """A match from ``games.selectors.matches.matches_public``."""

    id = serializers.IntegerField()
    seats = serializers.SerializerMethodField()
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="By seat.")
    target = serializers.IntegerField(help_text="Points that win the match.")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    ranked = serializers.BooleanField()
    league = MatchLeagueSerializer(allow_null=True)
    winner = serializers.IntegerField(allow_null=True, help_text="The winning seat, once over.")
    reason = serializers.SerializerMethodField(
        help_text="target_reached, resigned or aborted once over; else null."
    )
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    current_game = serializers.IntegerField(
        source="current_game_id",
        allow_null=True,
        help_text="The game in play (after the match, the last one played).",
    )
    url = serializers.SerializerMethodField(help_text="The match on the site (its table).")
    api_url = serializers.SerializerMethodField(help_text="This match's detail.")

    @extend_schema_field(MatchSeatSerializer(many=True))
    def get_seats(self, match: Match) -> list[dict[str, Any]]:
        return match_seats(match)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_reason(self, match: Match) -> str | None:
        return match.end_reason or None

    def get_url(self, match: Match) -> str:
        return reverse("games:match", args=[match.pk])

    def get_api_url(self, match: Match) -> str:
        return reverse("api:match", args=[match.pk])


class MatchDetailSerializer(MatchSerializer):
    """A match from ``games.selectors.matches.match_public_get``, seen by the requester."""

    rules = serializers.DictField(help_text="Every knob of its games (engine Rules.to_dict()).")
    games = MatchGameSerializer(many=True, source="games.all", help_text="In order.")
    rematch = MatchRematchSerializer(
        source="rematch_info", allow_null=True, help_text="After a finished match; else null."
    )
    you = serializers.SerializerMethodField(help_text="Your seat; null if you do not play.")

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_you(self, match: Match) -> int | None:
        request = self.context.get("request")
        return match.seat_of(request.user) if request is not None else None


class ChallengeLeagueSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class ChallengeSerializer(serializers.Serializer):
    """A challenge as ``lobby.selectors.challenge_data`` gives it: the per-user socket's
    challenge object (docs/protocol.md), seen by one of its two players."""

    id = serializers.IntegerField()
    state = serializers.ChoiceField(
        choices=["sent", "received", *(s for s in Challenge.Status.values if s != "pending")],
        help_text="sent or received while it waits, then accepted, declined, cancelled or expired.",
    )
    rules = serializers.DictField(help_text="Every knob (engine Rules.to_dict()).")
    summary = serializers.CharField(help_text="The rules in one line players read.")
    ranked = serializers.BooleanField()
    league = ChallengeLeagueSerializer(allow_null=True, help_text="A ranked challenge's league.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    game = serializers.IntegerField(allow_null=True, help_text="The first game, once accepted.")
    url = serializers.CharField(allow_null=True, help_text="That game's table, once accepted.")

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        ordered = {"id": fields.pop("id"), "state": fields.pop("state")}
        ordered["from"] = PersonSerializer(help_text="The challenger.")
        ordered["to"] = PersonSerializer(help_text="The challenged player.")
        return {**ordered, **fields}


class ChallengeAcceptedSerializer(serializers.Serializer):
    """The per-user socket's ``challenge_accepted`` frame, and the game's API address."""

    challenge = serializers.IntegerField(help_text="The challenge's id.")
    match = serializers.IntegerField(help_text="The new match.")
    game = serializers.IntegerField(help_text="Its first game.")
    url = serializers.CharField(help_text="That game's table on the site.")
    api_url = serializers.CharField(help_text="That game for you (api:game).")
