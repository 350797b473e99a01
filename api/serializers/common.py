"""Shapes every area of the API shares."""

from __future__ import annotations

from rest_framework import serializers


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
