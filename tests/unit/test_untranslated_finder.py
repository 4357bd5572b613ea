"""The finder of words left in English (``tests.untranslated``) finds them, and only them."""

from __future__ import annotations

from tests.untranslated import texts, untranslated

ENGLISH = """<html><body><h1>Tournaments</h1><p title="Your wallet">Alice doubles</p>
<button aria-label="Menu">≡</button><span translate="no">4HPwATDgc/ABMA:cAkAAAAAAAAA</span>
<p>12.50 FUN</p><script>const words = "left alone";</script><p>Crawford</p>
<input type="submit" value="Play"><p hidden>Waiting for a move</p></body></html>"""


def test_every_text_a_reader_meets_is_read() -> None:
    found = [text for _, text in texts(ENGLISH)]

    assert found == [
        "Tournaments", "Your wallet", "Alice doubles", "Menu", "≡", "12.50 FUN", "Crawford",
        "Play", "Waiting for a move",
    ]  # fmt: skip


def test_a_page_translated_throughout_has_nothing_left() -> None:
    italian = (
        ENGLISH.replace("Tournaments", "Tornei")
        .replace("Your wallet", "Il tuo portafoglio")
        .replace("doubles", "raddoppia")
        .replace('"Menu"', '"Menù"')
        .replace('"Play"', '"Gioca"')
        .replace("Waiting for a move", "In attesa di una mossa")
    )

    assert untranslated(ENGLISH, italian, data=["Alice"]) == []


def test_each_text_left_in_english_is_named_with_its_element() -> None:
    italian = ENGLISH.replace("Tournaments", "Tornei").replace("doubles", "raddoppia")

    assert untranslated(ENGLISH, italian, data=["Alice"]) == [
        "<button[aria-label]>: Menu",
        "<input[value]>: Play",
        "<p>: Waiting for a move",
        "<p[title]>: Your wallet",
    ]


def test_a_players_own_words_are_data_not_english() -> None:
    english = "<p>Alice Springs</p>"

    assert untranslated(english, english, data=["Alice Springs"]) == []
    assert untranslated(english, english) == ["<p>: Alice Springs"]
