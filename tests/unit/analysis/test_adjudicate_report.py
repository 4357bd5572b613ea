"""The adjudication report gives both players' chances and what each would receive."""

from __future__ import annotations

import json

import pytest

from analysis.cli import adjudicate_report
from analysis.engine import InvalidPositionError
from analysis.gnubg_process import GnubgProcess

MONEY_CUBE_ON_2 = "7O41AADYzowxAA:AQEAAAAAAAAE"
MONEY_PLAYER_1_ON_ROLL = "mGfwATDQ5+ABMA:cAkAAAAAAAAE"
MATCH_TO_7_AT_2_3 = "4DZ4ACzsnoMDAA:AQHgACAAGAAE"
PLAYER_KEYS = {"index", "win", "mwc", "equity", "settlement_cents"}


def test_money_report_settles_cubeful_equity_times_cube_and_stake(engine: GnubgProcess) -> None:
    report = adjudicate_report(MONEY_CUBE_ON_2, stake_cents=250, engine=engine)

    assert set(report) == {"kind", "plies", "players", "engine"}
    assert report["kind"] == "money"
    assert report["plies"] == 2
    player0, player1 = report["players"]
    assert set(player0) == set(player1) == PLAYER_KEYS
    assert (player0["index"], player1["index"]) == (0, 1)
    assert player0["mwc"] is None
    assert player0["equity"] == pytest.approx(-player1["equity"])
    assert player0["win"] + player1["win"] == pytest.approx(1.0)
    assert player0["settlement_cents"] == round(player0["equity"] * 2 * 250)
    assert player0["settlement_cents"] + player1["settlement_cents"] == 0
    assert report["engine"]["name"] == "GNU Backgammon"
    assert report["engine"]["settings"]["plies"] == 2
    json.dumps(report)


def test_money_report_names_players_by_the_match_id_index(engine: GnubgProcess) -> None:
    report = adjudicate_report(MONEY_PLAYER_1_ON_ROLL, engine=engine)

    player0, player1 = report["players"]
    assert player1["win"] > player0["win"]
    assert player0["settlement_cents"] is None


def test_match_report_shares_the_pot_by_match_winning_chances(engine: GnubgProcess) -> None:
    report = adjudicate_report(MATCH_TO_7_AT_2_3, pot_cents=1000, plies=0, engine=engine)

    assert report["kind"] == "match"
    assert report["plies"] == 0
    player0, player1 = report["players"]
    assert player0["equity"] is None
    assert player0["mwc"] + player1["mwc"] == pytest.approx(1.0)
    assert player0["mwc"] > 0.5
    assert player0["settlement_cents"] + player1["settlement_cents"] == 1000
    assert player0["settlement_cents"] == round(player0["mwc"] * 1000)


def test_stake_per_point_is_refused_for_a_match(engine: GnubgProcess) -> None:
    with pytest.raises(ValueError, match="money play"):
        adjudicate_report(MATCH_TO_7_AT_2_3, stake_cents=100, engine=engine)


def test_pot_is_refused_for_money_play(engine: GnubgProcess) -> None:
    with pytest.raises(ValueError, match="match"):
        adjudicate_report(MONEY_CUBE_ON_2, pot_cents=100, engine=engine)


@pytest.mark.parametrize("gnubg_id", ["not an id", "XXXXXXXXXXXXXX:AQEAAAAAAAAE"])
def test_a_position_the_engine_rejects_is_a_callers_error(
    engine: GnubgProcess, gnubg_id: str
) -> None:
    with pytest.raises(InvalidPositionError):
        adjudicate_report(gnubg_id, engine=engine)
