"""The embedded set-up (``make run``: SQLite, no Redis, no worker) enforces every deadline:
the server process itself runs the sweeps, so a move clock runs out there as in production."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.embedded import embedded_env, embedded_server, prepare

pytestmark = pytest.mark.slow

SET_UP = """
from accounts.services import user_create
from backgammon import legal_plays
from backgammon.notation import format_play
from matches.actions import PlayerAction
from matches.creation import match_accept, match_challenge
from matches.models import ClockSettings
from matches.play import action_submit
from matches.presence import connection_open
from matches.state import current_game, game_state
alice = user_create(username="alice", password="embedded-pass-1")
bruno = user_create(username="bruno", password="embedded-pass-1")
clock = ClockSettings(kind="move", move_seconds=1, reserve_seconds=0)
match = match_challenge(challenger=alice, opponent=bruno, length=3, clock_settings=clock)
match_accept(match_id=match.pk, user=bruno)
for player in (alice, bruno):
    connection_open(match_id=match.pk, user=player, channel=f"set-up-{player.pk}")
state = game_state(current_game(match))
mover = match.player(state.to_act)
play = format_play(legal_plays(state.board, state.dice)[0], state.board)
action_submit(match_id=match.pk, user=mover, action=PlayerAction.PLAY, play=play)
print(match.pk)
"""


def test_a_move_clock_runs_out_under_the_embedded_server(tmp_path: Path) -> None:
    # given the embedded set-up with a match under way whose player to move has one second
    env = embedded_env(tmp_path / "db.sqlite3")
    match_id = int(prepare(env, SET_UP).split()[-1])

    # when the server runs as make run starts it, and nobody moves
    with embedded_server(env) as server:
        server.wait_until_answering()
        state: dict[str, object] = {}
        deadline = time.monotonic() + 60
        while state.get("status") != "finished":
            assert server.running(), "the embedded server stopped"
            assert time.monotonic() < deadline, f"the clock never ran out: {state.get('status')}"
            time.sleep(0.5)
            try:
                state = server.get_json(f"/api/matches/{match_id}/")
            except OSError:
                continue

    # then the game (and, as the clock says, the match) ended on time
    assert state["finish_reason"] == "timeout"


@pytest.fixture(autouse=True)
def _no_database() -> None:
    """This test talks to a server of its own, on a SQLite file of its own."""
