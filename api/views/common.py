"""What every area's views share: error responses for the schema, pagination."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework.pagination import LimitOffsetPagination

from api.serializers.common import ErrorSerializer


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The schema's entry for each error status a view may answer with."""
    return {s: OpenApiResponse(ErrorSerializer, description="An error") for s in statuses}


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=``; answers ``{count, next, previous, results}``."""

    default_limit = 50
    max_limit = 200
