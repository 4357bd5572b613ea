"""What players are called: usernames in one script, display names without hidden characters.

A *script* is a writing system as Unicode assigns it to characters: Latin, Cyrillic,
Greek, Han, Hangul and so on. A username that mixes scripts can pass for another player's
("pаypal" with a Cyrillic "а"), so a username is letters of one script, with digits and
"_", "-" and "." (Unicode's UTS #39 lets Japanese mix Han, Hiragana and Katakana, Korean
Han and Hangul, and Chinese Han and Bopomofo, and so do we).

A *display name* is free text, but bidirectional controls (which reorder the text after
them, making "Alice" show as something else), other invisible format and control
characters, and the blank "filler" letters are taken out, and runs of spaces become one.

A name's *skeleton* is what it looks like, as Unicode's UTS #39 defines it: the name in
NFD, each character replaced by the prototype it is confusable with (Unicode's
confusables table: Cyrillic "о" and Latin "o", "1" and "l", "m" and "rn"), then NFD again.
Names are compared regardless of case, so the skeleton is taken of the case-folded name:
"COOP", "coop" and Cyrillic "соор" share one. (Folding first means a capital "I" counts as
an "i", not as the "l" it may look like: "ERIN" and "Erin" must share a skeleton.) Two
players' names (usernames and display names alike) may not share one
(``accounts.services``). ICU computes it (``SpoofChecker.getSkeleton``, through PyICU):
the reference implementation of UTS #39, with the confusables table of its Unicode
version.
"""

from __future__ import annotations

import unicodedata

import icu
from confusable_homoglyphs import categories
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

USERNAME_PUNCTUATION = frozenset("_-.")
# Characters of the Common and Inherited scripts (digits, "_", a combining accent) are
# used by every script and so mix with any.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
SCRIPTS_WRITTEN_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
# Letters that show as nothing at all: the Hangul fillers and the blank Braille pattern.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
SKELETON_LENGTH = 200
"""Characters of a skeleton kept (and indexed): names that look alike for this long pass
for each other. A character's prototype may be several (one Arabic ligature is 18)."""
# ICU's checks of one identifier may be called from many threads on one checker.
_SPOOF_CHECKER = icu.SpoofChecker()


def username_problem(username: str) -> str | None:
    """Why ``username`` (already NFKC-normalised, as Django stores it) is refused, or None."""
    for character in username:
        kind = unicodedata.category(character)
        if kind[0] not in "LMN" and character not in USERNAME_PUNCTUATION:
            return _("A username may hold letters, digits and _ - . only, not %(character)s.") % {
                "character": _shown(character)
            }
        if kind[0] == "N" and kind != "Nd":
            return _("A username may hold plain digits only, not %(character)s.") % {
                "character": _shown(character)
            }
    scripts = {categories.alias(character) for character in username} - SHARED_SCRIPTS
    if len(scripts) > 1 and not any(scripts <= together for together in SCRIPTS_WRITTEN_TOGETHER):
        names = f" {pgettext('joining two names', 'and')} ".join(
            sorted(script.title() for script in scripts)
        )
        return _(
            "A username must be written in one script, as it could otherwise pass for"
            " someone else's: this one mixes %(scripts)s letters."
        ) % {"scripts": names}
    return None


def validate_username(username: str) -> None:
    """The model field's validator: ``username_problem`` as a ``ValidationError``."""
    problem = username_problem(username)
    if problem is not None:
        raise ValidationError(problem, code="invalid")


def display_name_cleaned(text: str) -> str:
    """``text`` without bidirectional controls and other hidden characters, its runs of
    spaces made one and its ends trimmed."""
    kept = []
    for character in unicodedata.normalize("NFC", text):
        if character.isspace():
            kept.append(" ")
        elif (
            unicodedata.category(character) not in HIDDEN_CATEGORIES
            and character not in BLANK_LETTERS
        ):
            kept.append(character)
    return " ".join("".join(kept).split())


def name_skeleton(name: str) -> str:
    """The UTS #39 skeleton of ``name`` case-folded: equal for names that pass for each
    other, cut to ``SKELETON_LENGTH`` characters."""
    return str(_SPOOF_CHECKER.getSkeleton(0, name.casefold()))[:SKELETON_LENGTH]


def _shown(character: str) -> str:
    """A character as a person can read it in a message, even one that shows as nothing."""
    label = " ".join(filter(None, [f"U+{ord(character):04X}", unicodedata.name(character, "")]))
    if character.isprintable() and not character.isspace():
        return f"“{character}” ({label})"
    return label
