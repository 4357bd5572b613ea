"""Words of the project left in English on a page served in another language.

A page is rendered twice from the same rows, once in English and once in the language under
test. What is translated differs between the two; what reads the same in both is either the
players' own data (names, chat, numbers, dates, positions) or a string the project forgot to
translate. The players' data are named by the test (``data``) and masked, as are numbers and
the words that are the same in both languages (``SAME_IN_BOTH``); whatever English is left
is reported with the element it sits in.

Text inside an element marked ``translate="no"`` (the HTML attribute that tells translation
tools to leave something alone: a position ID, a move in notation) is not looked at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser

# Words Italian writes as English does: backgammon's own terms as the Italian rooms use them,
# names and abbreviations.
SAME_IN_BOTH = frozenset(
    word.lower()
    for word in (
        "Crawford", "backgammon", "gammon", "GNU", "API", "REST", "FUN", "REAL", "PR", "ID",
        "XGID", "GNUBG", "AGPL", "match", "Sit", "Go", "ok", "email", "e-mail", "password",
        "rating", "Elo", "Kazaross", "XG2", "Jacoby", "beaver", "Holland", "UTC", "online",
        "offline", "AsyncAPI", "OpenAPI", "Swagger", "bot", "chat", "Italiano", "English", "staff",
        "raccoon", "Post-Crawford", "equity", "Esc", "Satellite", "Swing", "Bu", "SB",
    )
)  # fmt: skip
SKIPPED_ELEMENTS = {"script", "style", "template", "code", "pre", "svg", "noscript"}
VOID_ELEMENTS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


class _Texts(HTMLParser):
    """Each text a reader meets, with the tag it sits in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[str, str]] = []
        self._open: list[tuple[str, bool]] = []  # (tag, skipped)

    @property
    def _skipping(self) -> bool:
        return bool(self._open) and self._open[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        skipped = self._skipping or tag in SKIPPED_ELEMENTS or values.get("translate") == "no"
        if not skipped:
            for name in READ_ATTRIBUTES:
                if values.get(name):
                    self.texts.append((f"{tag}[{name}]", str(values[name])))
            if (
                tag == "input"
                and values.get("type") in {"submit", "button"}
                and values.get("value")
            ):
                self.texts.append(("input[value]", str(values["value"])))
        if tag not in VOID_ELEMENTS:
            self._open.append((tag, skipped))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                return

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skipping:
            self.texts.append((self._open[-1][0] if self._open else "", text))


def countries_named_alike() -> list[str]:
    """The countries of the profile's list that Italian names as English does ("Canada"):
    their names come translated with the list."""
    from django.utils import translation
    from django_countries import countries

    names = {}
    for language in ("en", "it"):
        with translation.override(language):
            names[language] = {code: str(name) for code, name in countries}
    return [name for code, name in names["en"].items() if names["it"][code] == name]


def texts(html: str) -> list[tuple[str, str]]:
    """Every text of a page a reader sees or hears, as (where, text)."""
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.texts


def english_words(text: str, data: Iterable[str]) -> list[str]:
    """The words of ``text`` that are neither data nor the same in both languages."""
    for value in sorted((value for value in data if value), key=len, reverse=True):
        text = text.replace(value, " ")
    return [
        word for word in WORD.findall(text) if len(word) > 1 and word.lower() not in SAME_IN_BOTH
    ]


def untranslated(english: str, translated: str, data: Iterable[str] = ()) -> list[str]:
    """The texts of ``translated`` that read as they do in ``english``, with words left
    once data and shared words are masked: each as "<where>: text"."""
    data = list(data)
    in_english = {text for _, text in texts(english)}
    found: list[str] = []
    for where, text in texts(translated):
        if text in in_english and english_words(text, data):
            found.append(f"<{where}>: {text}")
    return sorted(set(found))
