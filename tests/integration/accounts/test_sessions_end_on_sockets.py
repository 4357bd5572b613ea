"""A player's session ends everywhere at once: a password change, "log out everywhere", a
suspension, a closed account or a log-out closes the sockets it held open (match, notices,
tournament, lobby) with 4401 within seconds, and a socket checks its session before every
message it takes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.sessions import Session
from accounts.standing import standing_restrict
from config.asgi import application
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import ORIGIN
from tests.integration.tournaments.helpers import open_tournament, organizer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PASSWORD = "a-long-enough-password-1"
NEW_PASSWORD = "another-long-password-2"
CLOSE_WITHIN_SECONDS = 5


def logged_in(user: User) -> Client:
    """A browser logged in as ``user`` with the password, as a person logs in."""
    browser = Client()
    response = browser.post("/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return browser


def cookie_of(browser: Client) -> bytes:
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={browser.cookies[name].value}".encode()


async def socket_as(browser: Client, path: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, path, headers=[ORIGIN, (b"cookie", cookie_of(browser))]
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def closed_with(socket: WebsocketCommunicator) -> int:
    """The code the server closes ``socket`` with, skipping the frames before it; fails
    when it stays open ``CLOSE_WITHIN_SECONDS``."""
    deadline = timezone.now() + timedelta(seconds=CLOSE_WITHIN_SECONDS)
    while timezone.now() < deadline:
        output = await socket.receive_output(timeout=CLOSE_WITHIN_SECONDS)
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError(f"the socket was still open after {CLOSE_WITHIN_SECONDS} s")


async def still_open(socket: WebsocketCommunicator) -> bool:
    """The socket answers a frame (an unknown one: an error frame) instead of closing."""
    await socket.send_json_to({"type": "are-you-there"})
    output = await socket.receive_output(timeout=5)
    while output["type"] == "websocket.send" and '"error"' not in output.get("text", ""):
        output = await socket.receive_output(timeout=5)
    return output["type"] == "websocket.send"


@sync_to_async
def alice_and_a_match() -> tuple[User, int]:
    alice = UserFactory(username="alice", password=PASSWORD)
    bruno = UserFactory(username="bruno", password=PASSWORD)
    return alice, start_match(alice, bruno, length=3)


async def every_kind_of_socket(browser: Client, match_id: int) -> list[WebsocketCommunicator]:
    tournament = await sync_to_async(lambda: open_tournament(organizer()))()
    paths = [f"/ws/matches/{match_id}/", "/ws/me/", f"/ws/tournaments/{tournament.pk}/"]
    return [await socket_as(browser, path) for path in [*paths, "/ws/lobby/"]]


async def test_a_password_changed_elsewhere_closes_every_socket_of_the_old_session() -> None:
    # given Alice's phone with a board, her notices, a bracket and the lobby open
    alice, match_id = await alice_and_a_match()
    phone = await sync_to_async(logged_in)(alice)
    sockets = await every_kind_of_socket(phone, match_id)

    # when she changes her password on her laptop
    laptop = await sync_to_async(logged_in)(alice)
    changed = await sync_to_async(laptop.post)(
        "/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert changed.status_code == 302

    # then every socket the phone held closes at once, saying the session ended
    for socket in sockets:
        assert await closed_with(socket) == 4401
    # and the laptop, which changed it, stays logged in
    assert (await sync_to_async(laptop.get)("/profile/")).status_code == 200


async def test_logging_out_everywhere_closes_the_sockets_of_every_session() -> None:
    alice, match_id = await alice_and_a_match()
    phone, laptop = await sync_to_async(logged_in)(alice), await sync_to_async(logged_in)(alice)
    board = await socket_as(phone, f"/ws/matches/{match_id}/")
    notices = await socket_as(laptop, "/ws/me/")

    response = await sync_to_async(laptop.post)("/logout/everywhere/")

    assert response.status_code == 302
    assert await closed_with(board) == 4401
    assert await closed_with(notices) == 4401
    assert not await sync_to_async(Session.objects.filter(user_id=alice.pk).exists)()


async def test_logging_out_everywhere_through_the_api_ends_browser_sessions_too() -> None:
    alice, match_id = await alice_and_a_match()
    phone = await sync_to_async(logged_in)(alice)
    board = await socket_as(phone, f"/ws/matches/{match_id}/")
    program = Client()
    token = (
        await sync_to_async(program.post)(
            "/api/auth/token/",
            {"username": "alice", "password": PASSWORD},
            content_type="application/json",
        )
    ).json()["token"]

    response = await sync_to_async(program.post)(
        "/api/auth/logout-all/", HTTP_AUTHORIZATION=f"Token {token}"
    )

    assert response.json() == {"revoked": 1, "sessions": 1}
    assert await closed_with(board) == 4401


@pytest.mark.parametrize(
    "restriction",
    [{"suspended_until": "tomorrow"}, {"closed_at": "now"}],
    ids=["suspension", "closed account"],
)
async def test_a_suspension_or_a_closed_account_closes_the_players_sockets(
    restriction: dict[str, Any],
) -> None:
    alice, match_id = await alice_and_a_match()
    phone = await sync_to_async(logged_in)(alice)
    sockets = [
        await socket_as(phone, f"/ws/matches/{match_id}/"),
        await socket_as(phone, "/ws/me/"),
    ]
    moments = {"tomorrow": timezone.now() + timedelta(days=1), "now": timezone.now()}

    await sync_to_async(standing_restrict)(
        user=alice,
        reason="fair-play case",
        **{name: moments[value] for name, value in restriction.items()},
    )

    for socket in sockets:
        assert await closed_with(socket) == 4401


async def test_logging_out_closes_that_browsers_sockets_and_no_one_elses() -> None:
    alice, match_id = await alice_and_a_match()
    phone, laptop = await sync_to_async(logged_in)(alice), await sync_to_async(logged_in)(alice)
    phone_board = await socket_as(phone, f"/ws/matches/{match_id}/")
    laptop_board = await socket_as(laptop, f"/ws/matches/{match_id}/")

    await sync_to_async(phone.post)("/logout/")

    assert await closed_with(phone_board) == 4401
    assert await still_open(laptop_board)


async def test_a_socket_checks_its_session_before_every_message() -> None:
    # given Alice's board open, and her session ended without anyone telling the socket
    # (it expired, or was cleared by hand)
    alice, match_id = await alice_and_a_match()
    phone = await sync_to_async(logged_in)(alice)
    board = await socket_as(phone, f"/ws/matches/{match_id}/")
    await sync_to_async(Session.objects.filter(user_id=alice.pk).update)(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    # when she tries to roll, then to chat
    await board.send_json_to({"type": "roll", "seq": 1})

    # then nothing is done: she is told her session ended and the socket closes
    answers = []
    while (output := await board.receive_output(timeout=5))["type"] != "websocket.close":
        answers.append(output["text"])
    assert output["code"] == 4401
    assert any("Your session has ended" in answer for answer in answers)
    assert not any('"ack"' in answer for answer in answers)


async def test_a_malformed_action_after_the_session_ended_is_told_the_session_ended() -> None:
    # given Alice's board open, and her session ended without anyone telling the socket
    alice, match_id = await alice_and_a_match()
    phone = await sync_to_async(logged_in)(alice)
    board = await socket_as(phone, f"/ws/matches/{match_id}/")
    await sync_to_async(Session.objects.filter(user_id=alice.pk).update)(
        expire_date=timezone.now() - timedelta(seconds=1)
    )

    # when she sends an action the server refuses before any database work (a bad seq)
    await board.send_json_to({"type": "roll", "seq": "one"})

    # then she is told her session ended, not what was wrong with the action, and it closes
    answers = []
    while (output := await board.receive_output(timeout=5))["type"] != "websocket.close":
        answers.append(output["text"])
    assert output["code"] == 4401
    assert any("Your session has ended" in answer for answer in answers)
    assert not any('"seq" must be' in answer for answer in answers)
