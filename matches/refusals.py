"""The rules core's refusals in the reader's language.

The core (``backgammon``) knows no language: a `BackgammonError` carries its sentence with
named blanks, marked for the catalog, and the values that fill them (``backgammon.errors``).
Here the sentence is translated in the active language (the request's, or the socket page's)
and its blanks filled; a list ("5 and 3") is joined with that language's word.
"""

from __future__ import annotations

from functools import reduce

from django.utils.translation import gettext

from backgammon.errors import BackgammonError, Listed


def rules_refused(error: BackgammonError) -> str:
    """Why the rules refused, in the active language."""
    sentence = gettext(error.sentence)
    if not error.values:
        return sentence
    return sentence % {name: _written(value) for name, value in error.values.items()}


def _written(value: object) -> object:
    if not isinstance(value, Listed):
        return value
    pair = (
        gettext("%(first)s or %(second)s")
        if value.word == "or"
        else gettext("%(first)s and %(second)s")
    )
    return reduce(lambda first, second: pair % {"first": first, "second": second}, value.items)
