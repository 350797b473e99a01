"""The API's throttles: DRF's, each counting an anonymous client by the address
``core.client_address`` reads (``PROXY_COUNT``), never by an ``X-Forwarded-For`` the client
made up (DRF's own ``get_ident`` takes the whole header when ``NUM_PROXIES`` is unset)."""

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

from core.client_address import client_address


class ClientAddressIdent:
    def get_ident(self, request) -> str:
        return client_address(request)


class AnonThrottle(ClientAddressIdent, AnonRateThrottle):
    """The ``anon`` rate, per client address."""


class UserThrottle(ClientAddressIdent, UserRateThrottle):
    """The ``user`` rate, per user (an anonymous request: per client address)."""


class MovesThrottle(ClientAddressIdent, ScopedRateThrottle):
    """The stricter ``moves`` rate, on posting moves only (GETs pass)."""

    scope_attr = "throttle_scope"

    def allow_request(self, request, view):
        if request.method != "POST":
            return True
        return super().allow_request(request, view)
