"""The shared draw: sides fed by winners and losers, byes that advance, results recorded once.

A third-place match fed by the losing semi-finalists stands in for the consolation flights and
losers' brackets that later formats lay out the same way.
"""

import pytest

from tournaments.formats.base import (
    BYE,
    DrawInvariantError,
    Flight,
    LoserOf,
    Pairing,
    PairingKey,
    Result,
    WinnerOf,
    build_draw,
    call_off,
    record_results,
)


def key(round_: int, position: int) -> PairingKey:
    return PairingKey(Flight.MAIN, round_, position)


def with_third_place_match(top_left, bottom_left, top_right, bottom_right):
    return build_draw(
        [
            Pairing(key(0, 0), top_left, bottom_left, 5),
            Pairing(key(0, 1), top_right, bottom_right, 5),
            Pairing(key(1, 0), WinnerOf(key(0, 0)), WinnerOf(key(0, 1)), 7),
            Pairing(key(1, 1), LoserOf(key(0, 0)), LoserOf(key(0, 1)), 5),
        ]
    )


def test_the_losers_of_the_semi_finals_meet_in_the_third_place_match():
    draw = with_third_place_match(1, 4, 2, 3)

    draw = record_results(draw, [Result(key(0, 0), 1), Result(key(0, 1), 3)])

    final, third_place = draw.rounds()[1]
    assert (final.top, final.bottom) == (1, 3)
    assert (third_place.top, third_place.bottom) == (4, 2)
    assert draw.ready() == (final, third_place)


def test_a_player_whose_opponent_can_only_be_a_bye_advances_without_playing():
    draw = with_third_place_match(1, BYE, 2, 3)

    assert draw.pairing(key(0, 0)).winner == 1
    assert draw.pairing(key(1, 1)).bottom == LoserOf(key(0, 1))

    draw = record_results(draw, [Result(key(0, 1), 2)])

    third_place = draw.pairing(key(1, 1))
    assert (third_place.top, third_place.bottom, third_place.winner) == (BYE, 3, 3)
    assert draw.ready() == (draw.pairing(key(1, 0)),)


def test_a_pairing_with_two_byes_is_a_layout_bug():
    with pytest.raises(DrawInvariantError, match="two byes"):
        with_third_place_match(1, BYE, BYE, BYE)


def test_a_side_waiting_for_a_pairing_outside_the_draw_is_a_layout_bug():
    with pytest.raises(DrawInvariantError, match="waits for unknown"):
        build_draw([Pairing(key(1, 0), WinnerOf(key(0, 0)), 1, 5)])


def test_two_pairings_in_the_same_place_are_a_layout_bug():
    with pytest.raises(DrawInvariantError, match="share a key"):
        build_draw([Pairing(key(0, 0), 1, 2, 5), Pairing(key(0, 0), 3, 4, 5)])


def test_a_match_called_off_sends_the_named_player_on_and_nobody_loses():
    draw = with_third_place_match(1, 4, 2, 3)
    draw = call_off(draw, key(0, 0), advancing=4)
    called_off = draw.pairing(key(0, 0))
    assert called_off.winner == 4
    assert called_off.loser is BYE
    assert draw.pairing(key(1, 0)).top == 4
    assert draw.source(key(1, 0), "top") == WinnerOf(key(0, 0))


def test_calling_off_a_decided_match_or_naming_someone_not_in_it_is_a_bug():
    draw = record_results(with_third_place_match(1, 4, 2, 3), [Result(key(0, 0), 1)])
    with pytest.raises(DrawInvariantError, match="already decided"):
        call_off(draw, key(0, 0), advancing=1)
    with pytest.raises(DrawInvariantError, match="not playing"):
        call_off(draw, key(0, 1), advancing=1)
