from django.apps import AppConfig


class BenchfloorConfig(AppConfig):
    name = "benchfloor"
    default_auto_field = "django.db.models.BigAutoField"
