""".mat files as online rooms export them, read as GNU Backgammon's ``import mat`` reads them.

tests/data/mat/rooms holds six real exports of Backgammon Galaxy that were once refused
(SOURCES.tsv names where each comes from: the public bglab repository, MIT licence): a
resigned game's "Losses" row followed by a different "Wins" row, and a player with an empty
name. The winners asserted are the ones GNU Backgammon's own import gives.

The calibration set (300 room exports, outside the repository: ``CRAWFORD_ROOM_FILES``
names its folder) must read in full where it is present.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from backgammon.errors import BackgammonError
from backgammon.matfile import MatRecord, format_mat, parse_mat

ROOMS = Path(__file__).resolve().parents[2] / "data" / "mat" / "rooms"
# The calibration set beside the checkout (../shared, as CI has it).
CALIBRATION = Path(
    os.environ.get(
        "CRAWFORD_ROOM_FILES",
        Path(__file__).resolve().parents[4] / "shared" / "data" / "realmat-calibration" / "files",
    )
)


def room_file(path: Path) -> MatRecord:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return parse_mat(text)


def winners(record: MatRecord) -> list[tuple[tuple[int, int], int | None, int]]:
    return [(game.score_before, game.winner, game.points) for game in record.games]


def test_a_resignation_s_losses_row_then_the_match_s_wins_row_gives_the_game_to_the_last() -> None:
    # game 3: " Losses 2 point" in lasse's column, then "Wins 2 point and the match" in it
    record = room_file(ROOMS / "bglab_lasse_match2516058.mat")

    assert record.players == ("lasse", "yueda")
    assert winners(record) == [((0, 0), 0, 1), ((1, 0), 1, 1), ((1, 1), 0, 2)]
    assert record.final_score == (3, 1)


@pytest.mark.parametrize(
    ("name", "final_score"),
    [("bglab_lasse_match11239570.mat", (6, 3)), ("bglab_lasse_match5905414.mat", (3, 2))],
)
def test_every_match_ended_by_two_results_is_won_by_the_last(
    name: str, final_score: tuple[int, int]
) -> None:
    # 11239570's last game: "Wins 3 point and the match" (what lasse needed at 2 of 5) on a
    # cube of 2, which GNU Backgammon scores as the gammon's 4 points
    record = room_file(ROOMS / name)

    assert record.games[-1].winner == 0
    assert record.final_score == final_score


@pytest.mark.parametrize(
    ("name", "players", "games"),
    [
        ("bglab_lasse_match4025136.mat", ("lasse", "Player 1"), 3),
        ("bglab_lasse_match6047230.mat", ("lasse", "Player 1"), 5),
        ("bglab_lasse_match8320876.mat", ("Player 0", "lasse"), 1),
    ],
)
def test_a_player_with_no_name_is_read_under_a_placeholder_and_written_back_so(
    name: str, players: tuple[str, str], games: int
) -> None:
    record = room_file(ROOMS / name)

    assert record.players == players
    assert len(record.games) == games
    assert parse_mat(format_mat(record)) == record


@pytest.mark.skipif(not CALIBRATION.is_dir(), reason=f"no calibration set at {CALIBRATION}")
def test_every_room_export_of_the_calibration_set_is_read() -> None:
    paths = sorted(CALIBRATION.glob("*.mat"))
    refused = {}
    for path in paths:
        try:
            record = room_file(path)
        except BackgammonError as error:
            refused[path.name] = str(error)
        else:
            assert record.games, path.name

    assert len(paths) == 300
    assert refused == {}
