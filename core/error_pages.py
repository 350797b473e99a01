"""The site's own error pages: 400, 403, 404, 500 and the CSRF failure, in the site's layout
and the visitor's language, each with a way back (the lobby, home, log in).

- ``ErrorPageMiddleware`` answers a view's ``Http404``, ``PermissionDenied`` and ``BadRequest``
  with the site's page, DEBUG on or off: a player who follows a link to a game that no longer
  exists sees the site, not Django's debug page. An unknown URL under DEBUG keeps Django's page
  (the URL resolver raises before any view: that page is for developers).
- ``bad_request``, ``permission_denied``, ``page_not_found``: the site's ``handler400/403/404``.
- ``server_error_page``: the 500 page, built from nothing that can fail with the request —
  no database, no context processor, no request at all (``templates/standalone.html``, as the
  503 page is) — and saying nothing of the error. ``core.outages.server_error`` (the site's
  ``handler500``) answers it unless the database is away.
- ``csrf_failure``: ``CSRF_FAILURE_VIEW``, in plain words: cookies blocked, or the page was
  open too long.

A 404's message is shown when the view gave one (``Http404(_("No such game."))``, translated
where it was raised); otherwise the page says the page does not exist.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404
from django.utils import translation
from django.utils.functional import Promise
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import requires_csrf_token

logger = logging.getLogger(__name__)


def _message(exception: BaseException | None) -> str:
    """The sentence a view raised for the player (a str or a lazy translation), else ""."""
    if exception is None or isinstance(exception, Resolver404) or not exception.args:
        return ""
    message = exception.args[0]
    return str(message) if isinstance(message, (str, Promise)) else ""


def _page(request: HttpRequest, template: str, status: int, **context: Any) -> HttpResponse:
    return render(request, template, context, status=status)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, "errors/400.html", 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, "errors/403.html", 403, message=_message(exception))


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    return _page(request, "errors/404.html", 404, message=_message(exception))


@requires_csrf_token
def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the form could not be trusted. Django's reason is for the log, in
    English; the page says what a person can do about it."""
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = ""
    return _page(request, "errors/403_csrf.html", 403, back=back)


def server_error_page(request: HttpRequest) -> HttpResponse:
    """The 500 page in the visitor's language (chosen by the middleware, else their cookie or
    browser), rendered without the request: no database, no context processor."""
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(
        request
    )
    try:
        with translation.override(language):
            body = loader.get_template("errors/500.html").render({"LANGUAGE_CODE": language})
    except Exception:  # the page itself failed: a last answer that needs nothing
        logger.exception("the 500 page could not be rendered")
        body = "<!doctype html><title>500</title><h1>500</h1>"
    return HttpResponseServerError(body)


#: A view's exceptions that the middleware answers with the site's page, and the pages.
HANDLED: tuple[tuple[type[Exception], Callable[..., HttpResponse]], ...] = (
    (Http404, page_not_found),
    (PermissionDenied, permission_denied),
    (BadRequest, bad_request),
)


class ErrorPageMiddleware:
    """A view's ``Http404``, ``PermissionDenied`` or ``BadRequest`` answers the site's page,
    with DEBUG on too (Django would show its debug page)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        for kind, page in HANDLED:
            if isinstance(exception, kind):
                return page(request, exception)
        return None
