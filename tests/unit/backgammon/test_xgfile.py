"""eXtreme Gammon .xg files become the .mat text of their match, or are refused saying why.

The files in tests/data/xg are listed, with where they come from, in its README.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from backgammon.matfile import CubeAction, CubeDecision, Roll, parse_mat
from backgammon.xgfile import RECORD_SIZE, XgFileError, read_xg, xg_to_mat

XG = Path(__file__).resolve().parents[2] / "data" / "xg"
UNGER_JOB = (XG / "unger_job_7pt.xg").read_bytes()
CHARLOT = (XG / "charlot_7pt.xg").read_bytes()


def test_a_match_saved_by_extreme_gammon_reads_as_the_match_played() -> None:
    record = parse_mat(xg_to_mat(UNGER_JOB))

    assert record.players == ("Kévin Unger", "Maxence Job")
    assert record.length == 7
    assert record.crawford_rule
    assert ("Event", "HSBT Paris 2023") in record.tags
    assert ("Jacoby", "Off") in record.tags
    assert [game.score_before for game in record.games] == [
        (0, 0),
        (1, 0),
        (3, 0),
        (3, 1),
        (3, 2),
        (3, 4),
        (5, 4),
    ]
    assert [game.winner for game in record.games] == [0, 0, 1, 1, 1, 0, 0]
    assert record.final_score == (7, 4)
    assert record.games[0].actions[:2] == (
        Roll(0, (5, 1), "13/8 24/23"),
        Roll(1, (6, 1), "13/7 8/7"),
    )


def test_every_cube_action_and_resignation_is_carried_over() -> None:
    record = parse_mat(xg_to_mat(CHARLOT))

    assert record.players == ("charlot1", "charlot2")
    assert [(game.winner, game.points) for game in record.games] == [(1, 2), (0, 2), (0, 4), (0, 3)]
    cube_actions = [
        action
        for game in record.games
        for action in game.actions
        if isinstance(action, CubeDecision)
    ]
    assert {action.action for action in cube_actions} >= {CubeAction.DOUBLE, CubeAction.TAKE}
    assert record.final_score == (9, 2)


def test_a_roll_its_player_resigned_after_is_written_without_a_play() -> None:
    record = read_xg(UNGER_JOB)

    # eXtreme Gammon records the roll, no play and no position after it
    last_rolls = [game.actions[-1] for game in record.games if isinstance(game.actions[-1], Roll)]
    assert Roll(1, (3, 3), "") in last_rolls


def test_a_file_of_another_kind_is_refused() -> None:
    with pytest.raises(XgFileError, match=r"not an eXtreme Gammon \.xg file"):
        xg_to_mat(b'; [Site "Crawford"]\n 5 point match\n')


def test_a_damaged_archive_is_refused() -> None:
    damaged = bytearray(UNGER_JOB)
    damaged[len(damaged) // 2] ^= 0xFF

    with pytest.raises(XgFileError, match="compressed archive cannot be read"):
        xg_to_mat(bytes(damaged))


def test_a_file_cut_short_is_refused() -> None:
    with pytest.raises(XgFileError, match="damaged"):
        xg_to_mat(UNGER_JOB[: len(UNGER_JOB) - 1000])


def test_a_game_file_whose_last_record_is_cut_short_is_refused() -> None:
    # a file made by a tool, whose game file is 578 bytes: not one whole record
    with pytest.raises(XgFileError, match="last record is cut short"):
        xg_to_mat((XG / "made_by_a_tool.xg").read_bytes())

    with pytest.raises(XgFileError, match="last record is cut short"):
        xg_to_mat(_repacked(UNGER_JOB, lambda game_file: game_file[:-100]))


def test_a_play_that_cannot_be_made_from_its_position_is_refused() -> None:
    def first_play_from_an_empty_point(game_file: bytes) -> bytes:
        records = bytearray(game_file)
        first_move = next(at for at in range(0, len(records), RECORD_SIZE) if records[at + 8] == 3)
        # 13/8 24/23 becomes 12/7 24/23: nobody stands on the 12 point at the start
        struct.pack_into("<i", records, first_move + 68, 11)
        struct.pack_into("<i", records, first_move + 72, 6)
        return bytes(records)

    with pytest.raises(XgFileError, match=r"Game 1 .*12/7 24/23 with 5-1 cannot be played"):
        xg_to_mat(_repacked(UNGER_JOB, first_play_from_an_empty_point))


def test_a_play_that_does_not_lead_to_the_recorded_position_is_refused() -> None:
    def first_play_changed(game_file: bytes) -> bytes:
        records = bytearray(game_file)
        first_move = next(at for at in range(0, len(records), RECORD_SIZE) if records[at + 8] == 3)
        # 13/8 24/23 becomes 13/8 6/5: legal, but not what the position after it shows
        struct.pack_into("<2i", records, first_move + 76, 5, 4)
        return bytes(records)

    with pytest.raises(XgFileError, match="does not lead to the position the file records"):
        xg_to_mat(_repacked(UNGER_JOB, first_play_changed))


def test_a_cube_the_doubles_do_not_account_for_is_refused() -> None:
    def cube_turned_in_the_first_move(game_file: bytes) -> bytes:
        records = bytearray(game_file)
        first_move = next(at for at in range(0, len(records), RECORD_SIZE) if records[at + 8] == 3)
        struct.pack_into("<i", records, first_move + 108, 1)  # a cube of 2, never doubled
        return bytes(records)

    with pytest.raises(XgFileError, match="its cube is at 2 where the doubles before make it 1"):
        xg_to_mat(_repacked(UNGER_JOB, cube_turned_in_the_first_move))


def test_a_money_session_keeps_running_totals_without_the_crawford_rule() -> None:
    def unlimited(game_file: bytes) -> bytes:
        records = bytearray(game_file)
        struct.pack_into("<i", records, 92, 99999)  # the match header's length
        return bytes(records)

    record = parse_mat(xg_to_mat(_repacked(CHARLOT, unlimited)))

    assert record.length == 0
    assert not record.crawford_rule
    assert [game.score_before for game in record.games] == [(0, 0), (0, 2), (2, 2), (6, 2)]
    assert record.final_score == (9, 2)


def _repacked(content: bytes, change: Callable[[bytes], bytes]) -> bytes:
    """``content`` with its game file changed by ``change``, in a sound archive again (as
    the format's description lays it out) so that only the change is wrong."""
    header_size, _, thumbnail_size = struct.unpack_from("<IqI", content, 8)
    start = header_size + thumbnail_size
    archive = content[start:]
    registry_size, registry_start = struct.unpack_from("<ii", archive, len(archive) - 36 + 12)
    registry = zlib.decompress(archive[registry_start : registry_start + registry_size])
    entry = registry[:532]
    assert entry[1 : 1 + entry[0]] == b"temp.xg"
    _, stored_size, file_start = struct.unpack_from("<iii", entry, 512)
    game_file = change(zlib.decompress(archive[file_start : file_start + stored_size]))
    stored = zlib.compress(game_file)
    new_entry = bytearray(entry)
    struct.pack_into("<iiiI", new_entry, 512, len(game_file), len(stored), 0, zlib.crc32(game_file))
    new_registry = zlib.compress(bytes(new_entry))
    body = stored + new_registry
    trailer = struct.pack("<IiiiiB", 0, 1, 1, len(new_registry), len(stored), 1).ljust(36, b"\0")
    trailer = struct.pack("<I", zlib.crc32(body)) + trailer[4:]
    return content[:start] + body + trailer
