"""python manage.py adjudicate prints the engine's verdict on a GNUBG ID as JSON."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def _run(*args: str) -> dict[str, object]:
    out = StringIO()
    call_command("adjudicate", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_money_play_with_a_stake_settles_to_zero_sum() -> None:
    report = _run("4HPwATDgc/ABMA:cAkAAAAAAAAA", "--stake-cents", "100")

    assert report["kind"] == "money"
    assert report["plies"] == 2
    players = report["players"]
    assert [p["index"] for p in players] == [0, 1]
    assert players[0]["settlement_cents"] + players[1]["settlement_cents"] == 0
    assert players[0]["mwc"] is None
    assert report["engine"]["name"]


def test_a_match_for_a_pot_splits_it_by_match_winning_chances() -> None:
    report = _run("4HPwATDgc/ABMA:MAHgAAAAAAAE", "--pot-cents", "1000")

    assert report["kind"] == "match"
    players = report["players"]
    assert players[0]["settlement_cents"] + players[1]["settlement_cents"] == 1000
    assert abs(players[0]["mwc"] + players[1]["mwc"] - 1) < 1e-6


def test_a_bad_id_is_refused_with_a_message() -> None:
    with pytest.raises(CommandError):
        _run("not-an-id")


def test_a_rollout_can_be_asked_for_beside_the_evaluation() -> None:
    report = _run("4HPwATDgc/ABMA:cAkAAAAAAAAA", "--rollout", "36", "--seed", "3")

    rolled = report["rollout"]
    assert isinstance(rolled, dict)
    assert rolled["trials"] == 36
    assert rolled["settings"] == {"trials": 36, "plies": 0, "seed": 3}
    assert abs(rolled["win"] - report["players"][0]["win"]) < 0.05


def test_a_rollout_of_no_games_is_refused_with_a_message() -> None:
    with pytest.raises(CommandError, match="trials must be 1 to"):
        _run("4HPwATDgc/ABMA:cAkAAAAAAAAA", "--rollout", "0")
