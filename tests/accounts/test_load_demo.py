from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.demo import DEMO_PASSWORD
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


def login_block(out: str) -> list[str]:
    """The lines of the demo log-ins' block: from its heading to the blank line after it."""
    lines = out.splitlines()
    start = lines.index("Demo log-ins (unless you changed a password):") + 1
    end = lines.index("", start)
    return lines[start:end]


def test_load_demo_creates_players_once_and_prints_logins(debug_on):
    first = run()
    assert "Demo data loaded." in first
    alice = User.objects.get(username="alice")
    assert alice.check_password("spite-demo-1")
    snapshot = list(User.objects.order_by("pk").values())

    second = run()
    assert "Demo data was already loaded." in second
    assert "created" not in second
    assert list(User.objects.order_by("pk").values()) == snapshot
    assert login_block(second) == login_block(first)


def test_every_demo_log_in_is_printed_once_in_one_block_at_the_end(debug_on):
    out = run()

    block = login_block(out)
    # Every account the demo made with the published password, and nothing else, a line each.
    demo_users = [u for u in User.objects.order_by("pk") if u.check_password(DEMO_PASSWORD)]
    assert len(demo_users) == len(block) == 6
    for user in demo_users:
        login = [user.username, DEMO_PASSWORD]
        lines = [line for line in out.splitlines() if line.split()[:2] == login]
        assert len(lines) == 1 and lines[0] in block, user.username
    what = {line.split()[0]: line.split(DEMO_PASSWORD, 1)[1].strip() for line in block}
    assert what["alice"].startswith("a player") and "moderator of Club 52" in what["alice"]
    assert what["robo"].startswith("a bot account")
    assert what["admin"].startswith("an admin") and User.objects.get(username="admin").is_superuser
    assert "seek" in what["bruno"]
    # The block is the last thing printed: `make run` prints the server's address next.
    assert out.rstrip("\n").splitlines()[-1] == block[-1]


def test_no_demo_admin_without_debug(settings):
    settings.DEBUG = False
    out = run(allow_production=True)
    assert not User.objects.filter(is_superuser=True).exists()
    assert "admin" not in {line.split()[0] for line in login_block(out)}


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
