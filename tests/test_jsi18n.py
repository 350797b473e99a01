"""The page scripts' texts go through Django's JavaScript catalog.

Every English text in static/js is written ``gettext_noop("…")`` or ``ngettext_lazy("…", "…")``
in a TEXT table (cards.js's ``addTexts``), the names ``makemessages -d djangojs`` extracts, and
shown through cards.js's ``t``/``tn``, which ask ``window.gettext``/``window.ngettext`` (the
catalog at /jsi18n/) when they are called. These tests check the catalog is served, that
xgettext finds every text, that no English text is set on the page outside them, and (with
Node) that ``t``/``tn`` translate, pick plurals and write numbers the page language's way.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]
JS = sorted((ROOT / "static" / "js").glob("*.js"))

# One entry of a TEXT table: `key: gettext_noop("…"),` or `key: ngettext_lazy("…", "…"),`,
# on one line or over several.
ENTRY = re.compile(
    r"^\s+(\w+): (gettext_noop|ngettext_lazy)\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*,?\s*)+)\)",
    re.MULTILINE,
)
STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")
# A key asked for with a literal: t("key" …) / tn("key" …).
ASKED = re.compile(r"\bt[n]?\(\s*\"(\w+)\"")
# Words a person reads, set on the page with a literal instead of a text of the table.
SHOWN_LITERAL = re.compile(
    r"""(?:textContent\s*=|innerText\s*=|\btext:|"aria-label":|\btitle:|\bplaceholder:"""
    r"""|setAttribute\(\s*"(?:aria-label|title|placeholder|alt)",|\balert\(|\bconfirm\(|\bprompt\()"""
    r"""\s*(["'`])(.*?)\1"""
)
# Django's own xgettext keywords for the djangojs domain (makemessages), plus JS's defaults.
DJANGOJS_KEYWORDS = [
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
]


def _unescape(text: str) -> str:
    return json.loads(f'"{text}"')


def _entries() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """key -> [(file, texts)] for every TEXT entry of every script."""
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for path in JS:
        for match in ENTRY.finditer(path.read_text(encoding="utf-8")):
            texts = tuple(_unescape(s) for s in STRING.findall(match.group(3)))
            assert len(texts) == (1 if match.group(2) == "gettext_noop" else 2), match.group(0)
            found.setdefault(match.group(1), []).append((path.name, texts))
    return found


def _code_lines(path: Path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(("//", "*", "/*")):
            continue
        yield number, line


# --- the catalog --------------------------------------------------------------------------


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_javascript_catalog_is_served_in_every_language(client: Client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = client.get(reverse("javascript-catalog"))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert "django.gettext" in body and "django.ngettext" in body and "interpolate" in body


def test_the_catalog_is_built_once_per_language_and_each_language_keeps_its_own(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.views.i18n import JavaScriptCatalog as DjangosCatalog

    from core.i18n import JavaScriptCatalog

    monkeypatch.setattr(JavaScriptCatalog, "built", {})
    builds: list[str] = []
    build = DjangosCatalog.get

    def counted(self, request, *args, **kwargs):  # type: ignore[no-untyped-def]
        builds.append(request.LANGUAGE_CODE)
        return build(self, request, *args, **kwargs)

    monkeypatch.setattr(DjangosCatalog, "get", counted)
    bodies = {}
    for language in ("vi", "vi", "my", "vi", "my"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        bodies.setdefault(language, set()).add(client.get(reverse("javascript-catalog")).content)
    assert builds == ["vi", "my"]  # once each
    assert all(len(seen) == 1 for seen in bodies.values())
    assert bodies["vi"] != bodies["my"]
    vietnamese = next(iter(bodies["vi"])).decode()
    assert json.dumps("Lượt của bạn") in vietnamese  # "Your turn", as the catalog writes it


# --- the texts ----------------------------------------------------------------------------


def test_no_english_text_is_set_outside_the_text_tables() -> None:
    stray = [
        f"{path.name}:{number}: {line.strip()}"
        for path in JS
        for number, line in _code_lines(path)
        for match in SHOWN_LITERAL.finditer(line)
        if re.search(r"[A-Za-z]{2}", re.sub(r"\$\{[^}]*\}", "", match.group(2)))
    ]
    assert stray == []


def test_every_text_table_entry_is_marked_for_extraction() -> None:
    """A bare `key: "Some words",` inside an addTexts/TEXT table would never be translated."""
    bare = []
    for path in JS:
        source = path.read_text(encoding="utf-8")
        for table in re.finditer(r"(?:addTexts\(\{|TEXT = \{)(.*?)\n\}\)?;", source, re.DOTALL):
            for line in table.group(1).splitlines():
                if re.match(r"^\s+\w+:\s*[\"'`]", line):
                    bare.append(f"{path.name}: {line.strip()}")
    assert bare == []


def test_every_key_asked_for_is_a_text_and_means_one_text_everywhere() -> None:
    entries = _entries()
    asked = {key for path in JS for key in ASKED.findall(path.read_text(encoding="utf-8"))}

    assert asked - entries.keys() == set()
    # Scripts of one page share the table: a key defined twice must say the same thing.
    differing = {
        key: where for key, where in entries.items() if len({texts for _f, texts in where}) > 1
    }
    assert differing == {}
    # Placeholders are named, `%(name)s`: never positional inside a text.
    every = [text for where in entries.values() for _f, texts in where for text in texts]
    positional = [text for text in every if re.search(r"%[sd]", text)]
    assert positional == []


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (gettext) is not installed")
def test_xgettext_extracts_every_text_as_makemessages_would(tmp_path: Path) -> None:
    pot = tmp_path / "djangojs.pot"
    subprocess.run(
        [
            "xgettext",
            "--language=JavaScript",
            *DJANGOJS_KEYWORDS,
            "--from-code=UTF-8",
            "--add-comments=Translators",
            "--no-wrap",
            "-o",
            str(pot),
            *[str(p) for p in JS],
        ],
        check=True,
        cwd=ROOT,
    )
    catalog = pot.read_text(encoding="utf-8")
    quoted = r' "((?:[^"\\]|\\.)*)"$'
    singulars = {_unescape(s) for s in re.findall("^msgid" + quoted, catalog, re.M)} - {""}
    plurals = {_unescape(s) for s in re.findall("^msgid_plural" + quoted, catalog, re.M)}

    entries = _entries()
    wanted = {where[0][1] for where in entries.values()}
    missing = [
        texts
        for texts in wanted
        if texts[0] not in singulars or (len(texts) == 2 and texts[1] not in plurals)
    ]
    assert missing == []
    assert len(singulars) >= len(wanted) > 100
    assert "#. Translators:" in catalog


# --- t and tn in a browser-like page (Node) --------------------------------------------------

NODE_CHECK = """
globalThis.window = {};
globalThis.document = { documentElement: { lang: "bn" } };
const cards = await import(process.argv[2]);
const out = {};
out.before = cards.t("card", { rank: cards.t("rankK"), suit: cards.t("suitS") });
// The catalog arrives after the module loaded: t reads it when called.
const words = { "King": "KING", "spades": "SPADES", "%(rank)s of %(suit)s": "%(suit)s/%(rank)s" };
window.gettext = (s) => words[s] ?? s;
window.ngettext = (s, p, n) => (n === 1 ? "ONE " + s : "MANY " + p);
out.after = cards.cardName("KS");
cards.addTexts({ demo: cards.ngettext_lazy("%(count)s card", "%(count)s cards") });
out.one = cards.tn("demo", 1);
out.many = cards.tn("demo", 12);
out.list = cards.formatList(["a", "b"]);
out.clock = cards.formatDuration(65);
console.log(JSON.stringify(out));
"""


def run_with_cards_js(tmp_path: Path, check: str) -> dict[str, Any]:
    """Run the ES module ``check`` under Node with static/js/cards.js's URL as its argument;
    the JSON it printed."""
    script = tmp_path / "check.mjs"
    script.write_text(check, encoding="utf-8")
    result = subprocess.run(
        ["node", str(script), (ROOT / "static" / "js" / "cards.js").as_uri()],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(result.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_t_translates_when_called_with_plurals_and_latin_digits(tmp_path: Path) -> None:
    out = run_with_cards_js(tmp_path, NODE_CHECK)

    assert out["before"] == "King of spades"  # no catalog: the English stands
    assert out["after"] == "SPADES/KING"
    assert out["one"] == "ONE 1 card"  # Latin digits for lang="bn" too
    assert out["many"] == "MANY 12 cards"
    assert out["clock"] == "1:05"
    assert out["list"].startswith("a") and out["list"].endswith("b")
