"""Reading .mat files as other programs write them, and refusing, line by line, the rest.

The sample files are in tests/data/mat/imports; test_mat_gnubg.py checks that GNU
Backgammon's own import reads each of them as we do (or says where it does not).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backgammon.errors import BackgammonError, IllegalPlay
from backgammon.matfile import (
    CubeAction,
    CubeDecision,
    Ending,
    EndKind,
    GameRecord,
    MatRecord,
    Roll,
    format_mat,
    game_ending,
    parse_mat,
    replay,
)
from tests.unit.backgammon.test_mat_writer import play_random_match

IMPORTS = Path(__file__).resolve().parents[2] / "data" / "mat" / "imports"

RESIGNED = {level: Ending(EndKind.RESIGNED, level) for level in (1, 2, 3)}
DROPPED = Ending(EndKind.DROPPED, 1)


def sample(name: str) -> MatRecord:
    """A sample file read from its bytes: byte order mark and line ends as written."""
    return parse_mat((IMPORTS / name).read_bytes().decode("utf-8"))


def results(record: MatRecord) -> list[tuple[tuple[int, int], int | None, int, Ending | None]]:
    """Each game's score before it, winner, points and how it ended."""
    return [
        (game.score_before, game.winner, game.points, game_ending(game)) for game in record.games
    ]


def test_wins_rows_are_read_in_every_wording() -> None:
    # "Wins 1 point", "Wins 2 points", "Wins 1 point(s) and the match"
    record = sample("wins_wordings.mat")

    assert results(record) == [
        ((0, 0), 1, 1, DROPPED),
        ((0, 1), 0, 2, RESIGNED[1]),
        ((2, 1), 0, 2, RESIGNED[2]),
        ((4, 1), 1, 1, RESIGNED[1]),
        ((4, 2), 1, 2, RESIGNED[1]),
        ((4, 4), 1, 1, RESIGNED[1]),
    ]
    assert [game.crawford for game in record.games] == [False, False, False, True, False, False]
    assert record.final_score == (4, 5)


def test_a_pass_is_read_from_cannot_move_cant_move_or_nothing_after_the_dice() -> None:
    record = sample("passes.mat")

    dances = [Roll(0, (2, 1), ""), Roll(1, (6, 6), ""), Roll(1, (5, 6), "")]
    for game, dance in zip(record.games, dances, strict=True):
        index = game.actions.index(dance)
        positions = replay(game)
        # nothing moved: the next player sees the board the dancer saw, turned round
        assert positions[index + 1] == positions[index].swapped()
    assert results(record) == [
        ((0, 0), 0, 1, DROPPED),
        ((1, 0), 1, 1, RESIGNED[1]),
        ((1, 1), 1, 2, RESIGNED[2]),
    ]


def test_nothing_after_the_dice_of_a_roll_with_one_legal_play_is_that_play() -> None:
    game = sample("passes.mat").games[2]

    forced = game.actions.index(Roll(1, (3, 4), ""))
    positions = replay(game)

    # both checkers on the bar entered: 25/22 25/21 was the only play
    assert positions[forced].on_bar == (2, 0)
    assert positions[forced + 1].on_bar[1] == 0


def test_a_roll_followed_by_a_result_was_resigned_after_rolling() -> None:
    # eXtreme Gammon writes "????" (three or four) where the play would be
    record = sample("resign_after_roll.mat")

    assert [game.actions[-1] for game in record.games] == [
        Roll(0, (6, 3), ""),
        Roll(0, (5, 2), ""),
    ]
    # a gammon on a cube of 1, then a backgammon on a cube of 2
    assert results(record) == [((0, 0), 1, 2, RESIGNED[2]), ((0, 2), 1, 6, RESIGNED[3])]


