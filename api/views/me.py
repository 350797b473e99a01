"""/me/: who you are, your leagues and ratings, your games in progress, your challenges."""

from __future__ import annotations

from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.me import MeSerializer
from api.views.common import error_responses
from games import selectors
from leagues.selectors import user_league_ratings
from lobby.selectors import challenge_data, challenges_pending


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Who you are",
        description="Your names, your leagues with ratings, your games in progress and your "
        "pending challenges.",
        responses={200: MeSerializer, **error_responses(401, 429)},
        tags=["me"],
    )
    def get(self, request: Request) -> Response:
        user = request.user
        games = []
        for match in selectors.matches_in_progress(user=user):
            game = match.current_game
            games.append(
                {
                    "match": match.pk,
                    "game": game.pk if game else None,
                    "url": reverse("games:table", args=[game.pk]) if game else None,
                    "api_url": reverse("api:game", args=[game.pk]) if game else None,
                }
            )
        body = {
            "username": user.username,
            "display_name": user.display_name,
            "is_bot": user.is_bot,
            "leagues": [
                {
                    "slug": card.league.slug,
                    "name": card.league.name,
                    "rating": card.rating,
                    "deviation": card.deviation,
                    "provisional": card.provisional,
                }
                for card in user_league_ratings(user=user)
            ],
            "games_in_progress": games,
            "challenges": [
                challenge_data(c, viewer_id=user.pk) for c in challenges_pending(user=user)
            ],
        }
        return Response(MeSerializer(body).data)


urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
]
