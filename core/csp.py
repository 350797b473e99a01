"""The Content-Security-Policy header (django-csp; the policy is ``CONTENT_SECURITY_POLICY`` in
spite/settings.py, docs/deploy.md): django-csp's middleware, which also lets a page's socket
reach the host that served it.

CSP Level 3 counts ``ws:``/``wss:`` to the page's own host as ``'self'`` in ``connect-src``;
the browsers that still do not (older Safari) get the socket's origin named: ``ws://<host>``,
or ``wss://<host>`` for a page served over HTTPS. The host is the request's own, already
checked against ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

from typing import Any

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: Any, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:  # answered 400 already; its policy names no host
            return parts
        socket = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        parts.update = {**(parts.update or {})}
        parts.update["connect-src"] = [*parts.update.get("connect-src", ()), socket]
        return parts
