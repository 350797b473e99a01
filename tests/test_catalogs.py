"""The translation catalogs under locale/: complete, each in its own script, placeholders kept,
and the committed .mo files compiled from the .po files as they are now.

A newcomer's machine has no gettext tools, so the .mo files are committed; "not older than the
.po" is checked on content (a clone's file times say nothing): every translation in the .po must
be in the .mo, and nothing else. `make messages` updates both.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
DOMAINS = ["django", "djangojs"]
CATALOGS = [(lang, domain) for lang in LANGUAGES for domain in DOMAINS]

#: Texts that are truly the same in a language: names (the site's, a tie-break's and its
#: international abbreviation), loanwords players and admins use as they are, the month
#: abbreviations that Spanish and Italian spell as English does, and the admin filters' "No".
SAME_AS_ENGLISH = {
    "*": {"Spite & Malice", "Buchholz", "SB"},
    "vi": {"bot"},
    "es": {"bot", "socket", "provisional", "Final", "feb", "mar", "may", "jun", "jul", "sep"}
    | {"oct", "nov", "No"},
    "it": {"bot", "account", "slug", "socket", "Password", "Standard", "feb", "mar", "apr", "nov"}
    | {"Feb.", "Nov.", "No"},
    "bn": set(),
    "my": set(),
}
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sdif]")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")
LETTERS = re.compile(r"[A-Za-z]{2}")
#: Bengali (U+09E6-09EF) and Myanmar (U+1040-1049) digits.
NATIVE_DIGITS = re.compile(r"[\u09e6-\u09ef\u1040-\u1049]")
SCRIPTS = {"bn": re.compile(r"[\u0980-\u09ff]"), "my": re.compile(r"[\u1000-\u109f]")}
#: Vietnamese letters beyond ASCII: a page of Vietnamese without them is not Vietnamese.
VIETNAMESE = re.compile(
    r"[àáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ]", re.IGNORECASE
)


def _catalog(lang: str, domain: str) -> polib.POFile:
    path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run `make messages`"
    return polib.pofile(str(path))


def _translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def _has_words(msgid: str) -> bool:
    """Whether a text has words to translate, beyond its placeholders and markup."""
    return bool(LETTERS.search(TAG.sub("", PLACEHOLDER.sub("", msgid))))


def _live(po: polib.POFile) -> list[polib.POEntry]:
    return [entry for entry in po if not entry.obsolete and entry.msgid]


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_every_text_is_translated_and_none_is_fuzzy(lang: str, domain: str) -> None:
    po = _catalog(lang, domain)

    untranslated = [e.msgid for e in _live(po) if not all(s.strip() for s in _translations(e))]
    fuzzy = [e.msgid for e in _live(po) if "fuzzy" in e.flags]
    assert not untranslated, untranslated[:20]
    assert not fuzzy, fuzzy[:20]
    assert po.metadata.get("Language") == lang
    assert "nplurals=" in po.metadata.get("Plural-Forms", "")
    assert "INTEGER" not in po.metadata["Plural-Forms"]


def test_the_catalogs_hold_the_sites_texts() -> None:
    """A guard against an empty extraction passing every other test."""
    assert len(_live(_catalog("vi", "django"))) > 700
    assert len(_live(_catalog("vi", "djangojs"))) > 80


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_no_translation_is_the_english_text_but_a_few_names(lang: str, domain: str) -> None:
    allowed = SAME_AS_ENGLISH["*"] | SAME_AS_ENGLISH[lang]

    same = [
        e.msgid
        for e in _live(_catalog(lang, domain))
        if _has_words(e.msgid) and e.msgid not in allowed and e.msgid in _translations(e)
    ]
    assert not same, same


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_placeholders_and_markup_are_kept(lang: str, domain: str) -> None:
    wrong = []
    for entry in _live(_catalog(lang, domain)):
        wanted = set(PLACEHOLDER.findall(entry.msgid + " " + entry.msgid_plural))
        for text in _translations(entry):
            found = set(PLACEHOLDER.findall(text))
            # A language with one plural form may leave the count to the words around it.
            if found != wanted and not (entry.msgid_plural and found <= wanted):
                wrong.append((entry.msgid, text))
            if sorted(TAG.findall(text)) != sorted(TAG.findall(entry.msgid)):
                wrong.append((entry.msgid, text))
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", ["bn", "my"])
def test_bengali_and_burmese_are_written_in_their_own_script(lang: str, domain: str) -> None:
    script = SCRIPTS[lang]
    latin_only = [
        text
        for e in _live(_catalog(lang, domain))
        if _has_words(e.msgid) and e.msgid not in SAME_AS_ENGLISH["*"]
        for text in _translations(e)
        if not script.search(text) and _has_words(text)  # "%(suit)s %(rank)s" needs no word
    ]
    assert not latin_only, latin_only[:10]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", ["bn", "my"])
def test_bengali_and_burmese_write_latin_digits(lang: str, domain: str) -> None:
    """Every language writes 0-9 (docs/i18n.md): placeholders and the table's numbers arrive
    Latin, so a native digit typed in a translation mixes two sets in one sentence."""
    native = [
        text
        for e in _live(_catalog(lang, domain))
        for text in _translations(e)
        if NATIVE_DIGITS.search(text)
    ]
    assert not native, native[:10]


#: Spanish addresses the player as "tú" (docs/i18n.md); these are "usted" forms, and two typos,
#: that Django's own catalog brought with its form errors. Each is never right in a "tú" text.
SPANISH_USTED = {
    "usted": "the pronoun itself",
    "Introduzca": "usted imperative of introducir (tú: escribe)",
    "Asegúrese": "usted imperative of asegurarse (tú: asegúrate)",
    "Escoja": "usted imperative of escoger (tú: elige)",
    "Seleccione": "usted imperative of seleccionar (tú: elige)",
    "Observe": "usted imperative of observar (tú: ten en cuenta)",
    "Su contraseña": "the reader's password, said to usted (tú: tu contraseña)",
    "Introduza": "Django's typo (Portuguese spelling)",
    "carácteres": "Django's typo: the plural is caracteres",
}
#: Literary Burmese markers (docs/i18n.md: the site speaks polite colloquial Burmese). Each
#: pattern is one the colloquial register never uses; the lookbehinds keep the words that only
#: contain the letters: ဧည့်သည် (guest), အမည် (name), မည်း (black).
BURMESE_LITERARY = {
    r"(?<!ဧည့်)သည်": "literary verb ending or subject marker (colloquial: …တယ် / …က)",
    "၏": "literary possessive (colloquial: ရဲ့)",
    r"(?<!အ)မည်(?!း)": "literary future (colloquial: …မယ်)",
    "၍": "literary conjunction (colloquial: …ပြီး / …လို့)",
    "သည့်": "literary relative ending (colloquial: …တဲ့)",
    "နှင့်": "literary 'and' / 'with' (colloquial: နဲ့)",
}
#: Words that must not name a thing (docs/i18n.md's "words not to use").
FORBIDDEN_WORDS = {
    "es": {
        r"pilas? de reserva": "the pay-off pile is the pila personal: reserva is the stock for "
        "Spanish players",
    },
    "my": {"ပေးချေပုံ": "a literal 'payment pile': the pay-off pile is ကိုယ်ပိုင်ပုံ"},
    "vi": {r"(?<![-%(\w])email\b": "the site writes e-mail (Django's lines wrote email)"},
    "it": {r"(?<![-%(\w])email\b": "the site writes e-mail (Django's lines wrote email)"},
    "bn": {"ইমেইল": "the site writes ই-মেইল (Django's lines wrote ইমেইল)"},
}


@pytest.mark.parametrize("domain", DOMAINS)
def test_spanish_says_tu_not_usted(domain: str) -> None:
    found = [
        (word, text)
        for e in _live(_catalog("es", domain))
        for text in _translations(e)
        for word in SPANISH_USTED
        if re.search(rf"\b{word}\b", text)
    ]
    assert not found, found[:10]


@pytest.mark.parametrize("domain", DOMAINS)
def test_burmese_is_colloquial_not_literary(domain: str) -> None:
    found = [
        (BURMESE_LITERARY[pattern], text)
        for e in _live(_catalog("my", domain))
        for text in _translations(e)
        for pattern in BURMESE_LITERARY
        if re.search(pattern, text)
    ]
    assert not found, found[:10]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", sorted(FORBIDDEN_WORDS))
def test_no_translation_uses_a_word_not_to_use(lang: str, domain: str) -> None:
    found = [
        (FORBIDDEN_WORDS[lang][pattern], text)
        for e in _live(_catalog(lang, domain))
        for text in _translations(e)
        for pattern in FORBIDDEN_WORDS[lang]
        if re.search(pattern, text, re.IGNORECASE)
    ]
    assert not found, found[:10]


@pytest.mark.parametrize("domain", DOMAINS)
def test_spanish_never_calls_the_pay_off_pile_reserva(domain: str) -> None:
    """Also the short labels ("Pay-off" on the table): "Reserva" alone is the stock's word."""
    found = [
        (e.msgid, text)
        for e in _live(_catalog("es", domain))
        if "pay-off" in e.msgid.lower()
        for text in _translations(e)
        if "reserva" in text.lower()
    ]
    assert not found, found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_text_in_both_domains_reads_the_same_in_each(lang: str) -> None:
    """A button the server renders and the table's JavaScript redraws keeps its words."""
    server = {(e.msgctxt, e.msgid): _translations(e) for e in _live(_catalog(lang, "django"))}
    script = {(e.msgctxt, e.msgid): _translations(e) for e in _live(_catalog(lang, "djangojs"))}
    shared = set(server) & set(script)
    assert shared  # "Accept", "Yes, resign", ...
    differ = [(key[1], server[key], script[key]) for key in shared if server[key] != script[key]]
    assert not differ, differ