def test_layout_is_forgiven_blank_lines_tabs_bare_numbers_missing_spaces_comments() -> None:
    record = sample("layout_forgiven.mat")

    assert record.players == ("José María 2", "Zoë 77")
    assert record.tags == (("EventDate", "2024.05.12"), ("Site", "Club night"))
    assert record.crawford_rule
    assert record.games[0].actions == (
        Roll(0, (4, 2), "8/4 6/4"),
        Roll(1, (6, 1), "13/7 8/7"),
        Roll(0, (6, 3), "13/7 13/10"),
        CubeDecision(1, CubeAction.DOUBLE, 2),
        CubeDecision(0, CubeAction.TAKE),
        Roll(1, (5, 2), "13/8 13/11"),
    )
    assert results(record) == [((0, 0), 0, 2, RESIGNED[1]), ((2, 0), 1, 1, RESIGNED[1])]
    assert record.games[1].crawford


def test_a_file_with_a_byte_order_mark_and_windows_line_ends_is_read() -> None:
    raw = (IMPORTS / "xg_export.mat").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in raw

    record = sample("xg_export.mat")

    assert record.players == ("Jorge", "XG Roller+")
    assert record.length == 0
    assert record.tags[:4] == (
        ("Site", "XG Mobile"),
        ("Match ID", "1714093"),
        ("Player 1", "Jorge"),
        ("Player 2", "XG Roller+"),
    )
    assert ("Jacoby", "On") in record.tags
    assert ("CubeLimit", "1024") in record.tags
    assert results(record) == [((0, 0), 0, 1, DROPPED), ((1, 0), 1, 1, RESIGNED[1])]
    assert record.games[1].actions[-1] == Roll(0, (6, 3), "")


def test_the_last_game_of_a_match_cut_off_is_kept_unfinished() -> None:
    record = sample("unfinished.mat")

    assert results(record) == [((0, 0), 0, 1, DROPPED), ((1, 0), None, 0, None)]
    assert record.games[1].actions[-1] == CubeDecision(0, CubeAction.DOUBLE, 2)
    assert record.final_score == (1, 0)


def test_a_file_ending_after_a_game_line_and_its_score_keeps_an_empty_game() -> None:
    # (after the match was over it is refused: GNU Backgammon does not import that file)
    text = HEADER + "  1) 31: 8/5 6/5\n      Wins 1 point\n\n Game 2\n Alice : 1    Bob : 0\n"

    record = parse_mat(text)

    assert record.games[-1] == GameRecord((1, 0), (), None, 0)


def test_a_money_session_is_a_0_point_match_with_running_totals() -> None:
    record = sample("money_running_totals.mat")

    assert record.length == 0
    assert not any(game.crawford for game in record.games)
    assert results(record) == [
        ((0, 0), 1, 2, DROPPED),
        ((0, 2), 0, 2, RESIGNED[1]),
        ((2, 2), 1, 1, RESIGNED[1]),
    ]
    assert record.final_score == (2, 3)


def test_galaxy_s_losses_row_gives_the_game_to_the_other_player() -> None:
    record = sample("galaxy_losses.mat")

    assert record.players == ("marta_k", "Quintus")
    assert results(record) == [
        ((0, 0), 0, 1, DROPPED),
        ((1, 0), 1, 2, RESIGNED[1]),
        ((1, 2), 0, 1, RESIGNED[1]),
        ((2, 2), 1, 1, DROPPED),
    ]


def test_a_backgammon_studio_export_with_words_after_the_game_number_is_read() -> None:
    record = sample("bgstudio_export.mat")

    assert record.players == ("Anne Marie", "Tom 2")
    assert ("Round", "Final") in record.tags
    assert results(record) == [((0, 0), 1, 2, RESIGNED[1])]


def test_beavers_and_raccoons_turn_the_cube_and_keep_it() -> None:
    record = sample("beavers.mat")

    first, second = record.games
    assert CubeDecision(0, CubeAction.BEAVER, 4) in first.actions
    # a beaver of the beaver is a raccoon
    assert second.actions[2:5] == (
        CubeDecision(1, CubeAction.DOUBLE, 2),
        CubeDecision(0, CubeAction.BEAVER, 4),
        CubeDecision(1, CubeAction.RACCOON, 8),
    )
    # Alice, who beavered, redoubles to 8 and Bob drops 4; Alice resigns a single on 8
    assert results(record) == [((0, 0), 0, 4, DROPPED), ((4, 0), 1, 8, RESIGNED[1])]


