"""spite/settings.py switches on environment variables: each case runs in a fresh interpreter.

Only a few variables are passed to the child (PATH, HOME, locale), so whatever CI or the
developer has exported (DATABASE_URL, REDIS_URL, DEBUG…) cannot change the outcome.
"""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")

# Prints the chosen settings as JSON.
PROBE = """
import json, os, re, sys
if os.environ.get("PROBE_ARGV"):  # the settings as a management command reads them
    sys.argv = [os.environ["PROBE_ARGV"], "migrate"]
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": settings.SECRET_KEY,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "USER": db.get("USER"),
    "HOST": db.get("HOST"),
    "PORT": db.get("PORT"),
    "OPTIONS": db.get("OPTIONS", {}),
    "CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
    "CHANNEL_LAYERS": settings.CHANNEL_LAYERS,
    "CACHES": settings.CACHES,
    "EMAIL_BACKEND": settings.EMAIL_BACKEND,
    "EMAIL_HOST": settings.EMAIL_HOST,
    "EMAIL_PORT": settings.EMAIL_PORT,
    "EMAIL_HOST_USER": settings.EMAIL_HOST_USER,
    "EMAIL_USE_TLS": settings.EMAIL_USE_TLS,
    "STATICFILES_BACKEND": settings.STORAGES["staticfiles"]["BACKEND"],
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "HEALTHZ_EXEMPT": any(
        re.search(p, "healthz") for p in getattr(settings, "SECURE_REDIRECT_EXEMPT", [])
    ),
}, default=str))
"""


def run_settings(**env: str) -> subprocess.CompletedProcess[str]:
    child_env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
    child_env.update({"DJANGO_SETTINGS_MODULE": "spite.settings", "PYTHONPATH": str(ROOT)})
    child_env.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_settings(**env: str) -> dict[str, Any]:
    result = run_settings(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "-a-production-secret-for-tests-only-0123456789",
    "ALLOWED_HOSTS": "example.com",
}


