"""drf-spectacular extensions: the token authentication as an HTTP bearer scheme, our session
authentication (DRF's, refusing guests) as drf-spectacular's cookie scheme."""

from drf_spectacular.authentication import SessionScheme as DrfSessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A personal API token from /accounts/tokens/: "
            "Authorization: Bearer <key> (Token <key> works too).",
        }


class SessionScheme(DrfSessionScheme):
    target_class = "api.authentication.SessionAuthentication"
    priority = 0
