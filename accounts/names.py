"""Names that cannot impersonate (docs/accounts.md, "Names").

A username or display name is refused when it holds a bidirectional control character (they
reorder what is shown around them: "evil\\u202eman" reads as "evilnam"), or when its
confusable skeleton matches that of a name the site shows for itself — the server bots' names,
"Guest", "deleted player", in each of the site's languages — or of another player's username
or display name.

The skeleton follows Unicode's UTS #39: each character is replaced by the prototype of its
confusable class, from the data of the ``confusable_homoglyphs`` library (Unicode's
confusables.txt), after compatibility decomposition (NFKD: fullwidth letters are the plain
ones). Then case is folded and only letters, digits and symbols are kept (no spaces,
punctuation or accents), so "Expert bot", "expert-bot" and "Expert Bot" spelt with Cyrillic
letters are the same name. Checking another player's names reads every account's names: one
sign-up or profile save at a time, which a site of this size affords.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts import hooks

#: Bidirectional controls (embeddings, overrides, isolates, marks), refused in any name.
BIDI_CONTROLS = frozenset(
    [
        *map(chr, range(0x202A, 0x202F)),
        *map(chr, range(0x2066, 0x206A)),
        "\u200e",
        "\u200f",
        "\u061c",
    ]
)

BIDI_REFUSED = _("Names cannot contain characters that change the direction of text.")
LOOKS_LIKE = _("That name looks too much like “%(name)s”. Choose another.")


def _own_names() -> list[Promise]:
    """The names accounts itself shows (``User.public_name``); the apps above add theirs
    through ``hooks.reserved_names``."""
    return [_("Guest"), _("deleted player")]


@cache
def _prototypes() -> dict[str, str]:
    """Character → the prototype of its confusable class. The library keeps each pair of
    confusables.txt both ways (a source lists its one prototype; a prototype lists its sources),
    marking right-to-left characters with U+200E, which is dropped here. A pair of two lone
    characters gets the smaller as its prototype: either is fine, so long as both get the same."""
    table: dict[str, list[str]] = {}
    for key, entries in confusables_data.items():
        table[key.replace("\u200e", "")] = [e["c"].replace("\u200e", "") for e in entries]
    prototypes: dict[str, str] = {}
    for char, others in table.items():
        if len(char) != 1 or len(others) != 1:
            continue  # a prototype (it lists its sources), or a sequence
        other = others[0]
        if len(table.get(other, [])) == 1 and len(other) == 1:
            prototypes[char] = min(char, other)
        else:
            prototypes[char] = other
    return prototypes


def name_skeleton(name: str) -> str:
    """The form two names that look alike share (see the module's text)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFKD", name))
    folded = unicodedata.normalize("NFKD", mapped).casefold()
    remapped = "".join(prototypes.get(char, char) for char in folded)
    return "".join(c for c in remapped if unicodedata.category(c)[0] in "LNS")


def _reserved_skeletons() -> dict[str, str]:
    found: dict[str, str] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for source in [_own_names, *hooks.reserved_names]:
                for name in source():
                    found.setdefault(name_skeleton(str(name)), str(name))
    return found


def name_refusal(name: str, *, exclude_user_id: int | None = None) -> str | None:
    """Why ``name`` may not be a username or display name, or None. ``exclude_user_id``: the
    account the name is for (its own names do not count against it)."""
    from accounts.models import User

    if any(char in BIDI_CONTROLS for char in name):
        return str(BIDI_REFUSED)
    skeleton = name_skeleton(name)
    if not skeleton:
        return None
    reserved = _reserved_skeletons().get(skeleton)
    if reserved is not None:
        return str(LOOKS_LIKE) % {"name": reserved}
    others = User.objects.filter(deleted_at__isnull=True, is_guest=False)
    if exclude_user_id is not None:
        others = others.exclude(pk=exclude_user_id)
    for username, display_name in others.values_list("username", "display_name").iterator():
        for taken in (username, display_name):
            if taken and name_skeleton(taken) == skeleton:
                return str(LOOKS_LIKE) % {"name": taken}
    return None
