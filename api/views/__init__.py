"""The API's views, one module per area, each ending with its ``urlpatterns`` (api/urls.py
gathers them). Thin (docs/architecture.md): validate, call one service or selector,
serialize. Refusals are GameErrors, answered by api.errors.exception_handler."""
