"""Every text a person reads in the templates is marked for translation.

Each template is read as text: comments, ``{% translate %}`` tags and ``{% blocktranslate %}``
blocks are taken out, the other tags and variables too, and what is left is parsed as HTML.
A text node with a letter in it, or an attribute people read (alt, title, aria-label,
placeholder, a button's value), is text the catalogs would miss.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

COMMENT = re.compile(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}", re.S)
BLOCK = re.compile(r"\{%\s*blocktrans(?:late)?\b.*?%\}.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S)
TRANSLATE = re.compile(r"\{%\s*trans(?:late)?\s.*?%\}", re.S)
OTHER = re.compile(r"\{%.*?%\}|\{\{.*?\}\}", re.S)
LETTER = re.compile(r"[^\W\d_]")

# Attributes whose text people read (or hear); an input button shows its value (a <button>'s
# value is only sent).
READ_ATTRIBUTES = {"alt", "title", "aria-label", "placeholder", "aria-roledescription", "label"}
BUTTON_TYPES = {"submit", "button", "reset"}
# Elements whose text is not language: code names, keys of the keyboard, scripts, styles.
SKIPPED = {"code", "kbd", "script", "style"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Texts that stay as they are in every language.
ALLOWED = {
    "Spite &amp; Malice",
    "· Spite &amp; Malice",
    # the card ranks drawn in the home page's picture (aria-hidden)
    "A",
    "K",
}


def _blank(match: re.Match[str]) -> str:
    """A removed piece leaves a separator and its line breaks (the lines stay where they were)."""
    return "\x00" + "\n" * match.group(0).count("\n")


def strip_template(source: str) -> str:
    for pattern in (COMMENT, BLOCK, TRANSLATE, OTHER):
        source = pattern.sub(_blank, source)
    return source


def _has_words(text: str) -> bool:
    text = text.replace("\x00", " ").strip()
    return bool(LETTER.search(text)) and text not in ALLOWED


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.found: list[tuple[int, str, str]] = []
        self.text: list[str] = []
        self.text_line = 0

    def flush(self) -> None:
        """A text node ends at a tag (entities such as ``&amp;`` arrive as their own pieces)."""
        if self.text and not SKIPPED.intersection(self.open):
            for piece in "".join(self.text).split("\x00"):
                if _has_words(piece):
                    self.found.append((self.text_line, "text", piece.strip()))
        self.text = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.flush()
        if tag not in VOID:
            self.open.append(tag)
        kinds = dict(attrs)
        for name, value in attrs:
            read = name in READ_ATTRIBUTES or (
                name == "value" and tag == "input" and kinds.get("type") in BUTTON_TYPES
            )
            if read and value and _has_words(value):
                self.found.append((self.getpos()[0], f"<{tag} {name}>", value.strip()))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.open and self.open[-1] == tag:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        self.flush()
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self.text:
            self.text_line = self.getpos()[0]
        self.text.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


def unmarked(source: str) -> list[tuple[int, str, str]]:
    finder = _Finder()
    finder.feed(strip_template(source))
    finder.close()
    finder.flush()
    return finder.found


def _templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt"})


def test_the_finder_sees_unmarked_text() -> None:
    source = (
        '{% load i18n %}<p>{% translate "Fine" %}</p><p>Not marked</p>'
        '<img alt="A picture"><input type="submit" value="Send">'
        '<button value="{{ x }}">{% translate "Go" %}</button>'
        "{% blocktranslate trimmed with n=1 %}<b>{{ n }} fine</b>{% endblocktranslate %}"
        "{# a comment #}<code>hand_size</code>"
    )
    assert [text for _, _, text in unmarked(source)] == [
        "Not marked",
        "A picture",
        "Send",
    ]


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_visible_text_is_marked(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".txt":
        left = strip_template(source).replace("\x00", " ")
        assert not LETTER.search(left), f"unmarked text in {path.name}: {left.strip()!r}"
        return
    found = unmarked(source)
    assert not found, "\n".join(f"line {line}: {where}: {text!r}" for line, where, text in found)


def test_blocktranslate_variables_are_plain_names() -> None:
    """``{% blocktranslate %}`` takes only plain names; anything else goes through ``with``."""
    wrong = []
    for path in _templates():
        for block in BLOCK.finditer(path.read_text(encoding="utf-8")):
            for name in re.findall(r"\{\{\s*(.*?)\s*\}\}", block.group(0)):
                if not re.fullmatch(r"\w+", name):
                    wrong.append(f"{path.relative_to(TEMPLATES)}: {{{{ {name} }}}}")
    assert not wrong, "\n".join(wrong)
