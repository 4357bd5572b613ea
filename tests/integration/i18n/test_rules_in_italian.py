"""The rules core's refusals read in the language of the request: an illegal play and a
refused double sent over the API, and a refusal whose dice are listed with the reader's "and"
(``matches.refusals``). In English they stay the sentences the core writes."""

from __future__ import annotations

import pytest
from django.utils import translation

from backgammon.board import Board
from backgammon.errors import IllegalPlay
from backgammon.validate import validate_play
from matches.refusals import rules_refused
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, start_match

pytestmark = pytest.mark.django_db


def _refused(action: dict[str, object], language: str) -> tuple[int, str]:
    """What the API answers the player on roll of a new match for ``action``."""
    alice, bruno = UserFactory.create(), UserFactory.create()
    match_id = start_match(alice, bruno, length=3)
    mover = api_for(alice).get(f"/api/matches/{match_id}/").json()["game"]["turn"]
    client = api_for(alice if mover == alice.username else bruno)
    response = client.post(
        f"/api/matches/{match_id}/actions/",
        {**action, "seq": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    return response.status_code, response.json()["detail"]


@pytest.mark.parametrize(
    ("play", "english", "italian"),
    [
        (
            "6/7",
            "Checkers move toward your home board: 6/7 goes the wrong way",
            "Le pedine si muovono verso la tua casa: 6/7 va nella direzione sbagliata",
        ),
        ("3/1", "You have no checker on point 3", "Non hai pedine sulla punta 3"),
    ],
)
def test_an_illegal_play_is_refused_in_the_players_language(
    play: str, english: str, italian: str
) -> None:
    assert _refused({"type": "play", "play": play}, "it") == (400, italian)
    assert _refused({"type": "play", "play": play}, "en") == (400, english)


def test_a_double_after_rolling_is_refused_in_the_players_language() -> None:
    assert _refused({"type": "double"}, "it") == (
        400,
        "Si può raddoppiare solo prima di tirare i dadi",
    )
    assert _refused({"type": "double"}, "en") == (400, "Doubling is only allowed before you roll")


def test_the_dice_left_are_listed_with_the_readers_and() -> None:
    with pytest.raises(IllegalPlay) as refusal:
        validate_play(Board.initial(), (4, 4), "13/9 13/8")

    with translation.override("it"):
        italian = rules_refused(refusal.value)
    with translation.override("en"):
        english = rules_refused(refusal.value)

    assert italian == "13/8 non corrisponde ai dadi che ti restano: 4 e 4 e 4"
    assert (
        english == str(refusal.value) == ("13/8 does not fit the dice you have left: 4 and 4 and 4")
    )