def test_italian_writes_weekdays_and_months_in_lowercase() -> None:
    import datetime

    from django.utils import translation
    from django.utils.formats import date_format

    with translation.override("it"):
        shown = date_format(datetime.date(2026, 11, 29), "l j F Y")
    assert shown == "domenica 29 novembre 2026"


@pytest.mark.parametrize("domain", DOMAINS)
def test_burmese_is_unicode_not_zawgyi(domain: str) -> None:
    """In Unicode Burmese the vowel sign E (U+1031) follows its consonant; Zawgyi, the legacy
    font encoding, types it first, at the start of a word."""
    zawgyi = [
        text
        for e in _live(_catalog("my", domain))
        for text in _translations(e)
        if re.search(r"(^|[\s(])\u1031", text)
    ]
    assert not zawgyi, zawgyi[:10]


@pytest.mark.parametrize("domain", DOMAINS)
def test_vietnamese_has_its_diacritics_precomposed(domain: str) -> None:
    texts = [
        text
        for e in _live(_catalog("vi", domain))
        if len(re.findall(r"[A-Za-z]+", e.msgid)) >= 3
        for text in _translations(e)
    ]
    with_marks = [text for text in texts if VIETNAMESE.search(text)]
    assert len(with_marks) >= 0.95 * len(texts), [t for t in texts if t not in with_marks][:20]
    assert all(unicodedata.is_normalized("NFC", text) for text in texts)


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_the_compiled_catalog_is_the_po_as_it_is_now(lang: str, domain: str) -> None:
    po = _catalog(lang, domain)
    mo_path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run `make messages`"

    def key(entry: polib._BaseEntry) -> tuple[str, str, tuple[str, ...]]:
        return (entry.msgctxt or "", entry.msgid, tuple(_translations(entry)))

    in_po = {key(e) for e in _live(po) if e.translated() and "fuzzy" not in e.flags}
    in_mo = {key(e) for e in polib.mofile(str(mo_path)) if e.msgid}
    assert in_po == in_mo, (
        f"{mo_path.name} for {lang} is older than its .po: run `make messages` "
        f"({len(in_po - in_mo)} translations not compiled, {len(in_mo - in_po)} stale)"
    )


