"""Bengali and Burmese pages get the script's Noto web font from the site itself
(static/fonts/README.md): only their ``<head>`` links the font stylesheet — the site's pages,
the 500 and 503 pages and the admin's — and every font file the stylesheets name is in static/.
tests/browser/test_fonts.py shows Chromium loading and using it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import loader
from django.test import Client
from django.urls import reverse

from core.error_pages import server_error_page

STATIC = Path(settings.BASE_DIR) / "static"
#: The language → its font stylesheet (no other language links one).
FONT_CSS = {"bn": "css/font-bengali.css", "my": "css/font-burmese.css"}
FAMILY = {"bn": "Noto Sans Bengali", "my": "Noto Sans Myanmar"}
LANGUAGES = [code for code, _name in settings.LANGUAGES]
FONT_LINK = re.compile(r'<link rel="stylesheet" href="/static/(css/font-[a-z]+\.css)">')
URL = re.compile(r"url\(\s*[\"']?([^\"')]+)[\"']?\s*\)")


def _head(html: str) -> str:
    return html[: html.index("</head>")]


def _font_links(html: str) -> list[str]:
    return FONT_LINK.findall(_head(html))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["home", "rules", "privacy", "accounts:login"])
def test_only_bengali_and_burmese_pages_link_their_font(client: Client, name, language) -> None:
    html = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert f'<html lang="{language}">' in html
    assert _font_links(html) == ([FONT_CSS[language]] if language in FONT_CSS else [])


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_error_pages_link_the_font_of_their_language(client: Client, rf, language) -> None:
    not_found = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    server_error = server_error_page(rf.get("/", HTTP_ACCEPT_LANGUAGE=language))
    unavailable = loader.render_to_string("503.html", {"LANGUAGE_CODE": language})
    expected = [FONT_CSS[language]] if language in FONT_CSS else []

    assert not_found.status_code == 404
    assert _font_links(not_found.content.decode()) == expected
    assert _font_links(server_error.content.decode()) == expected
    assert _font_links(unavailable) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_admins_pages_link_the_font_and_put_it_first(client: Client, language) -> None:
    html = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    admin_css = (STATIC / "css/admin-fonts.css").read_text()

    assert _font_links(html) == ([FONT_CSS[language]] if language in FONT_CSS else [])
    assert '<link rel="stylesheet" href="/static/css/admin-fonts.css">' in _head(html)
    for code, family in FAMILY.items():
        rule = re.search(
            rf":root:lang\({code}\)\s*{{\s*--font-family-primary:\s*([^;]+);", admin_css
        )
        assert rule and rule.group(1).startswith(f'"{family}"'), code


@pytest.mark.parametrize(("language", "path"), FONT_CSS.items())
def test_each_font_stylesheet_names_woff2_files_that_exist_under_static(language, path) -> None:
    css = (STATIC / path).read_text()
    faces = re.findall(r"@font-face\s*{([^}]*)}", css)
    site_css = (STATIC / "css/site.css").read_text()
    stack = "--font-bengali" if language == "bn" else "--font-burmese"

    assert {re.search(r"font-weight:\s*(\d+)", face).group(1) for face in faces} == {"400", "700"}
    for face in faces:
        assert f'font-family: "{FAMILY[language]}";' in face
        assert "font-display: swap;" in face
        assert "unicode-range:" in face
        urls = URL.findall(face)
        assert urls and all(u.startswith("../fonts/") and u.endswith(".woff2") for u in urls)
        for url in urls:
            assert (STATIC / "css" / url).resolve().is_file(), url
    # The site's stack for the script names the web font first.
    assert re.search(rf'{stack}:\s*"{FAMILY[language]}",', site_css)


def test_the_vendored_fonts_carry_their_licence() -> None:
    for folder in ("noto-sans-bengali", "noto-sans-myanmar"):
        licence = (STATIC / "fonts" / folder / "OFL.txt").read_text()
        assert "SIL OPEN FONT LICENSE Version 1.1" in licence
        assert sorted(p.suffix for p in (STATIC / "fonts" / folder).iterdir()) == [
            ".txt",
            ".woff2",
            ".woff2",
        ]
