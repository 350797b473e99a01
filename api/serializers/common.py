"""Shapes every area of the API shares."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.selectors import user_person
from games.models import SEATS, BotLevel


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable code from docs/api.md, for programs.")
    message = serializers.CharField(help_text="A readable message, for people.")
    params = serializers.DictField(
        help_text="Details: field errors, the current version, retry_after, engine_code…"
    )


class PersonSerializer(serializers.Serializer):
    """A player as others see them: the lobby's ``{username, name}`` and whether the account
    is a bot account (played by a program)."""

    username = serializers.CharField()
    name = serializers.CharField(help_text='The public name ("deleted player" once deleted).')
    is_bot = serializers.BooleanField(help_text="A bot account: played by a program.")


@extend_schema_field(PersonSerializer)
class PersonField(serializers.Field):
    """A user as ``PersonSerializer`` shows them (read only)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> dict[str, Any]:
        return user_person(value)


@extend_schema_field(PersonSerializer(allow_null=True))
class OptionalPersonField(PersonField):
    def to_representation(self, value: Any) -> dict[str, Any] | None:
        return None if value is None else user_person(value)


class MatchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 is player one.")
    name = serializers.CharField(help_text='What players read: a public name or "Greedy bot".')
    player = PersonSerializer(allow_null=True, help_text="The person here; null for a bot.")
    bot = serializers.ChoiceField(
        choices=BotLevel.choices, allow_null=True, help_text="The server bot here; else null."
    )


def match_seats(match: Any) -> list[dict[str, Any]]:
    """A match's seats in ``MatchSeatSerializer``'s shape: a person, or the engine's bot."""
    seats = []
    for seat in SEATS:
        level = match.bot_level(seat)
        user = match.user_at(seat)
        seats.append(
            {
                "seat": seat,
                "name": match.seat_name(seat),
                "player": user_person(user) if user is not None and not level else None,
                "bot": level or None,
            }
        )
    return seats