def test_no_environment_runs_a_laptop_site() -> None:
    chosen = load_settings()

    assert chosen["DEBUG"] is True
    assert chosen["SECRET_KEY"] == "dev-only-key-never-used-when-debug-is-off"
    assert "localhost" in chosen["ALLOWED_HOSTS"]
    assert chosen["ENGINE"] == "django.db.backends.sqlite3"
    assert chosen["NAME"] == str(ROOT / "db.sqlite3")
    assert chosen["CHANNEL_LAYERS"]["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert chosen["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    assert chosen["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert chosen["STATICFILES_BACKEND"].endswith("StaticFilesStorage")
    assert chosen["SESSION_COOKIE_SECURE"] is False


def test_sqlite_waits_for_locks_and_takes_the_write_lock_up_front() -> None:
    options = load_settings()["OPTIONS"]

    assert options["timeout"] == 20
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]


def test_database_url_selects_pooled_postgresql() -> None:
    chosen = load_settings(DATABASE_URL="postgres://u:p@h:5432/db")

    assert chosen["ENGINE"] == "django.db.backends.postgresql"
    where = (chosen["NAME"], chosen["USER"], chosen["HOST"], chosen["PORT"])
    assert where == ("db", "u", "h", 5432)
    assert chosen["OPTIONS"]["pool"] == {
        "min_size": 2,
        "max_size": 20,
        "timeout": 2.0,
        # a silent server fails a query after DATABASE_QUERY_DEADLINE (core/database.py)
        "connection_class": "<class 'core.database.DeadlineConnection'>",
    }
    assert chosen["OPTIONS"]["connect_timeout"] == 2  # PostgreSQL away: a 503 within seconds
    assert chosen["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections


def test_a_management_command_keeps_one_connection_and_no_pool() -> None:
    """A job worker forks its processes, which must not share a pool's connections; and a
    migration is never cut by the servers' query deadline."""
    chosen = load_settings(DATABASE_URL="postgres://u:p@h:5432/db", PROBE_ARGV="manage.py")

    assert "pool" not in chosen["OPTIONS"]
    assert chosen["CONN_MAX_AGE"] == 60


def test_pool_size_comes_from_the_environment() -> None:
    chosen = load_settings(
        DATABASE_URL="postgres://u:p@h:5432/db", DATABASE_POOL_MIN="1", DATABASE_POOL_MAX="7"
    )

    assert chosen["OPTIONS"]["pool"]["min_size"] == 1
    assert chosen["OPTIONS"]["pool"]["max_size"] == 7


def test_redis_url_selects_the_redis_channel_layer_and_cache() -> None:
    chosen = load_settings(REDIS_URL="redis://127.0.0.1:6379/0")

    layer = chosen["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"] == ["redis://127.0.0.1:6379/0"]
    cache = chosen["CACHES"]["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/0"
    assert cache["OPTIONS"]["IGNORE_EXCEPTIONS"] is True  # Redis away: a miss, never a 500
    assert cache["OPTIONS"]["SOCKET_TIMEOUT"] == 1.0  # CHANNEL_LAYER_TIMEOUT


def test_debug_off_without_a_secret_key_refuses_to_start() -> None:
    result = run_settings(DEBUG="false", ALLOWED_HOSTS="example.com")

    assert result.returncode != 0
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("django.core.exceptions.ImproperlyConfigured")
    assert "SECRET_KEY" in error


def test_debug_off_without_allowed_hosts_refuses_to_start() -> None:
    result = run_settings(DEBUG="false", SECRET_KEY=PRODUCTION["SECRET_KEY"])

    assert result.returncode != 0
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("django.core.exceptions.ImproperlyConfigured")
    assert "ALLOWED_HOSTS" in error


def test_production_settings_are_secure() -> None:
    chosen = load_settings(**PRODUCTION)

    assert chosen["DEBUG"] is False
    assert chosen["SECRET_KEY"] == PRODUCTION["SECRET_KEY"]
    assert chosen["ALLOWED_HOSTS"] == ["example.com"]
    assert chosen["SESSION_COOKIE_SECURE"] is True
    assert chosen["CSRF_COOKIE_SECURE"] is True
    assert chosen["SECURE_SSL_REDIRECT"] is True
    assert chosen["SECURE_HSTS_SECONDS"] == 31536000
    assert chosen["HEALTHZ_EXEMPT"] is True  # a load balancer may probe over plain HTTP
    assert chosen["STATICFILES_BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    ("url", "use_tls"),
    [
        ("smtp://mailer:s3cret@mail.example.com:587", False),
        ("smtp+tls://mailer:s3cret@mail.example.com:587", True),
    ],
)
def test_email_url_selects_smtp(url: str, use_tls: bool) -> None:
    chosen = load_settings(EMAIL_URL=url)

    assert chosen["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert chosen["EMAIL_HOST"] == "mail.example.com"
    assert chosen["EMAIL_PORT"] == 587
    assert chosen["EMAIL_HOST_USER"] == "mailer"
    assert chosen["EMAIL_USE_TLS"] is use_tls


def _app_sources() -> dict[str, str]:
    root = Path(__file__).resolve().parent.parent
    apps = ("core", "accounts", "games", "lobby", "leagues", "api", "spite", "benchfloor")
    return {
        path.relative_to(root).as_posix(): path.read_text()
        for app in apps
        for path in sorted((root / app).rglob("*.py"))
        if "migrations" not in path.parts
    }


def test_every_setting_has_one_source() -> None:
    """spite/settings.py defines every setting with its default: code reads ``settings.X``,
    never ``getattr(settings, "X", a default of its own)``, and every ``settings.X`` it reads
    is defined."""
    from django.conf import settings

    own_defaults, undefined = [], []
    for module, source in _app_sources().items():
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "getattr"
                and node.args
                and getattr(node.args[0], "id", "") == "settings"
            ):
                own_defaults.append(f"{module}:{node.lineno}")
            if (
                isinstance(node, ast.Attribute)
                and getattr(node.value, "id", "") == "settings"
                and node.attr.isupper()
                and not hasattr(settings, node.attr)
            ):
                undefined.append(f"{module}:{node.lineno} settings.{node.attr}")
    assert not own_defaults, own_defaults
    assert not undefined, undefined


def test_the_fault_point_is_refused_when_debug_is_off() -> None:
    result = run_settings(**PRODUCTION, GAMES_FAULT="move")
    assert result.returncode != 0
    assert "GAMES_FAULT is for the fault tests" in result.stderr


def test_an_unknown_fault_point_is_refused() -> None:
    result = run_settings(GAMES_FAULT="disk")
    assert result.returncode != 0
    assert "GAMES_FAULT must be empty, 'move' or 'bot-move'" in result.stderr
