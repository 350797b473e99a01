"""The web fonts in Chromium: a visitor reading the home page or the rules in Bengali or Burmese
gets the script's Noto font from the site's own host (and nothing from any other host), and the
page's heading and text are drawn with it — the downloaded face, not a font the machine happens
to have (Chromium says which font drew a node: DevTools' ``CSS.getPlatformFontsForNode``); so is
the admin's log-in page in Bengali. In English or Vietnamese no font file is fetched at all.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

FAMILY = {"bn": "Noto Sans Bengali", "my": "Noto Sans Myanmar"}
FONT_FILE = (".woff2", ".woff", ".ttf", ".otf")

#: The page's font faces: family (unquoted), weight, status.
FACES = """() => [...document.fonts].map((face) => ({
    family: face.family.replace(/["']/g, ""), weight: String(face.weight), status: face.status,
}))"""
#: True once a face of the family has loaded.
LOADED = """(family) => [...document.fonts].some(
    (face) => face.family.replace(/["']/g, "") === family && face.status === "loaded")"""


def _open(page: Any, url: str, language: str) -> list[Any]:
    """Open ``url`` with the browser asking for ``language``; every request the page makes."""
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == language
    return requests


def _fonts_drawing(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts Chromium used to draw the text of the first node matching ``selector``."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.mark.parametrize("language", ["bn", "my"])
@pytest.mark.parametrize("path", ["/", "/rules/"])
def test_bengali_and_burmese_pages_draw_with_the_sites_own_noto_font(
    page, live_server_url, path, language
) -> None:
    family = FAMILY[language]
    requests = _open(page, live_server_url + path, language)
    page.wait_for_function(LOADED, arg=family)
    page.evaluate("() => document.fonts.ready.then(() => null)")
    site = urlsplit(live_server_url).netloc

    fonts = [r.url for r in requests if r.resource_type == "font"]
    assert fonts and all(urlsplit(url).netloc == site for url in fonts), fonts
    assert all(urlsplit(url).path.endswith(".woff2") for url in fonts), fonts
    assert all(f"/static/fonts/{family.lower().replace(' ', '-')}/" in url for url in fonts)
    elsewhere = [r.url for r in requests if urlsplit(r.url).netloc not in {site, ""}]
    assert not elsewhere
    faces = page.evaluate(FACES)
    loaded = {f["weight"] for f in faces if f["family"] == family and f["status"] == "loaded"}
    assert loaded == {"400", "700"}  # the text, and the bold heading
    for selector in ("h1", "main p"):
        drawn = _fonts_drawing(page, selector)
        assert any(f["familyName"] == family and f["isCustomFont"] for f in drawn), drawn


@pytest.mark.parametrize("language", ["en", "vi"])
@pytest.mark.parametrize("path", ["/", "/rules/"])
def test_english_and_vietnamese_pages_fetch_no_font(page, live_server_url, path, language) -> None:
    requests = _open(page, live_server_url + path, language)
    page.evaluate("() => document.fonts.ready.then(() => null)")

    assert page.evaluate(FACES) == []
    assert not [r.url for r in requests if r.resource_type == "font" or r.url.endswith(FONT_FILE)]


def test_the_admins_log_in_page_in_bengali_draws_with_the_font(page, live_server_url) -> None:
    requests = _open(page, live_server_url + "/admin/login/", "bn")
    page.wait_for_function(LOADED, arg="Noto Sans Bengali")
    site = urlsplit(live_server_url).netloc

    assert all(urlsplit(r.url).netloc == site for r in requests if r.resource_type == "font")
    drawn = _fonts_drawing(page, "#site-name a")
    assert any(f["familyName"] == "Noto Sans Bengali" and f["isCustomFont"] for f in drawn), drawn
