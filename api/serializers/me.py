"""/me/: who you are."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers.matches import ChallengeSerializer


class MeLeagueSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    provisional = serializers.BooleanField()


class MeGameSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    api_url = serializers.CharField(allow_null=True)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    is_bot = serializers.BooleanField(
        help_text="Your account is a bot account (docs/bot_accounts.md)."
    )
    leagues = MeLeagueSerializer(many=True)
    games_in_progress = MeGameSerializer(many=True)
    challenges = ChallengeSerializer(
        many=True, help_text="Your pending challenges, as GET /api/v1/challenges/ lists them."
    )
