"""Load demo data once: `python manage.py load_demo` (run by `make run`).

Each project app may provide `<app>/demo.py` with a function

    def load(stdout: OutputWrapper) -> bool: ...

that creates its demo data if it is missing and returns True when it created anything
(False when everything was already there). This command calls the loaders of every project
app in INSTALLED_APPS order, so `accounts` runs first and later apps can use its players
(`accounts.demo.demo_players()`). Loaders must be idempotent: running the command again
changes nothing.
"""

from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.utils.module_loading import module_has_submodule

DemoLoader = Callable[[OutputWrapper], bool]


def demo_loaders() -> Iterator[tuple[str, DemoLoader]]:
    """(app label, loader) for every project app with a `demo` module, in INSTALLED_APPS order."""
    base_dir = Path(settings.BASE_DIR).resolve()
    for app_config in apps.get_app_configs():
        app_path = Path(app_config.path).resolve()
        if not app_path.is_relative_to(base_dir) or "site-packages" in app_path.parts:
            continue  # Django's and third-party apps
        if not module_has_submodule(app_config.module, "demo"):
            continue
        module = import_module(f"{app_config.name}.demo")
        yield app_config.label, module.load


class Command(BaseCommand):
    help = "Create the demo players (and each app's demo data) if missing; print the log-ins."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load demo accounts (with published passwords) even when DEBUG is off.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_production"]:
            raise CommandError(
                "DEBUG is off: refusing to create demo accounts with published passwords. "
                "Pass --allow-production if you really mean it."
            )
        changed = False
        for _label, load in demo_loaders():
            if load(self.stdout):
                changed = True
        if changed:
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        else:
            self.stdout.write("Demo data was already loaded; nothing changed.")
