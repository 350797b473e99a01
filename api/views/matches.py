"""Matches and challenges: list and read matches, start one against a server bot, resign; your
pending challenges, send one, accept, decline or cancel one.

Each write is one existing service, the same the site's pages call: ``games.services``
(``match_create``, ``game_resign``), ``leagues.services.ranked_match_create`` and
``lobby.services`` (``challenge_create``, ``_accept``, ``_decline``, ``_cancel``).
"""

from __future__ import annotations

from typing import Any

from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from api.parsers import JSONParser
from api.serializers.matches import (
    ChallengeAcceptedSerializer,
    ChallengeCreateSerializer,
    ChallengeSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchListQuerySerializer,
    MatchSerializer,
    ResignSerializer,
)
from api.views.common import Pagination, error_responses
from core.errors import UNAUTHENTICATED, GameError
from games import services
from games.models import Game, Match
from games.selectors.matches import match_public_get, matches_public
from leagues.services import league_get, ranked_match_create
from lobby import services as lobby
from lobby.selectors import challenge_data, challenges_pending, table_url


def _detail(match_id: int, request: Request) -> dict[str, Any]:
    match = match_public_get(match_id=match_id)
    return MatchDetailSerializer(match, context={"request": request}).data


def _challenge_body(challenge: Any, request: Request) -> dict[str, Any]:
    return ChallengeSerializer(challenge_data(challenge, viewer_id=request.user.pk)).data


# --- matches ----------------------------------------------------------------------------------


