"""GNU Backgammon Match ID: known IDs, round trips, agreement with gnubg, refusals."""

from __future__ import annotations

import base64

import gnubg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon.cube import Cube, CubeRules, double
from backgammon.errors import InvalidPosition
from backgammon.game import ResultKind
from backgammon.match import MatchOptions, MatchState
from backgammon.matchid import GameState, MatchId


@pytest.mark.parametrize(
    ("text", "match_id"),
    [
        # the GNU Backgammon manual's examples: a money game before the first roll, written
        # before the Jacoby bit existed ...
        (
            "cAgAAAAAAAAA",
            MatchId(player_on_roll=1, turn=1, game_state=GameState.NO_GAME, jacoby=True),
        ),
        # ... and a 9-point match at 2-4, player 1 on roll with 52, player 0 owning a 2 cube
        (
            "QYkqASAAIAAA",
            MatchId(
                cube_value=2,
                cube_owner=0,
                player_on_roll=1,
                turn=1,
                dice=(5, 2),
                length=9,
                score=(2, 4),
                jacoby=True,
            ),
        ),
        # written by gnubg 1.x for a new 7-point match with 32 rolled
        ("cInpAAAAAAAE", MatchId(player_on_roll=1, turn=1, dice=(3, 2), length=7)),
    ],
)
def test_known_match_ids_decode_and_encode_back(text: str, match_id: MatchId) -> None:
    assert MatchId.decode(text) == match_id
    assert match_id.encode() == text


match_ids = st.builds(
    MatchId,
    cube_value=st.sampled_from([1 << n for n in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.sampled_from([0, 1]),
    crawford=st.booleans(),
    game_state=st.sampled_from(GameState),
    turn=st.sampled_from([0, 1]),
    double_offered=st.booleans(),
    resignation=st.sampled_from([None, *ResultKind]),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


@given(match_ids)
def test_every_match_id_survives_a_round_trip(match_id: MatchId) -> None:
    text = match_id.encode()

    assert len(text) == 12
    assert MatchId.decode(text) == match_id


@given(
    cube_log=st.integers(0, 12),
    owner=st.sampled_from([None, 0, 1]),
    on_roll=st.sampled_from([0, 1]),
    extra_length=st.integers(1, 64),
    score=st.tuples(st.integers(0, 63), st.integers(0, 63)),
    crawford=st.booleans(),
    # gnubg's pos_info puts the higher die first
    dice=st.none()
    | st.tuples(st.integers(1, 6), st.integers(1, 6))
    .map(sorted)
    .map(lambda dice: (dice[1], dice[0])),
    resignation=st.sampled_from([None, *ResultKind]),
    doubled=st.booleans(),
)
def test_match_ids_agree_with_gnubg(
    cube_log: int,
    owner: int | None,
    on_roll: int,
    extra_length: int,
    score: tuple[int, int],
    crawford: bool,
    dice: tuple[int, int] | None,
    resignation: ResultKind | None,
    doubled: bool,
) -> None:
    # gnubg knows only scores below the match length
    length = max(score) + extra_length
    resigned = resignation is not None
    state = GameState.RESIGNED if resigned else GameState.PLAYING
    acting = 1 - on_roll if resigned or doubled else on_roll
    ours = MatchId(
        cube_value=1 << cube_log,
        cube_owner=owner,
        player_on_roll=on_roll,
        crawford=crawford,
        game_state=state,
        turn=acting,
        double_offered=doubled,
        resignation=resignation,
        dice=dice,
        length=length,
        score=score,
    )
    cube_info = gnubg.cube_info(
        1 << cube_log, -1 if owner is None else owner, on_roll, length, score, int(crawford), 0
    )
    position_info = gnubg.pos_info(
        acting, resignation.value if resignation else 0, int(doubled), state.value, dice or (0, 0)
    )

    assert ours.encode() == gnubg.match_id(cube_info, position_info)


def test_money_play_writes_the_jacoby_rule_as_gnubg_does() -> None:
    session = MatchState(length=0, options=MatchOptions(jacoby=True))
    cube_info = gnubg.cube_info(1, -1, 0, 0, (0, 0), 0, 0)
    position_info = gnubg.pos_info(0, 0, 0, 1, (0, 0))

    match_id = MatchId.of(session, Cube(), player_on_roll=0)

    assert match_id.encode() == gnubg.match_id(cube_info, position_info) == "MAEAAAAAAAAA"


def test_a_match_id_of_a_game_waiting_for_an_answer_to_a_double() -> None:
    match = MatchState(length=7, score=(2, 4))
    cube = double(Cube(value=2, owner=1), CubeRules(), player=1, on_roll=1, rolled=False)

    match_id = MatchId.of(match, cube, player_on_roll=1)

    assert match_id == MatchId(
        cube_value=2,
        cube_owner=1,
        player_on_roll=1,
        turn=0,
        double_offered=True,
        length=7,
        score=(2, 4),
    )
    assert match_id.encode() == gnubg.match_id(
        gnubg.cube_info(2, 1, 1, 7, (2, 4), 0, 0), gnubg.pos_info(0, 0, 1, 1, (0, 0))
    )


def test_a_match_id_of_a_resignation_names_the_player_who_answers() -> None:
    match = MatchState(length=5, score=(4, 1), crawford=True)

    match_id = MatchId.of(
        match,
        Cube(),
        player_on_roll=0,
        dice=(6, 5),
        game_state=GameState.RESIGNED,
        resignation=ResultKind.GAMMON,
        resigned_by=0,
    )

    assert (match_id.turn, match_id.crawford, match_id.resignation) == (1, True, ResultKind.GAMMON)
    assert MatchId.decode(match_id.encode()) == match_id


def _text(bits: int) -> str:
    return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cAgAAAAAAAA", "A Match ID has 12 characters; 'cAgAAAAAAAA' has 11"),
        (
            "cAgAAAAAAA!A",
            "'cAgAAAAAAA!A' is not a Match ID: it may hold only letters, digits, '+' and '/'",
        ),
        (_text(1 << 67), "it has bits past the last field"),
        (_text(2 << 4), "its cube owner is unknown"),
        (_text(5 << 8), "its game state is unknown"),
        (_text(7 << 15 | 1 << 18), "its dice are not a roll"),
        (_text(3 << 15), "its dice are not a roll"),
    ],
)
def test_a_text_that_is_not_a_match_id_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidPosition) as refused:
        MatchId.decode(text)

    assert str(refused.value) in (message, f"{text!r} is not a Match ID: {message}")