HEADER = " 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"


def test_raccoons_may_be_written_as_such_and_doubles_without_their_value() -> None:
    text = (
        HEADER + "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
        "  2) 64: 24/18 13/9               Doubles\n"
        "  3)  Beavers => 4                Raccoons => 8\n"
        "      Wins 8 points\n"
    )

    actions = parse_mat(text).games[0].actions

    assert actions[3:] == (
        CubeDecision(1, CubeAction.DOUBLE, 2),
        CubeDecision(0, CubeAction.BEAVER, 4),
        CubeDecision(1, CubeAction.RACCOON, 8),
    )


def test_a_lone_entry_pushed_right_by_tabs_is_player_1_s() -> None:
    text = HEADER + "  1)\t\t\t31: 8/5 6/5\n  2)\t42: 8/4 6/4\t\t\tDoubles => 2\n"

    actions = parse_mat(text).games[0].actions

    assert [action.player for action in actions] == [1, 0, 1]


@pytest.mark.parametrize("written", ["CAN'T MOVE", "can't move", "Cannot move", "????", "???"])
def test_a_pass_may_be_written_in_any_case(written: str) -> None:
    text = (IMPORTS / "passes.mat").read_text().replace("21: Cannot Move", f"21: {written}")

    assert parse_mat(text).games[0].actions[5] == Roll(0, (2, 1), "")


def test_a_game_whose_end_has_no_result_row_is_won_as_the_board_says() -> None:
    # given games ended by bearing off and by a drop, their result rows taken out
    played = play_random_match(seed=11, length=7)
    assert {"single", "drop", "resign"} <= set(played.endings)
    text = format_mat(played.record)
    without = re.sub(r"Wins \d+ points?", "", text)

    # when read
    record = parse_mat(without)

    # then those games keep their winner and points; the resigned ones are unfinished
    for game, ending, read in zip(played.record.games, played.endings, record.games, strict=True):
        if ending == "resign":
            assert (read.winner, read.points) == (None, 0)
        else:
            assert (read.winner, read.points) == (game.winner, game.points)


def test_a_wins_row_and_a_losses_row_that_agree_are_one_result() -> None:
    text = HEADER + "  1) 31: 8/5 6/5                 Losses 1 point\n      Wins 1 point\n"

    assert results(parse_mat(text)) == [((0, 0), 0, 1, RESIGNED[1])]


def test_of_two_different_results_the_last_stands() -> None:
    # Backgammon Galaxy ends a match resigned with a "Losses" row and then the match's
    # "Wins" row, which may disagree: GNU Backgammon keeps the last result it reads
    text = HEADER + (
        "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
        " Losses 2 point\n"
        "\n"
        "      Wins 2 point and the match\n"
    )

    assert results(parse_mat(text)) == [((0, 0), 0, 2, RESIGNED[2])]


def test_the_last_result_must_still_name_the_player_who_bore_off() -> None:
    played = play_random_match(seed=11, length=7)
    borne_off = played.endings.index("single")
    game = played.record.games[borne_off]
    assert game.winner is not None
    record = MatRecord(played.record.players, 7, played.record.games[: borne_off + 1])
    text = format_mat(record).rstrip("\n")
    loser_wins = " " * 5 + ("" if game.winner else " " * 28) + f"Wins {game.points} points"
    last_game = text.rsplit(" Game ", 1)[1]
    wins_line = last_game.splitlines()[-1]

    with pytest.raises(BackgammonError, match="the result names the loser"):
        parse_mat(text.replace(wins_line, wins_line + "\n" + loser_wins))


