"""Games: a game as the requester sees it, its move log, posting a move."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.games import (
    GameStateSerializer,
    HintInSerializer,
    HintSerializer,
    MoveInSerializer,
    MoveOutSerializer,
    MoveRowSerializer,
    ReplaySerializer,
)
from api.throttles import AnonThrottle, MovesThrottle, UserThrottle
from api.views.common import Pagination, error_responses, paginated
from core.errors import BAD_MESSAGE, FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError
from games import hints, reviews, selectors, services


class GameDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A game as you see it",
        description="The state frame of docs/protocol.md for the requester: a player sees "
        "their own hand, anyone else (anonymous too) the spectator's view.",
        responses={200: GameStateSerializer, **error_responses(404, 429)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        _seat, frame = selectors.game_connect(game_id=game_id, user=request.user)
        return Response(frame)


class MovesPagination(Pagination):
    default_limit = 100
    max_limit = 500


class GameMovesView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [AnonThrottle, UserThrottle, MovesThrottle]
    throttle_scope = "moves"
    pagination_class = MovesPagination  # the schema documents GET's envelope and ?limit=&offset=

    @extend_schema(
        summary="A game's move log",
        description="Every row of the game's log in ply order (moves and undo rows), paginated: "
        "100 a page by default, a larger ``limit`` is cut to 500; 400 for a ``limit`` or "
        "``offset`` that is not a page.",
        responses={200: MoveRowSerializer(many=True), **error_responses(400, 404, 429)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        return paginated(self, request, selectors.game_log(game), MoveRowSerializer)

    @extend_schema(
        summary="Play a move",
        description="Play ``move``, chosen at ``version``, in your own turn. 201 with your new "
        "view; a resend with the same ``id`` answers 200 with the same result and applies "
        "nothing. 409 for stale_version (params.version is the current one), not_your_turn "
        "and game_over; 400 for illegal_move (params.engine_code) and bad input (bad_message, "
        "params.field naming the field: the game socket's own check, docs/protocol.md).",
        request=MoveInSerializer,
        responses={
            201: MoveOutSerializer,
            200: MoveOutSerializer,
            **error_responses(400, 401, 403, 404, 409, 429),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        if not request.user.is_authenticated:
            raise GameError(UNAUTHENTICATED, _("Log in or send an API token to play."))
        given = services.move_input(request.data)  # the game socket's check too
        result = services.game_play_move(
            game_id=game_id,
            move=given.move,
            version=given.version,
            move_id=given.id,
            user=request.user,
        )
        _seat, frame = selectors.game_connect(game_id=game_id, user=request.user)
        body = {
            "ply": result.ply,
            "seat": result.seat,
            "move": result.move,
            "version": result.version,
            "replayed": result.replayed,
            "state": frame,
        }
        return Response(body, status=status.HTTP_200_OK if result.replayed else 201)


class GameHintView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [AnonThrottle, UserThrottle, MovesThrottle]
    throttle_scope = "moves"

    @extend_schema(
        summary="Ask the expert for a hint",
        description="Only in a casual game against a server bot, in your own turn, at the "
        "game's ``version``: 200 with the hint when it is ready, 202 (``move`` null) while the "
        "expert thinks (read it with GET). 403 forbidden in ranked play or against a person; "
        "409 stale_version, not_your_turn, game_over. Asking again at the same version is the "
        "same hint; every version asked counts in the game's record.",
        request=HintInSerializer,
        responses={
            200: HintSerializer,
            202: HintSerializer,
            **error_responses(400, 401, 403, 404, 409, 429),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        if not request.user.is_authenticated:
            raise GameError(UNAUTHENTICATED, _("Log in or send an API token to play."))
        version = request.data.get("version") if hasattr(request.data, "get") else None
        if isinstance(version, bool) or not isinstance(version, int):
            raise GameError(
                BAD_MESSAGE,
                _("A hint needs the version it was asked at."),
                params={"field": "version"},
            )
        hint = hints.hint_ask(game_id=game_id, user=request.user, version=version)
        hint.refresh_from_db()  # the job may have answered as the request committed
        return Response(hints.hint_frame(hint), status=200 if hint.move else 202)

    @extend_schema(
        summary="Your hint at the game's current version",
        description="200 when ready, 202 while the expert thinks, 404 when you asked none at "
        "this version.",
        responses={200: HintSerializer, 202: HintSerializer, **error_responses(401, 403, 404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        hint = hints.hint_latest(game_id=game_id, user=request.user)
        if hint is None:
            raise GameError(NOT_FOUND, _("You asked for no hint at this version."))
        return Response(hints.hint_frame(hint), status=200 if hint.move else 202)


class GameReplayView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A finished game's replay and review",
        description="The log (as ``moves/``, whole), the hints each seat used and the expert's "
        "review (null for a game no person played). 403 while the game is in play: its "
        "replay would show the hands.",
        responses={200: ReplaySerializer, **error_responses(403, 404)},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id=game_id)
        if game.is_active:
            raise GameError(
                FORBIDDEN, _("This game is still being played: its replay opens once it is over.")
            )
        body = {
            "game": game.pk,
            "moves": MoveRowSerializer(selectors.game_log(game), many=True).data,
            "hints": hints.hints_used(game),
            "review": reviews.review_for(game),
        }
        return Response(body)


urlpatterns = [
    path("games/<int:game_id>/", GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/moves/", GameMovesView.as_view(), name="game_moves"),
    path("games/<int:game_id>/hint/", GameHintView.as_view(), name="game_hint"),
    path("games/<int:game_id>/replay/", GameReplayView.as_view(), name="game_replay"),
]
