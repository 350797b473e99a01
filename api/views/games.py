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
    MoveInSerializer,
    MoveOutSerializer,
    MoveRowSerializer,
)
from api.throttles import AnonThrottle, MovesThrottle, UserThrottle
from api.views.common import Pagination, error_responses, paginated
from core.errors import UNAUTHENTICATED, GameError
from games import selectors, services


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


urlpatterns = [
    path("games/<int:game_id>/", GameDetailView.as_view(), name="game"),
    path("games/<int:game_id>/moves/", GameMovesView.as_view(), name="game_moves"),
]
