"""Django REST framework's own refusals in the reader's language: DRF has no Bengali or Burmese
catalog, so api/drf_texts.py lists its texts for ours, and the two refusals DRF writes in
English only (a failed CSRF check, a malformed JSON body) are the API's own sentences."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import rest_framework
from django.utils import translation
from rest_framework.test import APIClient

from api.drf_texts import DRF_TEXTS

pytestmark = pytest.mark.django_db

SCRIPTS = {"bn": re.compile(r"[\u0980-\u09ff]"), "my": re.compile(r"[\u1000-\u109f]")}


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def _drf_strings() -> set[str]:
    root = Path(rest_framework.__file__).parent
    return {
        node.value
        for path in root.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_the_drf_texts_we_translate_are_still_drfs() -> None:
    """A text DRF reworded would silently stop being translated."""
    assert set(DRF_TEXTS) <= _drf_strings(), set(DRF_TEXTS) - _drf_strings()


@pytest.mark.parametrize("language", ["vi", "es", "it", "bn", "my"])
def test_drfs_refusals_read_in_the_requests_language(api, alice_key, language) -> None:
    """Not signed in, a field missing, a number that is not one, a method refused: each in the
    language asked for (the catalogs' own words), none in English."""
    said = lambda response: response.json()["message"]  # noqa: E731
    anonymous = api.post("/api/v1/matches/", {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    invalid = api.post(
        "/api/v1/matches/",
        {"rules": {"payoff_size": "many"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
        **_bearer(alice_key),
    )
    refused = api.put("/api/v1/matches/", HTTP_ACCEPT_LANGUAGE=language, **_bearer(alice_key))

    errors = invalid.json()["params"]["errors"]
    english = {
        said(anonymous): "Authentication credentials were not provided.",
        errors["bot"][0]: "This field is required.",
        errors["rules"]["payoff_size"][0]: "A valid integer is required.",
        said(refused): 'Method "{method}" not allowed.',
    }
    assert (anonymous.status_code, invalid.status_code, refused.status_code) == (401, 400, 405)
    with translation.override(language):
        for text, source in english.items():
            wanted = translation.gettext(source).format(method="PUT")
            assert text == wanted and text != source.format(method="PUT"), (source, text)
            if language in SCRIPTS:
                assert SCRIPTS[language].search(text), text


def test_a_failed_csrf_check_says_so_in_the_readers_language(alice, marked) -> None:
    """A signed-in browser's call without its CSRF token: DRF's "CSRF Failed: …" and Django's
    reason were English only."""
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(alice)

    response = browser.post("/api/v1/matches/", {}, format="json", HTTP_ACCEPT_LANGUAGE="bn")

    assert response.status_code == 403
    assert response.json()["message"] == (
        "[bn]The request's CSRF check failed: the page was open too long, or your browser "
        "blocks cookies for this site. Reload the page and try again."
    )


def test_a_malformed_body_says_where_in_the_readers_language(api, alice_key, marked) -> None:
    response = api.post(
        "/api/v1/matches/",
        '{"bot": "greedy",\n "rules": }',
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="my",
        **_bearer(alice_key),
    )

    assert response.status_code == 400
    assert response.json()["code"] == "bad_message"
    assert response.json()["message"] == "[my]JSON parse error at line 2, column 11."


def test_a_body_not_in_its_charset_is_refused_in_the_readers_language(
    api, alice_key, marked
) -> None:
    response = api.post(
        "/api/v1/matches/",
        b'{"bot": "\xff"}',
        content_type="application/json; charset=utf-8",
        HTTP_ACCEPT_LANGUAGE="vi",
        **_bearer(alice_key),
    )

    assert response.status_code == 400
    assert response.json()["message"] == (
        "[vi]The body is not text in the request's character set."
    )
