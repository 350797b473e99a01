"""Leagues: the list, a league, its standings and members; joining and leaving."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.leagues import (
    LeagueDetailSerializer,
    LeagueListQuery,
    LeagueSerializer,
    LeagueTournamentSerializer,
    MatchRowSerializer,
    MembershipSerializer,
    MembersQuery,
    StandingSerializer,
    StandingsQuery,
)
from api.views.common import Pagination, error_responses, paginated, query_params
from core.errors import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError, lazy_format
from leagues import selectors, services
from leagues.models import League, Membership
from leagues.permissions import league_may_moderate
from leagues.tournaments.selectors import league_tournaments


def _membership_data(membership: Membership | None, league: League) -> dict[str, Any] | None:
    if membership is None:
        return None
    membership.league = league
    return dict(MembershipSerializer(selectors.member_row(membership)).data)


class LeagueListView(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="Leagues",
        description="Every league, as the leagues page shows them: active ones first, then "
        "archived ones, each by name. ``?status=active|archived``; ``?member=me``: only the "
        "leagues you are an active member of (401 when anonymous). Paginated.",
        parameters=[LeagueListQuery],
        responses={200: LeagueSerializer(many=True), **error_responses(400, 401, 429)},
        tags=["leagues"],
    )
    def get(self, request: Request) -> Response:
        query = query_params(LeagueListQuery, request)
        member = None
        if query.get("member") == "me":
            if not request.user.is_authenticated:
                raise GameError(
                    UNAUTHENTICATED, _("Log in or send an API token to see your leagues.")
                )
            member = request.user
        leagues = selectors.leagues_visible(status=query.get("status"), member=member)
        return paginated(self, request, leagues, LeagueSerializer)


class LeagueDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A league",
        description="The league as the list shows it, with ``you`` (your membership: its "
        "status, role, rating as it stands now and record; null if you never joined or are "
        "anonymous), its ranked matches in play (``live``) and latest results (``recent``), "
        "and its tournaments (drafts hidden).",
        responses={200: LeagueDetailSerializer, **error_responses(404, 429)},
        tags=["leagues"],
    )
    def get(self, request: Request, slug: str) -> Response:
        league = selectors.league_visible_get(slug=slug)
        membership = selectors.membership_of(league=league, user=request.user)
        body = {
            **LeagueSerializer(league).data,
            "you": _membership_data(membership, league),
            "live": MatchRowSerializer(
                selectors.league_matches_live(league=league), many=True
            ).data,
            "recent": MatchRowSerializer(
                selectors.league_matches_recent(league=league), many=True
            ).data,
            "tournaments": LeagueTournamentSerializer(league_tournaments(league), many=True).data,
        }
        return Response(body)


class LeagueStandingsView(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="A league's standings",
        description="The active members ranked as on the league page (``league_standings``): "
        "``?sort=rating`` (default), ``matches``, ``wins`` or ``points`` (points scored); "
        "equal rows by rating, then username. Ratings as they stand now, rounded. Paginated; "
        "``rank`` is the place in the whole table.",
        parameters=[StandingsQuery],
        responses={200: StandingSerializer(many=True), **error_responses(400, 404, 429)},
        tags=["leagues"],
    )
    def get(self, request: Request, slug: str) -> Response:
        league = services.league_get(slug=slug)
        query = query_params(StandingsQuery, request)
        rows = selectors.league_standings(league=league, sort=query["sort"])
        return paginated(self, request, rows, StandingSerializer)


class LeagueMembersView(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="A league's members",
        description="The members of one status (``?status=``, default active), in the order "
        "they joined, each with role, rating as it stands now and record. Active members are "
        "public; pending requests, members who left and banned ones are shown to the league's "
        "moderators (and staff) only: 401 when anonymous, 403 for anyone else. Paginated.",
        parameters=[MembersQuery],
        responses={
            200: MembershipSerializer(many=True),
            **error_responses(400, 401, 403, 404, 429),
        },
        tags=["leagues"],
    )
    def get(self, request: Request, slug: str) -> Response:
        league = services.league_get(slug=slug)
        query = query_params(MembersQuery, request)
        if query["status"] != Membership.Status.ACTIVE:
            if not request.user.is_authenticated:
                raise GameError(UNAUTHENTICATED, _("Log in or send an API token first."))
            if not league_may_moderate(league=league, user=request.user):
                raise GameError(
                    FORBIDDEN,
                    lazy_format(
                        _("Only moderators of %(league)s may see these members."),
                        league=league.name,
                    ),
                )
        rows = selectors.league_members(league=league, status=query["status"])
        return paginated(self, request, rows, MembershipSerializer)


class LeagueJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Join a league",
        description="Join the league: at once in an open league, as a request a moderator "
        "approves (status pending) in one by approval; a member who left comes back with their "
        "rating. 201 with your membership; 200 when you already were a member or had asked "
        "(nothing changes). 403 forbidden: the league is archived, you are banned, or the "
        "account cannot play.",
        request=None,
        responses={
            201: MembershipSerializer,
            200: MembershipSerializer,
            **error_responses(401, 403, 404, 429),
        },
        tags=["leagues"],
    )
    def post(self, request: Request, slug: str) -> Response:
        league = services.league_get(slug=slug)
        before = selectors.membership_of(league=league, user=request.user)
        membership = services.league_join(league=league, user=request.user)
        unchanged = before is not None and before.status == membership.status
        return Response(
            _membership_data(membership, league),
            status=status.HTTP_200_OK if unchanged else status.HTTP_201_CREATED,
        )


class LeagueLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Leave a league",
        description="Leave the league (or withdraw your request to join) and its ranked "
        "queue; your rating and record stay for a return. 200 with your membership (status "
        "left; leaving again changes nothing, a banned member stays banned). 404 not_found "
        "when you never joined.",
        request=None,
        responses={200: MembershipSerializer, **error_responses(401, 404, 429)},
        tags=["leagues"],
    )
    def post(self, request: Request, slug: str) -> Response:
        league = services.league_get(slug=slug)
        membership = services.league_leave(league=league, user=request.user)
        if membership is None:
            raise GameError(
                NOT_FOUND, lazy_format(_("You are not a member of %(league)s."), league=league.name)
            )
        return Response(_membership_data(membership, league))


urlpatterns = [
    path("leagues/", LeagueListView.as_view(), name="leagues"),
    path("leagues/<slug:slug>/", LeagueDetailView.as_view(), name="league"),
    path(
        "leagues/<slug:slug>/standings/",
        LeagueStandingsView.as_view(),
        name="league_standings",
    ),
    path("leagues/<slug:slug>/members/", LeagueMembersView.as_view(), name="league_members"),
    path("leagues/<slug:slug>/join/", LeagueJoinView.as_view(), name="league_join"),
    path("leagues/<slug:slug>/leave/", LeagueLeaveView.as_view(), name="league_leave"),
]
