"""The REST API's body parsers (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES).

Not in api/errors.py: DRF reads the parser classes while it defines APIView, so this module
must not import rest_framework.views.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, except that a body nested deeper than Python's recursion limit,
    small as it may be (``[[[[…``), is 400 bad_message like any malformed body: DRF
    catches only ValueError, and the RecursionError made a 500."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - nested too deep.")) from None