def _django_msgids() -> set[str]:
    import django

    root = Path(django.__file__).parent
    paths = [root / "conf/locale/en/LC_MESSAGES/django.po"]
    paths += root.glob("contrib/*/locale/en/LC_MESSAGES/django.po")
    return {entry.msgid for path in paths for entry in polib.pofile(str(path))}


@pytest.mark.parametrize(
    "module", ["core/django_texts.py", "core/admin_texts.py", "core/formats/calendar_words.py"]
)
def test_the_django_texts_we_translate_are_still_djangos(module: str) -> None:
    """These modules list Django's own texts for our catalogs (Django's Bengali and Burmese
    lack them); a text Django reworded would silently stop being used."""
    import ast

    tree = ast.parse((Path(settings.BASE_DIR) / module).read_text())
    texts = [
        node.args[-1].value if node.func.id == "pgettext_lazy" else node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    assert texts
    assert set(texts) <= _django_msgids(), set(texts) - _django_msgids()


# --- No stale source reference (`make messages` keeps them true) ----------------------------

TEMPLATE_VARIABLE = re.compile(r"\{\{\s*(\w+)\s*\}\}")
JS_STRING = re.compile(r"""(["'])((?:(?!\1)[^\\\n]|\\.)*)\1(\s*\+\s*(?=["']))?""")


def _fold(text: str) -> str:
    return " ".join(text.split())


def _python_texts(source: str) -> list[str]:
    """The module's string literals (implicit concatenation already joined by the parser)."""
    import ast

    tree = ast.parse(source)
    return [
        _fold(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _javascript_texts(source: str) -> list[str]:
    """The script's string literals, "a " + "b" joined as one."""
    texts, current = [], ""
    for match in JS_STRING.finditer(source):
        body = match.group(2)
        current += body.encode().decode("unicode_escape") if "\\" in body else body
        if not match.group(3):
            texts.append(_fold(current))
            current = ""
    return texts


def _template_text(source: str) -> list[str]:
    """The template as one text, {{ name }} as gettext reads it in a blocktranslate (%(name)s),
    whitespace folded as ``trimmed`` folds it."""
    return [_fold(TEMPLATE_VARIABLE.sub(lambda m: f"%({m.group(1)})s", source))]


def _source_texts(path: Path) -> list[str]:
    source = path.read_text()
    if path.suffix == ".py":
        return _python_texts(source)
    if path.suffix == ".js":
        return _javascript_texts(source)
    return _template_text(source)


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_every_source_reference_names_a_file_that_holds_the_text(lang: str, domain: str) -> None:
    """`make messages` (`--add-location=file`) writes where each text comes from; a text that
    has no reference, or whose file no longer exists or no longer holds it, is a stale entry
    (a text reworded or removed in the code while the catalog kept the old one)."""
    texts: dict[Path, list[str]] = {}
    stale = []
    for entry in _live(_catalog(lang, domain)):
        if not entry.occurrences:
            stale.append(("no reference", entry.msgid))
        for reference, _line in entry.occurrences:
            path = Path(settings.BASE_DIR) / reference
            if not path.is_file():
                stale.append((reference, entry.msgid))
                continue
            if path not in texts:
                texts[path] = _source_texts(path)
            for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
                wanted = _fold(msgid)
                if not any(
                    wanted in text or wanted.replace("%%", "%") in text for text in texts[path]
                ):
                    stale.append((reference, msgid))
    assert not stale, stale[:20]
