"""Production hardening: `check --deploy` is clean, CSRF is enforced, whitenoise serves static
files with DEBUG off and plain HTTP is redirected to HTTPS (except the health check)."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]
PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def production_env(**extra: str) -> dict[str, str]:
    """A controlled environment with production settings; nothing inherited but the basics."""
    env = {name: os.environ[name] for name in PASSED_THROUGH if name in os.environ}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "spite.settings",
            "PYTHONPATH": str(ROOT),
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(60),  # 80 characters, random
            "ALLOWED_HOSTS": "example.com",
            "DATABASE_URL": "sqlite:///:memory:",
        }
    )
    env.update(extra)
    return env


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_fails_on_a_weak_secret_key() -> None:
    # Proves the check above can fail: a short key is a deployment warning.
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(SECRET_KEY="too-short"),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr


@pytest.mark.django_db
def test_a_post_without_a_csrf_token_is_refused() -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        reverse("accounts:login"), {"username": "nobody", "password": "whatever-it-is"}
    )

    assert response.status_code == 403


@pytest.mark.django_db
def test_the_same_post_with_the_token_from_the_form_is_accepted() -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("accounts:login"))
    token = client.cookies[settings.CSRF_COOKIE_NAME].value

    response = client.post(
        reverse("accounts:login"),
        {"username": "nobody", "password": "whatever-it-is", "csrfmiddlewaretoken": token},
    )

    assert response.status_code == 200  # the form again, with "wrong username or password"
    assert response.context["form"].errors


def test_whitenoise_comes_right_after_the_security_middleware() -> None:
    middleware = settings.MIDDLEWARE
    assert middleware[0] == "django.middleware.security.SecurityMiddleware"
    assert middleware[1] == "whitenoise.middleware.WhiteNoiseMiddleware"


# Runs with DEBUG off: collect the static files into a temporary STATIC_ROOT, then fetch pages
# and files through the whole middleware stack.
PRODUCTION_PROBE = """
import json, sys
from django.conf import settings
settings.STATIC_ROOT = sys.argv[1]
import django
django.setup()
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client

call_command("collectstatic", "--noinput", verbosity=0)
client = Client(HTTP_HOST="example.com")
css_url = static("css/site.css")
css = client.get(css_url, secure=True)
home = client.get("/", secure=True)
print(json.dumps({
    "css_url": css_url,
    "css_status": css.status_code,
    "css_cache": css.get("Cache-Control", ""),
    "css_body": b"".join(css.streaming_content).decode()[:200] if css.status_code == 200 else "",
    "css_in_home": css_url in home.content.decode(),
    "home_status": home.status_code,
    "http_home_status": client.get("/").status_code,
    "http_home_location": client.get("/").get("Location", ""),
    "http_healthz_status": client.get("/healthz").status_code,
    "hsts": home.get("Strict-Transport-Security", ""),
}))
"""


def test_with_debug_off_whitenoise_serves_hashed_static_files_and_http_goes_to_https(
    tmp_path: Path,
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_PROBE, str(tmp_path / "static")],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])

    # Whitenoise serves the collected, content-hashed file, cached for ever.
    assert seen["css_url"].startswith("/static/css/site.") and seen["css_url"] != (
        "/static/css/site.css"
    )
    assert seen["css_status"] == 200
    assert "immutable" in seen["css_cache"]
    assert "Spite & Malice" in seen["css_body"]
    assert seen["home_status"] == 200 and seen["css_in_home"]
    # Plain HTTP is redirected, except the health check a load balancer probes.
    assert seen["http_home_status"] == 301
    assert seen["http_home_location"] == "https://example.com/"
    assert seen["http_healthz_status"] == 200
    assert "max-age=31536000" in seen["hsts"]


# Runs with DEBUG off: the footer's language switcher answers with the language cookie.
LANGUAGE_PROBE = """
import json
import django
django.setup()
from django.conf import settings
from django.test import Client

response = Client(HTTP_HOST="example.com").post(
    "/language/", {"language": "vi", "next": "/"}, secure=True
)
cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
print(json.dumps({
    "status": response.status_code,
    "value": cookie.value,
    "secure": bool(cookie["secure"]),
    "httponly": bool(cookie["httponly"]),
    "samesite": cookie["samesite"],
}))
"""


def test_with_debug_off_the_language_cookie_is_secure_httponly_and_same_site() -> None:
    result = subprocess.run(
        [sys.executable, "-c", LANGUAGE_PROBE],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])

    assert seen["status"] == 302 and seen["value"] == "vi"
    assert seen == {**seen, "secure": True, "httponly": True, "samesite": "Lax"}


@pytest.mark.django_db
def test_in_development_the_language_cookie_is_httponly_and_same_site(client: Client) -> None:
    """Not Secure with DEBUG on: a laptop serves plain HTTP, where a Secure cookie is dropped."""
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})

    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "es"
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]
