"""What every area's views share: error responses for the schema, pagination."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.common import ErrorSerializer


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The schema's entry for each error status a view may answer with."""
    return {s: OpenApiResponse(ErrorSerializer, description="An error") for s in statuses}


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=``; answers ``{count, next, previous, results}``."""

    default_limit = 50
    max_limit = 200


def query_params(serializer_class: type, request: Request) -> dict[str, Any]:
    """The validated query parameters, or 400 bad_message with the field errors."""
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def paginated(view: APIView, request: Request, rows: Any, serializer_class: type) -> Response:
    paginator = view.pagination_class()  # type: ignore[attr-defined]
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)
