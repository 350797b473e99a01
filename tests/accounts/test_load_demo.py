from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.management.commands.load_demo import demo_loaders
from accounts.models import User

pytestmark = pytest.mark.django_db


def run(**options) -> str:
    out = StringIO()
    call_command("load_demo", stdout=out, **options)
    return out.getvalue()


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


def test_load_demo_creates_players_once_and_prints_logins(debug_on):
    first = run()
    assert "Demo data loaded." in first
    assert "username alice" in first and "username bruno" in first
    assert "password spite-demo-1" in first
    alice = User.objects.get(username="alice")
    assert alice.check_password("spite-demo-1")
    snapshot = list(User.objects.order_by("pk").values())

    second = run()
    assert "nothing changed" in second
    assert "created" not in second
    assert "username alice" in second and "password spite-demo-1" in second
    assert list(User.objects.order_by("pk").values()) == snapshot


def test_load_demo_refuses_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        run()
    assert not User.objects.exists()
    assert "Demo data loaded." in run(allow_production=True)


def test_accounts_loader_comes_first_and_only_project_apps_are_asked():
    labels = [label for label, _ in demo_loaders()]
    assert labels[0] == "accounts"
    assert not {"admin", "auth", "axes", "django_countries"} & set(labels)
