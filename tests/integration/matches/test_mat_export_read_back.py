"""A played match or money session downloads as a .mat file that reads back to what was played.

Played through the API with cube actions (beaver, raccoon, a take in words, a drop) and
resignations (out of turn, after a roll left unplayed), then read back by `parse_mat` and by
GNU Backgammon's import: the same games, scores, winners and points, and every play made
from the position the log says it was made in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from backgammon.matfile import (
    CubeAction,
    CubeDecision,
    Ending,
    EndKind,
    MatRecord,
    Roll,
    game_ending,
    parse_mat,
    replay,
)
from matches.models import Action, ActionKind, Game, Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, start_match
from tests.unit.backgammon.test_mat_gnubg import Job, gnubg_reads, seen_by_gnubg, seen_by_us

pytestmark = pytest.mark.django_db


class Table:
    """Alice and Bruno at a new match on ``terms``, acting by name through the API."""

    def __init__(self, **terms: Any) -> None:
        alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
        self.match_id = start_match(alice, bruno, **terms)
        self.bot = Bot({"alice": alice, "bruno": bruno})

    def on_roll(self) -> str:
        """Play on (as the bot plays) until someone is to roll or double; their name."""
        while True:
            game = self.bot.state(self.match_id)["game"]
            if game["phase"] == "roll":
                return str(game["turn"])
            self.bot.step(self.match_id)

    def act(self, name: str, kind: str, **body: Any) -> None:
        self.bot.act(self.match_id, name, {"type": kind, **body})

    def resigns(self, name: str, level: str) -> None:
        self.act(name, "resign", resign=level)
        self.act(other(name), "accept_resign")


def other(name: str) -> str:
    return "bruno" if name == "alice" else "alice"


def exported(match_id: int, tmp_path: Path) -> tuple[str, MatRecord, list[dict[str, Any]]]:
    """The match's .mat download, our reading of it and GNU Backgammon's."""
    response = APIClient().get(f"/api/matches/{match_id}/export.mat")
    assert response.status_code == 200
    text = response.content.decode()
    record = parse_mat(text)
    path = tmp_path / "export.mat"
    path.write_text(text)
    jacoby = dict(record.tags).get("Jacoby") == "On"
    return text, record, gnubg_reads([Job(path, jacoby=jacoby)], tmp_path)


def assert_read_back_as_played(match_id: int, record: MatRecord, gnubg: dict[str, Any]) -> None:
    match = Match.objects.get(pk=match_id)
    finished = list(Game.objects.filter(match_id=match_id).exclude(winner_seat=None))
    # the same games, winners and points; GNU Backgammon reads them as we do
    assert [(game.winner, game.points) for game in record.games] == [
        (game.winner_seat, game.points) for game in finished
    ]
    assert record.final_score == (match.score_0, match.score_1)
    assert seen_by_gnubg(gnubg) == seen_by_us(record)
    # and every play is made from the position the log says it was made in
    for game, played in zip(record.games, finished, strict=True):
        logged = [
            action.gnubg_before.split(":")[0]
            for action in Action.objects.filter(
                match_id=match_id, game_number=played.number, kind=ActionKind.PLAY
            ).order_by("seq")
        ]
        ours = [
            position.position_id()
            for action, position in zip(game.actions, replay(game), strict=True)
            if isinstance(action, Roll) and action.play
        ]
        assert ours == logged


def test_a_money_session_reads_back_with_its_beavers_raccoon_and_resignations(
    tmp_path: Path,
) -> None:
    table = Table(
        money=True, stake_cents=10, max_cube=16, beavers=True, raccoons=True, jacoby=False
    )

    # game 1: a double beavered and raccooned, then a single resigned on a cube of 8
    doubler = table.on_roll()
    table.act(doubler, "double")
    table.act(other(doubler), "beaver")
    table.act(doubler, "raccoon")
    table.resigns(other(doubler), "single")
    # game 2: a double beavered and taken, then a gammon resigned after a roll, unplayed
    doubler = table.on_roll()
    table.act(doubler, "double")
    table.act(other(doubler), "beaver")
    table.act(doubler, "take")
    table.act(doubler, "roll")
    table.resigns(doubler, "gammon")
    # game 3: a double dropped; game 4 is under way when the session is downloaded
    doubler = table.on_roll()
    table.act(doubler, "double")
    table.act(other(doubler), "drop")
    table.on_roll()

    text, record, (gnubg,) = exported(table.match_id, tmp_path)

    assert "\n 0 point match\n" in text
    assert ("Jacoby", "Off") in record.tags
    assert [game_ending(game) for game in record.games] == [
        Ending(EndKind.RESIGNED, 1),
        Ending(EndKind.RESIGNED, 2),
        Ending(EndKind.DROPPED, 1),
    ]
    assert [game.points for game in record.games] == [8, 8, 1]
    kinds = [[a.action for a in g.actions if isinstance(a, CubeDecision)] for g in record.games]
    # the raccoon the game ended on is written taken, for GNU Backgammon to count it
    assert kinds[:2] == [
        [CubeAction.DOUBLE, CubeAction.BEAVER, CubeAction.RACCOON, CubeAction.TAKE],
        [CubeAction.DOUBLE, CubeAction.BEAVER, CubeAction.TAKE],
    ]
    unplayed = record.games[1].actions[-1]
    assert isinstance(unplayed, Roll)
    assert unplayed.play == ""
    assert_read_back_as_played(table.match_id, record, gnubg)


def test_a_match_reads_back_with_its_crawford_game_and_resignations(tmp_path: Path) -> None:
    table = Table(length=3)

    # game 1: a double taken, then the taker resigns while the doubler is on roll
    doubler = table.on_roll()
    table.act(doubler, "double")
    table.act(other(doubler), "take")
    table.resigns(other(doubler), "single")
    leader = doubler
    # game 2, the Crawford game: the leader resigns
    table.on_roll()
    table.resigns(leader, "single")
    # game 3: a double taken, a few more rolls, then a gammon resigned: the match is over
    doubler = table.on_roll()
    table.act(doubler, "double")
    table.act(other(doubler), "take")
    table.on_roll()
    table.resigns(doubler, "gammon")

    _, record, (gnubg,) = exported(table.match_id, tmp_path)

    assert record.length == 3
    assert [game.crawford for game in record.games] == [False, True, False]
    assert [game_ending(game) for game in record.games] == [
        Ending(EndKind.RESIGNED, 1),
        Ending(EndKind.RESIGNED, 1),
        Ending(EndKind.RESIGNED, 2),
    ]
    assert max(record.final_score) >= 3
    assert_read_back_as_played(table.match_id, record, gnubg)
