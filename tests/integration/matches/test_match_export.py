"""A finished match downloads as a .mat file that GNU Backgammon imports to the same result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, start_match

pytestmark = pytest.mark.django_db

GNUBG_IMPORT = """
import json, sys
import gnubg
gnubg.command("import mat " + sys.argv[1])
match = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
with open(sys.argv[2], "w") as out:
    json.dump(match, out)
"""


def test_gnubg_imports_the_downloaded_match_with_the_same_games_and_final_score(
    tmp_path: Path,
) -> None:
    # given a finished 3-point match with doubles and takes
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    final = Bot({"alice": alice, "bruno": bruno}, doubles=True).play_out(match_id)

    # when it is downloaded and imported by GNU Backgammon
    response = APIClient().get(f"/api/matches/{match_id}/export.mat")
    assert response.status_code == 200
    assert (
        response["Content-Disposition"] == f'attachment; filename="crawford-match-{match_id}.mat"'
    )
    path = tmp_path / "match.mat"
    path.write_bytes(response.content)
    out = tmp_path / "match.json"
    subprocess.run(
        [sys.executable, "-c", GNUBG_IMPORT, str(path), str(out)],
        check=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    imported = json.loads(out.read_text())

    # then it has the players, the length, every game and the final score
    info = imported["match-info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("alice", "bruno", 3)
    games = imported["games"]
    assert len(games) == _game_count(match_id)
    last = games[-1]["info"]
    score = [last["score-X"], last["score-O"]]
    score["XO".index(last["winner"])] += last["points-won"]
    assert score == final["score"]


def test_a_money_session_exports_as_a_0_point_match() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, money=True, stake_cents=10, max_cube=2)

    response = api_for(alice).get(f"/api/matches/{match_id}/export.mat")

    assert response.status_code == 200
    assert " 0 point match" in response.content.decode()


def _game_count(match_id: int) -> int:
    from matches.models import Game

    return Game.objects.filter(match_id=match_id).exclude(winner_seat=None).count()