@pytest.mark.parametrize(
    ("score_line", "players"),
    [
        ("  : 0                            lasse : 0", ("Player 0", "lasse")),
        (" lasse : 0                        : 0", ("lasse", "Player 1")),
        (" : 0      : 0", ("Player 0", "Player 1")),
        (" Player 1 : 0                        : 0", ("Player 1", "Player 1 (2)")),
    ],
    ids=["left", "right", "both", "placeholder-taken"],
)
def test_an_empty_name_becomes_the_placeholder_gnu_backgammon_gives_it(
    score_line: str, players: tuple[str, str]
) -> None:
    # Backgammon Galaxy writes a player who closed their account with no name
    text = (
        " 3 point match\n\n Game 1\n" + score_line + "\n"
        "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
        "      Wins 1 point\n\n Game 2\n" + score_line.replace(": 0", ": 1", 1) + "\n"
        "  1) 42: 8/4 6/4\n"
    )

    record = parse_mat(text)

    assert record.players == players
    assert parse_mat(format_mat(record)).players == players


def test_a_move_number_followed_by_nothing_is_an_empty_row() -> None:
    # Backgammon Studio numbers a row after the game's last ("24)") and writes nothing on
    # it; a number alone, without its parenthesis, GNU Backgammon passes over too
    text = HEADER + (
        "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
        "  2)  Doubles => 2                Drops\n"
        "  3)\n"
        "      Wins 1 point\n"
        " 24)\n"
        " 25\n"
        "\n Game 2\n Alice : 1                      Bob : 0\n"
        "  1)\n"
        "  2)                             52: 13/8 13/11\n"
        " 24)"
    )

    record = parse_mat(text)

    assert results(record) == [((0, 0), 0, 1, DROPPED), ((1, 0), None, 0, None)]
    assert record.games[1].actions == (Roll(1, (5, 2), "13/8 13/11"),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", 'no "N point match" line: this is not a .mat file'),
        (" 5 point match\n", "no game in the file"),
        (
            '; [Site "x"]\n Game 1\n A : 0   B : 0\n',
            'line 2: no "N point match" line before the first game',
        ),
        (
            " 5 point match\n Game 1\n  1) 31: 8/5 6/5\n",
            "line 3: '1) 31: 8/5 6/5' is not a score line, like 'Alice : 0   Bob : 0'",
        ),
        (
            " 5 point match\n\n Game 1\n\n",
            "line 3: the game has no score line, like 'Alice : 0   Bob : 0'",
        ),
        (
            HEADER + "  1) 31: 8/5 hello\n",
            "line 5: 'hello' is not a roll, a cube action or a result",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5  52: 13/8 13/11  Doubles => 2\n",
            "line 5: a row holds two entries at most, one for each player",
        ),
        (
            HEADER + "      Wins 1 point\n  1) 31: 8/5 6/5\n",
            "line 6: the game goes on after its result",
        ),
        (HEADER + "      Wins 0 points\n", "line 5: a game is won for one point at least"),
        (
            HEADER + "  1) 31: 8/5 6/5\n  2) 42: 8/4 6/4\n",
            "line 6: the same player cannot roll twice in a row",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Doubles => 2\n  2) 42: 8/4 6/4\n",
            "line 6: the double must be taken or dropped before the next roll",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Takes\n",
            "line 5: a take answers a double, and none is offered",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Beavers => 4\n",
            "line 5: a beaver answers the opponent's double, and none is offered",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Beavers => 4                Drops\n",
            "line 6: a beaver cannot be dropped",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                 52: 13/8 13/11\n"
            "  2)                              Doubles => 2\n",
            "line 6: a player may double only before their own roll",
        ),
        (
            " 3 point match\n Game 1\n A : 2                      B : 0\n"
            "  1) 31: 8/5 6/5                  Doubles => 2\n",
            "line 4: nobody may double in the Crawford game",
        ),
        (
            HEADER + "  1) 31:                         52: 13/8 13/11\n",
            "line 5: the 3-1 rolled before this has no play written, though one was legal",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_naming_the_line_and_why(
    text: str, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        parse_mat(text)

    assert str(refused.value) == message


MONEY = " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
BIG = "9" * 5000  # past the digits Python turns into an int without complaint


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            " 99999999 point match\n\n Game 1\n A : 0   B : 0\n",
            "line 1: a match is 64 points at most (the longest GNU Backgammon analyses),"
            " not 99999999",
        ),
        (
            f" {BIG} point match\n\n Game 1\n A : 0   B : 0\n",
            "line 1: a match is 64 points at most (the longest GNU Backgammon analyses),"
            " not 999999999999…",
        ),
        (
            " 65 point match\n\n Game 1\n A : 0   B : 0\n",
            "line 1: a match is 64 points at most (the longest GNU Backgammon analyses), not 65",
        ),
        (
            " 5 point match\n\n Game 1\n Alice : 5                      Bob : 0\n",
            "line 4: Alice has 5 points of the 5-point match: it was over before this game",
        ),
        (
            MONEY.replace("Alice : 0", "Alice : 99999999"),
            "line 4: a score is 32767 at most (what a GNU Backgammon Match ID holds), not 99999999",
        ),
        (
            MONEY.replace("Bob : 0", f"Bob : {BIG}"),
            "line 4: a score is 32767 at most (what a GNU Backgammon Match ID holds),"
            " not 999999999999…",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Doubles => 99999999\n",
            "line 5: a cube is 32768 at most (what a GNU Backgammon Match ID holds), not 99999999",
        ),
        (
            HEADER + f"  1) 31: 8/5 6/5                  Doubles => {BIG}\n",
            "line 5: a cube is 32768 at most (what a GNU Backgammon Match ID holds),"
            " not 999999999999…",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Doubles => 3\n",
            "line 5: a double turns the cube to a power of two of 2 or more, not 3",
        ),
        (
            HEADER + "  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Beavers => 2                Drops\n",
            "line 6: a beaver turns the cube to a power of two of 4 or more, not 2",
        ),
        (
            HEADER + "      Wins 99999999 points\n",
            "line 5: a game scores 98304 points at most (a backgammon at the largest cube),"
            " not 99999999",
        ),
        (
            HEADER + f"      Wins {BIG} points\n",
            "line 5: a game scores 98304 points at most (a backgammon at the largest cube),"
            " not 999999999999…",
        ),
    ],
    ids=[
        "length",
        "length-digits",
        "length-65",
        "score-reaches-length",
        "money-score",
        "money-score-digits",
        "cube",
        "cube-digits",
        "cube-not-doubled",
        "beaver-not-doubled",
        "points",
        "points-digits",
    ],
)
def test_a_number_past_what_can_be_analysed_is_refused_naming_the_line(
    text: str, message: str
) -> None:
    with pytest.raises(BackgammonError) as refused:
        parse_mat(text)

    assert str(refused.value) == message


