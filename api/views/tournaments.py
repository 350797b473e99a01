"""Tournaments: the list, a tournament (entrants, rounds, standings); registering and
withdrawing."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.tournaments import (
    EntrySerializer,
    RoundSerializer,
    TournamentDetailSerializer,
    TournamentListQuery,
    TournamentSerializer,
    TournamentStandingSerializer,
)
from api.views.common import Pagination, error_responses, paginated, query_params
from core.errors import GameError
from leagues.models import Tournament
from leagues.services import league_get
from leagues.tournaments import selectors
from leagues.tournaments import services as tservices


class TournamentListView(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="Tournaments",
        description="The tournaments of every league, newest first (drafts are not listed). "
        "``?league=<slug>`` (400 for an unknown league) and ``?status=registration|running|"
        "finished``. Paginated.",
        parameters=[TournamentListQuery],
        responses={200: TournamentSerializer(many=True), **error_responses(400, 429)},
        tags=["tournaments"],
    )
    def get(self, request: Request) -> Response:
        query = query_params(TournamentListQuery, request)
        league = None
        if query.get("league"):
            try:
                league = league_get(slug=query["league"])
            except GameError as exc:
                raise ValidationError({"league": [exc.message]}) from exc
        rows = selectors.tournaments_visible(league=league, status=query.get("status"))
        return paginated(self, request, rows, TournamentSerializer)


class TournamentDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A tournament",
        description="The tournament as the list shows it, with ``you`` (your entry or null), "
        "``entries`` (every entrant with status and seed rating), ``rounds`` (round 1 first, "
        "each pairing with its players, result and match) and ``standings`` (with the format's "
        "tie-breaks, once it has started). A draft is shown to its league's moderators only "
        "(404 for anyone else).",
        responses={200: TournamentDetailSerializer, **error_responses(404, 429)},
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        t = selectors.tournament_visible_get(tournament_id=tournament_id, user=request.user)
        entry = selectors.tournament_entry_of(tournament=t, user=request.user)
        started = t.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        rounds = [
            {
                "number": rnd.number,
                "status": rnd.status,
                "started_at": rnd.started_at,
                "closed_at": rnd.closed_at,
                "pairings": pairings,
            }
            for rnd, pairings in reversed(selectors.tournament_rounds_view(t))
        ]
        body = {
            **TournamentSerializer(t).data,
            "you": EntrySerializer(entry).data if entry is not None else None,
            "entries": EntrySerializer(selectors.tournament_entries(t), many=True).data,
            "rounds": RoundSerializer(rounds, many=True).data,
            "standings": TournamentStandingSerializer(
                selectors.tournament_standings(t) if started else [], many=True
            ).data,
        }
        return Response(body)


class TournamentRegisterView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Register for a tournament",
        description="Enter the tournament while its registration is open (again after "
        "withdrawing, too). 201 with your entry; 200 when you were already entered. 403 "
        "forbidden: registration is not open, or you are not an active member of the league "
        "(or the league is archived, or the account may not play ranked).",
        request=None,
        responses={
            201: EntrySerializer,
            200: EntrySerializer,
            **error_responses(401, 403, 404, 429),
        },
        tags=["tournaments"],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = selectors.tournament_visible_get(tournament_id=tournament_id, user=request.user)
        before = selectors.tournament_entry_of(tournament=t, user=request.user)
        entry = tservices.tournament_register(tournament=t, user=request.user)
        unchanged = before is not None and before.status == entry.status
        return Response(
            EntrySerializer(entry).data,
            status=status.HTTP_200_OK if unchanged else status.HTTP_201_CREATED,
        )


class TournamentWithdrawView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Withdraw from a tournament",
        description="Before it starts your entry simply goes; while it runs you are marked "
        "withdrawn, your pending pairings in the open round are forfeited and you are paired "
        "no more (your results stand). 200 with your entry (status withdrawn). 404 not_found "
        "when you are not entered; 403 forbidden once it is finished.",
        request=None,
        responses={200: EntrySerializer, **error_responses(401, 403, 404, 429)},
        tags=["tournaments"],
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        t = selectors.tournament_visible_get(tournament_id=tournament_id, user=request.user)
        entry = tservices.tournament_withdraw(tournament=t, user=request.user)
        return Response(EntrySerializer(entry).data)


urlpatterns = [
    path("tournaments/", TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:tournament_id>/", TournamentDetailView.as_view(), name="tournament"),
    path(
        "tournaments/<int:tournament_id>/register/",
        TournamentRegisterView.as_view(),
        name="tournament_register",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        TournamentWithdrawView.as_view(),
        name="tournament_withdraw",
    ),
]