class MatchListView(generics.ListAPIView):
    serializer_class = MatchSerializer
    pagination_class = Pagination
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [JSONParser]

    def get_queryset(self) -> Any:
        query = MatchListQuerySerializer(data=self.request.query_params.dict())
        query.is_valid(raise_exception=True)
        given = query.validated_data
        seated = None
        if given["mine"]:
            if not self.request.user.is_authenticated:
                raise GameError(UNAUTHENTICATED, _("Log in or send an API token to list yours."))
            seated = self.request.user
        return matches_public(
            player=given.get("player", ""),
            league=given.get("league", ""),
            status=given.get("status", ""),
            ranked=given["ranked"],
            seated=seated,
        )

    @extend_schema(
        summary="Matches",
        description="Every match, newest first, paginated; anyone may list them (matches are "
        "public, as the history pages are). Filters combine: ``player`` (either seat), "
        "``league``, ``status``, ``ranked``, ``mine=true`` (401 when anonymous).",
        parameters=[MatchListQuerySerializer],
        responses={200: MatchSerializer(many=True), **error_responses(400, 401, 429)},
        tags=["matches"],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Start a match against a server bot",
        description='``{"bot", "rules"}``: a casual match under those knobs (house rules where '
        'left out). ``{"bot", "league"}``: a ranked match of that league under its knobs, '
        "where the league lets bots play ranked (403 forbidden otherwise, saying why; 404 for "
        "an unknown league). You are seat 0, player one. 201 with the match; its first game "
        "is ``games[0]``. 409 too_many when you already have "
        "``GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT`` matches against bots in progress.",
        request=MatchCreateSerializer,
        responses={201: MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
        tags=["matches"],
    )
    def post(self, request: Request) -> Response:
        given = MatchCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        bot = given.validated_data["bot"]
        if "league" in given.validated_data:
            league = league_get(slug=given.validated_data["league"])
            match = ranked_match_create(league=league, user0=request.user, bot=bot)
        else:
            rules = given.validated_data.get("rules") or engine.Rules()
            match = services.match_create(user=request.user, bot=bot, rules=rules)
        return Response(_detail(match.pk, request), status=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A match",
        description="Seats, scores, rules, every game (outcome, first player, moves, where to "
        "watch or play it), the rematch once finished, and ``you``: your seat or null.",
        responses={200: MatchDetailSerializer, **error_responses(404, 429)},
        tags=["matches"],
    )
    def get(self, request: Request, match_id: int) -> Response:
        return Response(_detail(match_id, request))


class MatchResignView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Resign",
        description='Resign the current game (``"scope": "game"``: the opponent scores the '
        'cards left in your pay-off pile, the match goes on) or the whole match (``"match"``, '
        "the default). 200 with the match. 403 for anyone but its players; 409 game_over once "
        "the match is over (or the game ended meanwhile: read the match and try again).",
        request=ResignSerializer,
        responses={200: MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
        tags=["matches"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        given = ResignSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        match = match_public_get(match_id=match_id)
        services.game_resign(
            game_id=match.current_game_id,
            user=request.user,
            scope=given.validated_data["scope"],
        )
        return Response(_detail(match_id, request))


# --- challenges -------------------------------------------------------------------------------


class ChallengeListView(generics.ListAPIView):
    serializer_class = ChallengeSerializer
    pagination_class = Pagination
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser]

    def get_queryset(self) -> Any:
        return challenges_pending(user=self.request.user)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        shown = [challenge_data(c, viewer_id=request.user.pk) for c in page or []]
        return self.get_paginated_response(ChallengeSerializer(shown, many=True).data)

    @extend_schema(
        summary="Your pending challenges",
        description="The challenges you sent or received that still wait for an answer, newest "
        "first (never an expired one, nor one between players who blocked each other), as the "
        "per-user socket carries them (docs/protocol.md).",
        responses={200: ChallengeSerializer(many=True), **error_responses(400, 401, 429)},
        tags=["challenges"],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Challenge a player",
        description='``{"opponent", "rules"}``: a casual match under those knobs (house rules '
        'where left out). ``{"opponent", "league"}``: a ranked match of that league under its '
        "knobs (both must be active members). The player is told at once on their socket; "
        "the challenge expires unanswered after LOBBY_CHALLENGE_TTL. Refusals: 404 not_found "
        "(no such player or league), 403 forbidden (yourself, an account that cannot play, "
        "or a ranked match you may not play) or blocked (you blocked them), 409 duplicate "
        "or too_many.",
        request=ChallengeCreateSerializer,
        responses={201: ChallengeSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
        tags=["challenges"],
    )
    def post(self, request: Request) -> Response:
        given = ChallengeCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        opponent = given.validated_data["opponent"]
        if "league" in given.validated_data:
            league = league_get(slug=given.validated_data["league"])
            challenge = lobby.challenge_create(
                challenger=request.user, challenged_username=opponent, league=league
            )
        else:
            challenge = lobby.challenge_create(
                challenger=request.user,
                challenged_username=opponent,
                rules=given.validated_data.get("rules") or engine.Rules(),
            )
        return Response(_challenge_body(challenge, request), status=status.HTTP_201_CREATED)


class ChallengeAcceptView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Accept a challenge",
        description="The challenged player accepts: the match starts (the challenger is "
        "player one). Accepting again answers the same. 403 for the challenger; 404 when it "
        "is not yours; 409 expired or closed (declined, cancelled, or no longer possible).",
        request=None,
        responses={200: ChallengeAcceptedSerializer, **error_responses(401, 403, 404, 409, 429)},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        match: Match = lobby.challenge_accept(challenge_id=challenge_id, user=request.user)
        game = Game.objects.filter(match_id=match.pk).order_by("number").only("pk").first()
        assert game is not None  # a match is created with its first game
        body = {
            "challenge": challenge_id,
            "match": match.pk,
            "game": game.pk,
            "url": table_url(game.pk),
            "api_url": reverse("api:game", args=[game.pk]),
        }
        return Response(ChallengeAcceptedSerializer(body).data)


class ChallengeDeclineView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Decline a challenge",
        description="The challenged player says no; the challenger is told. Declining again "
        "changes nothing. 403 for the challenger; 404 when it is not yours; 409 expired or "
        "closed.",
        request=None,
        responses={200: ChallengeSerializer, **error_responses(401, 403, 404, 409, 429)},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = lobby.challenge_decline(challenge_id=challenge_id, user=request.user)
        return Response(_challenge_body(challenge, request))


class ChallengeCancelView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Cancel a challenge",
        description="The challenger takes it back; the other player's notice goes away. "
        "Cancelling again, or after it expired, changes nothing. 403 for the challenged "
        "player (decline instead); 404 when it is not yours; 409 closed once answered.",
        request=None,
        responses={200: ChallengeSerializer, **error_responses(401, 403, 404, 409, 429)},
        tags=["challenges"],
    )
    def post(self, request: Request, challenge_id: int) -> Response:
        challenge = lobby.challenge_cancel(challenge_id=challenge_id, user=request.user)
        return Response(_challenge_body(challenge, request))


urlpatterns = [
    path("matches/", MatchListView.as_view(), name="matches"),
    path("matches/<int:match_id>/", MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/resign/", MatchResignView.as_view(), name="match_resign"),
    path("challenges/", ChallengeListView.as_view(), name="challenges"),
    path(
        "challenges/<int:challenge_id>/accept/",
        ChallengeAcceptView.as_view(),
        name="challenge_accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        ChallengeDeclineView.as_view(),
        name="challenge_decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel/",
        ChallengeCancelView.as_view(),
        name="challenge_cancel",
    ),
]
