from rest_framework.throttling import ScopedRateThrottle


class MovesThrottle(ScopedRateThrottle):
    """The stricter ``moves`` rate, on posting moves only (GETs pass)."""

    scope_attr = "throttle_scope"

    def allow_request(self, request, view):
        if request.method != "POST":
            return True
        return super().allow_request(request, view)