def test_the_longest_match_and_the_largest_numbers_are_read() -> None:
    longest = parse_mat(" 64 point match\n\n Game 1\n A : 63   B : 0\n  1) 31: 8/5 6/5\n")
    money = parse_mat(MONEY.replace("Alice : 0", "Alice : 32767") + "  1) 31: 8/5 6/5\n")
    game_number = parse_mat(HEADER.replace("Game 1", f"Game {BIG}") + "  1) 31: 8/5 6/5\n")

    assert (longest.length, longest.games[0].score_before) == (64, (63, 0))
    assert money.games[0].score_before == (32767, 0)
    # a game's number is read as a marker only: games are numbered again when written
    assert " Game 1\n" in format_mat(game_number)


def test_an_illegal_play_is_refused_naming_the_line_the_play_and_the_rule() -> None:
    text = HEADER + "  1) 61: 8/3 6/3\n"

    with pytest.raises(IllegalPlay) as refused:
        parse_mat(text)

    assert str(refused.value).startswith("line 5: 8/3 6/3 is not a legal play of 6-1 here: ")


def test_a_result_naming_the_loser_of_a_game_borne_off_is_refused() -> None:
    played = play_random_match(seed=11, length=7)
    borne_off = played.endings.index("single")
    record = played.record
    games = list(record.games)
    game = games[borne_off]
    assert game.winner is not None
    games[borne_off] = GameRecord(
        game.score_before, game.actions, 1 - game.winner, game.points, game.crawford
    )
    text = format_mat(MatRecord(record.players, record.length, tuple(games[: borne_off + 1])))

    with pytest.raises(BackgammonError, match="the result names the loser"):
        parse_mat(text)
