"""Many watchers of one bracket cost what one does: a result's changed slots are rendered
once, sent to every socket in the frame, and the pages fetch nothing."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from config.asgi import application
from matches.models import Match
from tests.integration.matches.sockets import ORIGIN
from tests.integration.tournaments.helpers import concede, open_tournament, organizer, players
from tournaments import services
from tournaments.bracket import live

RENDER = live.slot_html
READ = live.bracket
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("tasks_run_in_process"),
]


def running_knockout(prefix: str) -> tuple[int, Match]:
    """A 4-player knockout started, its two semi-finals under way."""
    owner = organizer(f"{prefix}orla")
    tournament = open_tournament(owner, name=f"{prefix} Knockout")
    for player in players(4, prefix=prefix):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    match = Match.objects.filter(tournament_id=tournament.pk).order_by("pk").first()
    assert match is not None
    return tournament.pk, match


def one_result(match: Match) -> tuple[int, str]:
    """The semi-final's bottom player resigns; the queries it took, and the winner."""
    loser = User.objects.get(pk=match.player_1_id)
    with CaptureQueriesContext(connection) as captured:
        concede(match, loser)
    return len(captured), User.objects.get(pk=match.player_0_id).username


async def watched_result(prefix: str, watchers: int, monkeypatch: Any) -> dict[str, Any]:
    tournament_id, match = await sync_to_async(running_knockout)(prefix)
    sockets = []
    for _ in range(watchers):
        socket = WebsocketCommunicator(
            application, f"/ws/tournaments/{tournament_id}/", headers=[ORIGIN]
        )
        assert (await socket.connect())[0]
        sockets.append(socket)
    renders: list[str] = []

    def counted(*args: Any, **kwargs: Any) -> str:
        renders.append(args[0].key)
        return RENDER(*args, **kwargs)

    with monkeypatch.context() as patched:  # the real renderer, counted
        patched.setattr(live, "slot_html", counted)
        queries, winner = await sync_to_async(one_result)(match)
    frames = [await socket.receive_from(timeout=10) for socket in sockets]
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()
    return {"queries": queries, "renders": renders, "frames": frames, "winner": winner}


async def test_a_result_is_rendered_once_however_many_watch(monkeypatch: Any) -> None:
    # given: the same result in two knockouts, one watched by one socket, one by five
    alone = await watched_result("a", 1, monkeypatch)
    crowd = await watched_result("b", 5, monkeypatch)

    # then: the same work on the server, the two changed slots rendered once each in each
    # language the site speaks
    assert alone["queries"] == crowd["queries"]
    once_each = sorted(["main:0:0", "main:1:0"] * len(settings.LANGUAGES))
    assert sorted(alone["renders"]) == sorted(crowd["renders"]) == once_each
    # and every watcher got the one frame, with the winner in the final: nothing to fetch
    assert len(set(crowd["frames"])) == 1
    for result in (alone, crowd):
        frame = orjson.loads(result["frames"][0])
        assert frame["type"] == "changed"
        assert set(frame["slots"]) == {"main:0:0", "main:1:0"}
        assert f'data-username="{result["winner"]}"' in frame["slots"]["main:1:0"]
        assert 'data-status="finished"' in frame["slots"]["main:0:0"]
        assert set(frame["translated"]["it"]) == {"main:0:0", "main:1:0"}
        assert "Apri il tavoliere" in frame["translated"]["it"]["main:0:0"]


def entered_knockout(prefix: str) -> tuple[User, int]:
    """A 4-player knockout with its field entered, not yet started."""
    owner = organizer(f"{prefix}orla")
    tournament = open_tournament(owner, name=f"{prefix} Knockout")
    for player in players(4, prefix=prefix):
        services.entry_register(tournament_id=tournament.pk, user=player)
    return owner, tournament.pk


async def test_the_start_tells_the_watchers_twice_and_reads_the_bracket_once(
    monkeypatch: Any,
) -> None:
    # given: a knockout about to start, watched
    owner, tournament_id = await sync_to_async(entered_knockout)("s")
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=[ORIGIN]
    )
    assert (await socket.connect())[0]
    reads: list[int] = []

    def counted(tournament: Any) -> Any:
        reads.append(tournament.pk)
        return READ(tournament)

    # when: it starts, and its first matches are made once the start is committed
    with monkeypatch.context() as patched:  # the real read, counted
        patched.setattr(live, "bracket", counted)
        await sync_to_async(services.tournament_start)(tournament_id=tournament_id, user=owner)
    frames = [orjson.loads(await socket.receive_from(timeout=10)) for _ in range(2)]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()

    # then: the watchers heard that it started and that its matches began, each time to
    # fetch the bracket again (the start changed every page's shape), and the bracket was
    # read once: the start's own frame says so without reading it
    assert frames == [{"type": "changed"}, {"type": "changed"}]
    assert reads == [tournament_id]
