"""Shapes every area of the API shares."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable code from docs/api.md, for programs.")
    message = serializers.CharField(help_text="A readable message, for people.")
    params = serializers.DictField(
        help_text="Details: field errors, the current version, retry_after, engine_code…"
    )
