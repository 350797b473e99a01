from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "Public API"

    def ready(self) -> None:
        from api import schema  # noqa: F401  (registers the schema extension)
