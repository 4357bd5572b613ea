"""A screen of match files judges each player once, over the windows the live detector would
have judged after each of their matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairplay.detectors.engine_fit import (
    NO_THINK_TIMES,
    PRIOR,
    MatchFigures,
    Thresholds,
    Window,
)
from fairplay.detectors.engine_screen import screen_players

THRESHOLDS = Thresholds(min_decisions=40, z=3.5, agreement=0.9)


def result(players: tuple[str, str], best: tuple[int, int], plays: int = 20) -> dict[str, Any]:
    """An analysis where seat ``s`` plays ``plays`` unforced checker plays, ``best[s]`` of
    them the engine's best and each other one 0.05 EMG worse."""
    decisions = []
    for seat in (0, 1):
        for number in range(plays):
            right = number < best[seat]
            decisions.append(
                {
                    "seat": seat,
                    "kind": "checker",
                    "played": "13/11 6/5" if right else "24/23 13/11",
                    "best": "13/11 6/5",
                    "error": 0.0 if right else 0.05,
                    "forced": False,
                }
            )
    return {
        "match": {"players": list(players)},
        "players": [{"error": 0.05 * (plays - best[seat]), "decisions": plays} for seat in (0, 1)],
        "decisions": decisions,
    }


def judge(matches: Sequence[MatchFigures]) -> Window:
    return Window(
        matches=tuple(matches),
        rating=1500.0,
        fit=PRIOR,
        think=NO_THINK_TIMES,
        thresholds=THRESHOLDS,
    )


def test_a_player_is_one_row_whatever_the_case_of_the_name_the_rooms_write() -> None:
    players = screen_players(
        [
            ("a.mat", result(("lasse", "ann"), (12, 10))),
            ("b.mat", result(("bob", "Lasse"), (11, 13))),
            ("c.mat", result(("LASSE", "cid"), (14, 9))),
        ],
        judge=judge,
        size=10,
        plies=2,
    )

    assert [p.player for p in players] == ["lasse", "ann", "bob", "cid"]
    lasse = players[0]
    assert lasse.files == ("a.mat", "b.mat", "c.mat")
    assert [m.opponent for m in lasse.matches] == ["ann", "bob", "cid"]
    assert (lasse.checker_plays, lasse.decisions) == (60, 60)
    assert lasse.agreement == (12 + 13 + 14) / 60


def test_each_window_is_the_last_matches_after_each_match_as_the_live_detector_reads_them() -> None:
    files = [(f"{n}.mat", result(("eve", f"opponent{n}"), (10, 10))) for n in range(5)]

    eve = screen_players(files, judge=judge, size=3, plies=2)[0]

    assert [len(w.matches) for w in eve.windows] == [1, 2, 3, 3, 3]
    assert [w.matches[-1].match_id for w in eve.windows] == [1, 2, 3, 4, 5]
    assert [w.assessed for w in eve.windows] == [False, True, True, True, True]


def test_a_player_is_flagged_when_any_window_is_and_only_then() -> None:
    # Eve plays like an engine in her third and fourth matches only; Ann never does.
    best = [(10, 10), (10, 10), (20, 10), (20, 10), (10, 10), (10, 10)]
    files = [(f"{n}.mat", result(("eve", "ann"), b)) for n, b in enumerate(best)]

    eve, ann = screen_players(files, judge=judge, size=2, plies=2)

    assert [w.flagged for w in eve.windows] == [False, False, False, True, False, False]
    assert eve.flagged
    assert not ann.flagged
    row = eve.to_dict()
    assert (row["windows"], row["windows_assessed"], row["windows_flagged"]) == (6, 5, 1)
    assert row["signs"][0] == (
        "100.0% of 40 unforced checker plays were GNU Backgammon's best (threshold 90%)"
    )
    assert row["signs"][1].startswith("PR 0.00 is ")
    assert ann.to_dict()["signs"] == []


def test_a_seat_without_a_name_is_a_player_of_its_own() -> None:
    players = screen_players(
        [("a.mat", result(("", "ann"), (10, 10))), ("b.mat", result(("", "ann"), (10, 10)))],
        judge=judge,
        size=10,
        plies=2,
    )

    assert [p.player for p in players] == [
        "(no name, seat 1 of a.mat)",
        "ann",
        "(no name, seat 1 of b.mat)",
    ]
