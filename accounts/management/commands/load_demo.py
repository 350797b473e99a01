"""Load demo data once: `python manage.py load_demo` (run by `make run`).

Each project app may provide `<app>/demo.py` with a function

    def load(stdout: OutputWrapper) -> bool: ...

that creates its demo data if it is missing and returns True when it created anything
(False when everything was already there). This command calls the loaders of every project
app in INSTALLED_APPS order, so `accounts` runs first and later apps can use its players
(`accounts.demo.demo_players()`). Loaders must be idempotent: running the command again
creates nothing (the lobby's loader posts bruno's seek afresh, in place of the old one).

A module may also give

    def logins() -> list[tuple[str, str]]: ...

(username, what the account is) for the accounts it makes or gives a part: at the end the
command prints every demo account that exists in ONE block, a line each with its username,
password (``accounts.demo.DEMO_PASSWORD``) and what it is, the notes of all apps joined, so
that `make run` shows the log-ins just above the server's address.
"""

from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.utils.module_loading import module_has_submodule

from accounts.demo import DEMO_PASSWORD
from accounts.models import User

DemoLoader = Callable[[OutputWrapper], bool]


def demo_modules() -> Iterator[tuple[str, ModuleType]]:
    """(app label, `demo` module) of every project app with one, in INSTALLED_APPS order."""
    base_dir = Path(settings.BASE_DIR).resolve()
    for app_config in apps.get_app_configs():
        app_path = Path(app_config.path).resolve()
        if not app_path.is_relative_to(base_dir) or "site-packages" in app_path.parts:
            continue  # Django's and third-party apps
        if not module_has_submodule(app_config.module, "demo"):
            continue
        yield app_config.label, import_module(f"{app_config.name}.demo")


def demo_loaders() -> Iterator[tuple[str, DemoLoader]]:
    """(app label, loader) for every project app with a `demo` module, in INSTALLED_APPS order."""
    for label, module in demo_modules():
        yield label, module.load


def demo_logins() -> list[tuple[str, str]]:
    """(username, what it is) of every demo account that exists, each once, the notes of all
    apps joined in INSTALLED_APPS order."""
    notes: dict[str, list[str]] = {}
    for _label, module in demo_modules():
        for username, what in getattr(module, "logins", list)():
            notes.setdefault(username, []).append(what)
    found = set(User.objects.filter(username__in=notes).values_list("username", flat=True))
    return [(name, "; ".join(whats)) for name, whats in notes.items() if name in found]


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
            self.stdout.write("Demo data was already loaded.")
        self.print_logins()

    def print_logins(self) -> None:
        """Every demo log-in in one block, last, so it stands just above the server's address."""
        found = demo_logins()
        if not found:
            return
        width = max(len(name) for name, _what in found)
        self.stdout.write("")
        heading = "Demo log-ins (unless you changed a password):"
        self.stdout.write(self.style.MIGRATE_HEADING(heading))
        for name, what in found:
            self.stdout.write(f"  {name:<{width}}  {DEMO_PASSWORD}  {what}")
        self.stdout.write("")
