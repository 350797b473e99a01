"""What every area's views share: error responses for the schema, pagination."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.common import ErrorSerializer


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The schema's entry for each error status a view may answer with."""
    return {s: OpenApiResponse(ErrorSerializer, description="An error") for s in statuses}


#: The largest ``offset`` taken: past it PostgreSQL refuses the query (a bigint), so a 400.
MAX_OFFSET = 2**31 - 1


class PageQuery(serializers.Serializer):
    """``limit`` and ``offset`` as a list reads them: whole numbers, a limit of at least 1,
    an offset of at least 0. Empty counts as not given, as every query parameter."""

    limit = serializers.IntegerField(min_value=1, required=False)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_OFFSET, required=False)


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=``; answers ``{count, next, previous, results}``.

    A limit above ``max_limit`` is cut to it (the documented clamp); anything else that is not
    a page (``limit=abc``, ``limit=0``, ``offset=-1``) is 400 ``bad_message`` naming the
    parameter, where DRF's own paginator would quietly serve its default page.
    """

    default_limit = 50
    max_limit = 200

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        self._page_query = query_params(PageQuery, request)
        return super().paginate_queryset(queryset, request, view)

    def get_limit(self, request: Request) -> int:
        limit = self._page_query.get("limit")
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request: Request) -> int:
        return self._page_query.get("offset", 0)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        bounds = {
            self.limit_query_param: {"minimum": 1},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET},
        }
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


def query_params(serializer_class: type, request: Request) -> dict[str, Any]:
    """The validated query parameters, or 400 bad_message with the field errors."""
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def paginated(view: APIView, request: Request, rows: Any, serializer_class: type) -> Response:
    paginator = view.pagination_class()  # type: ignore[attr-defined]
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)
