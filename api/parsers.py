"""The REST API's body parsers (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES).

Not in api/errors.py: DRF reads the parser classes while it defines APIView, so this module
must not import rest_framework.views.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers

from core.errors import lazy_format


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, except that a body nested deeper than Python's recursion limit,
    small as it may be (``[[[[…``), is 400 bad_message like any malformed body: DRF
    catches only ValueError, and the RecursionError made a 500. A malformed body's message
    says where, in the reader's language (DRF's is English, with Python's words)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - nested too deep.")) from None
        except exceptions.ParseError as refused:  # DRF's message is English only
            cause = refused.__context__
            if isinstance(cause, json.JSONDecodeError):
                message = lazy_format(
                    _("JSON parse error at line %(line)d, column %(column)d."),
                    line=cause.lineno,
                    column=cause.colno,
                )
            elif isinstance(cause, (LookupError, UnicodeError)):  # the charset, or the bytes
                message = _("The body is not text in the request's character set.")
            else:  # NaN or Infinity, which JSON does not have
                message = exceptions.ParseError.default_detail
            raise exceptions.ParseError(message) from None
