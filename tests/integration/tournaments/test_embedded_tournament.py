"""A tournament runs on the embedded set-up (``make run``: SQLite, tasks in the process):
the writes that are plain SQL on the hot paths (the tournament's lock, the entry checks,
the bulk start) keep to what SQLite understands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.embedded import embedded_env, prepare

pytestmark = pytest.mark.slow

SCRIPT = """
from accounts.roles import Role
from accounts.services import user_create
from core.errors import Conflict
from lobby.selectors import board_open
from matches.models import Match
from tournaments import services
from tournaments.models import Entry
from tournaments.settings.general import TournamentSettings
owner = user_create(username="orla", password="embedded-pass-1", role=Role.ORGANIZER)
field = [user_create(username=f"player{n}", password="embedded-pass-1") for n in range(8)]
created = services.tournament_create(
    organizer=owner,
    settings=TournamentSettings(
        name="Club night", format="knockout", buy_in_cents=1000, fee_cents=65,
        round_lengths=(3, 5, 7),
    ),
)
services.tournament_open(tournament_id=created.pk, user=owner)
for player in field:
    services.entry_register(tournament_id=created.pk, user=player)
try:
    services.entry_register(tournament_id=created.pk, user=field[0])
except Conflict as refusal:
    print("refused:", refusal)
services.tournament_start(tournament_id=created.pk, user=owner)
match = Match.objects.filter(tournament_id=created.pk).first()
print("entries", Entry.objects.filter(tournament_id=created.pk).count())
print("matches", Match.objects.filter(tournament_id=created.pk, status="playing").count())
print("board open", board_open(match_id=match.pk, user_id=match.player_0_id))
"""


def test_a_knockout_is_entered_and_started_on_the_embedded_set_up(tmp_path: Path) -> None:
    # given the embedded set-up's SQLite database
    env = embedded_env(tmp_path / "db.sqlite3")

    # when an organizer opens a knockout, eight players enter (one twice) and it starts
    printed = prepare(env, SCRIPT).splitlines()

    # then
    assert printed[-4:] == [
        "refused: player0 is already entered in Club night.",
        "entries 8",
        "matches 4",
        "board open False",
    ]
