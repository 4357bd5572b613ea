"""Chat and conduct: chat floods refused over REST and the match socket, the word filter,
mutes and blocks (hidden chat, no challenges or seeks between blocked players), and a
reported line reaching staff in a conduct case with the conversation around it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from accounts.models import Block, BlockKind, User
from accounts.standing import block_remove, block_set, standing_restrict
from fairplay.models import Case, CaseKind, ChatReport
from lobby import seeks
from lobby.models import Seek
from lobby.seeks import SeekTerms
from matches import chat
from matches.chat import BURST, has_banned_word
from matches.models import ChatMessage, ChatRoom, Match, MatchStatus
from tests.factories import UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.integration.matches.helpers import api_for, start_match
from tests.integration.matches.sockets import next_frame, open_socket

TOO_FAST = "You are sending messages too fast; wait "


def _player(username: str) -> User:
    return UserFactory(username=username, display_name=username.capitalize())


def _say(user: User, match_id: int, text: str) -> Any:
    return api_for(user).post(f"/api/matches/{match_id}/chat/", {"text": text}, format="json")


def _heard(user: User | None, match_id: int) -> list[str]:
    client = api_for(user) if user is not None else Client()
    response = client.get(f"/api/matches/{match_id}/chat/")
    assert response.status_code == 200, response.json()
    return [f"{line['author']}: {line['text']}" for line in response.json()]


@pytest.fixture
def board(db: None) -> tuple[int, User, User]:
    """Alice and Bruno at a match: its id, Alice, Bruno."""
    alice, bruno = _player("alice"), _player("bruno")
    return start_match(alice, bruno, length=3), alice, bruno


# ---------------------------------------------------------------- floods


def test_a_burst_of_lines_over_rest_is_refused_with_429_and_the_wait(
    board: tuple[int, User, User],
) -> None:
    match_id, alice, _ = board
    with low_rates(chat="100/minute"):
        said = [_say(alice, match_id, f"line {n}").status_code for n in range(BURST)]
        refused = _say(alice, match_id, "one too many")

    assert said == [201] * BURST
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith(TOO_FAST)
    assert 1 <= int(refused["Retry-After"]) <= 10
    assert ChatMessage.objects.filter(match_id=match_id).count() == BURST


def test_lines_past_the_chat_rate_over_rest_are_refused_with_429(
    board: tuple[int, User, User],
) -> None:
    match_id, alice, _ = board
    with low_rates(chat="2/minute"):
        said = [_say(alice, match_id, text).status_code for text in ("gl", "hf")]
        refused = _say(alice, match_id, "and one more")

    assert said == [201, 201]
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith(TOO_FAST)
    assert int(refused["Retry-After"]) >= 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_burst_of_lines_over_the_socket_is_refused_with_an_error_frame() -> None:
    alice = await sync_to_async(_player)("alice")
    bruno = await sync_to_async(_player)("bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    with low_rates(chat="100/minute"):
        socket = await open_socket(match_id, alice)
        for n in range(BURST + 1):
            await socket.send_json_to({"type": "chat", "text": f"line {n}"})
        said, refusals = [], []
        while len(said) < BURST or not refusals:
            frame = await socket.receive_json_from(timeout=10)
            if frame["type"] == "chat":
                said.append(frame["message"]["text"])
            elif frame["type"] == "error":
                refusals.append(frame)
        await socket.disconnect()

    assert said == [f"line {n}" for n in range(BURST)]
    assert len(refusals) == 1
    assert refusals[0]["message"].startswith(TOO_FAST)
    assert refusals[0]["status"] == 429


# ---------------------------------------------------------------- the word filter


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("well darn it", True),
        ("DARN", True),
        ("dárn!", True),
        ("daaarrrn", True),
        ("d4rn", True),
        ("d.a.r.n", True),
        ("d-a-r-n you", True),
        ("oh d a r n", True),
        ("d\u200barn", True),
        ("you ass", True),
        ("a class act", False),
        ("as you like", False),
        ("an assessment", False),
        ("darned socks", False),
        ("dar n", False),
        ("13/7 24/20", False),
        ("bar/21 a d", False),
    ],
)
def test_the_word_filter_reads_whole_words_past_case_accents_and_tricks(
    settings: Settings, text: str, refused: bool
) -> None:
    settings.CRAWFORD_CHAT_BANNED_WORDS = ["Darn", "ass"]

    assert has_banned_word(text) is refused


def test_a_line_with_a_banned_word_is_refused_without_repeating_it(
    board: tuple[int, User, User], settings: Settings
) -> None:
    settings.CRAWFORD_CHAT_BANNED_WORDS = ["darn"]
    match_id, alice, _ = board

    with low_rates(chat="100/minute"):
        refused = _say(alice, match_id, "D-A-R-N this dice")
        allowed = _say(alice, match_id, "these dice")

    assert refused.status_code == 400
    assert refused.json()["detail"] == chat.REFUSED_WORD
    assert "darn" not in refused.json()["detail"].lower()
    assert allowed.status_code == 201
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["these dice"]


# ---------------------------------------------------------------- mutes and blocks in chat


def test_a_reader_does_not_see_whom_they_muted_or_blocked_or_who_blocked_them(
    board: tuple[int, User, User],
) -> None:
    match_id, alice, bruno = board
    carol, dave, erin = _player("carol"), _player("dave"), _player("erin")
    block_set(owner=carol, other=dave, kind=BlockKind.MUTE)
    block_set(owner=erin, other=carol, kind=BlockKind.BLOCK)
    block_set(owner=alice, other=bruno, kind=BlockKind.MUTE)
    with low_rates(chat="100/minute"):
        for speaker in (carol, dave, erin, alice, bruno):
            assert _say(speaker, match_id, "hi").status_code == 201

    assert _heard(carol, match_id) == ["carol: hi"]
    assert _heard(dave, match_id) == ["carol: hi", "dave: hi", "erin: hi"]
    assert _heard(None, match_id) == ["carol: hi", "dave: hi", "erin: hi"]
    assert _heard(alice, match_id) == ["alice: hi"]
    assert _heard(bruno, match_id) == ["alice: hi", "bruno: hi"]


def test_a_player_muted_by_staff_cannot_chat_and_is_told_until_when(
    board: tuple[int, User, User],
) -> None:
    match_id, _, bruno = board
    standing_restrict(
        user=bruno, muted_until=timezone.now() + timedelta(hours=2), reason="insults in chat"
    )

    refused = _say(bruno, match_id, "why?")

    assert refused.status_code == 403
    assert refused.json()["detail"].startswith("You are muted until ")
    assert refused.json()["detail"].endswith("(insults in chat).")
    assert not ChatMessage.objects.exists()


def test_players_who_blocked_each_other_cannot_write_to_each_other(
    board: tuple[int, User, User],
) -> None:
    match_id, alice, bruno = board
    block_set(owner=alice, other=bruno, kind=BlockKind.BLOCK)

    with low_rates(chat="100/minute"):
        from_bruno = _say(bruno, match_id, "hello?")
        from_alice = _say(alice, match_id, "go away")

    assert from_bruno.status_code == 403
    assert from_bruno.json()["detail"] == "Alice does not take messages from you."
    assert from_alice.status_code == 403
    assert from_alice.json()["detail"].startswith("You blocked Bruno")
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_live_chat_leaves_out_a_muted_player_at_once_and_after_a_change() -> None:
    # given Alice muted Bruno before she opened the board
    alice = await sync_to_async(_player)("alice")
    bruno = await sync_to_async(_player)("bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    await sync_to_async(block_set)(owner=alice, other=bruno, kind=BlockKind.MUTE)
    with low_rates(chat="100/minute"):
        hers = await open_socket(match_id, alice)
        his = await open_socket(match_id, bruno)
        history = await next_frame(hers, "chat_history")

        # when Bruno speaks, then Alice
        await his.send_json_to({"type": "chat", "text": "psst"})
        assert (await next_frame(his, "chat"))["message"]["text"] == "psst"
        await hers.send_json_to({"type": "chat", "text": "anyone there?"})
        first_heard = await next_frame(hers, "chat")

        # and when she unmutes him while the board is open, then mutes him again
        await sync_to_async(block_remove)(owner=alice, other=bruno)
        await his.send_json_to({"type": "chat", "text": "me!"})
        then_heard = await next_frame(hers, "chat")
        await sync_to_async(block_set)(owner=alice, other=bruno, kind=BlockKind.MUTE)
        await his.send_json_to({"type": "chat", "text": "me again!"})
        await hers.send_json_to({"type": "chat", "text": "quiet now"})
        last_heard = await next_frame(hers, "chat")
        await hers.disconnect()
        await his.disconnect()

    # then she saw only her own line while he was muted, and his once he was not
    assert history["messages"] == []
    assert first_heard["message"]["text"] == "anyone there?"
    assert then_heard["message"]["text"] == "me!"
    assert isinstance(then_heard["message"]["id"], int)
    # the new mute took hold at his next line, not half a minute later
    assert last_heard["message"]["text"] == "quiet now"


# ---------------------------------------------------------------- challenges and seeks


def test_blocked_players_cannot_challenge_each_other_or_accept(db: None) -> None:
    alice, bruno = _player("alice"), _player("bruno")
    invited = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3}, format="json"
    )
    assert invited.status_code == 201
    block_set(owner=bruno, other=alice, kind=BlockKind.BLOCK)

    from_bruno = api_for(bruno).post(
        "/api/matches/", {"opponent": "alice", "length": 3}, format="json"
    )
    from_alice = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3}, format="json"
    )
    accepted = api_for(bruno).post(f"/api/matches/{invited.json()['id']}/accept/")

    assert from_bruno.status_code == 403
    assert from_bruno.json()["detail"] == (
        "You cannot challenge Alice: one of you has blocked the other."
    )
    assert from_alice.status_code == 403
    assert accepted.status_code == 403
    assert accepted.json()["detail"].startswith("You cannot play against Alice")
    assert Match.objects.get(pk=invited.json()["id"]).status == MatchStatus.INVITED
    assert Match.objects.count() == 1


def test_a_mute_does_not_stop_a_challenge(db: None) -> None:
    alice, bruno = _player("alice"), _player("bruno")
    block_set(owner=bruno, other=alice, kind=BlockKind.MUTE)

    invited = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3}, format="json"
    )

    assert invited.status_code == 201


@pytest.mark.django_db
def test_a_blocked_player_neither_sees_nor_takes_the_seek() -> None:
    alice, bruno, carol = _player("alice"), _player("bruno"), _player("carol")
    seek = seeks.seek_post(user=alice, terms=SeekTerms())
    block_set(owner=alice, other=bruno, kind=BlockKind.BLOCK)

    listed_to_bruno = api_for(bruno).get("/api/seeks/").json()
    listed_to_carol = api_for(carol).get("/api/seeks/").json()
    taken = api_for(bruno).post(f"/api/seeks/{seek.pk}/accept/")
    played_now = api_for(bruno).post("/api/seeks/play-now/")

    assert listed_to_bruno == []
    assert [row["id"] for row in listed_to_carol] == [seek.pk]
    assert taken.status_code == 403
    assert taken.json()["detail"] == (
        "You cannot take the seek of Alice: one of you has blocked the other."
    )
    assert played_now.status_code == 200
    assert played_now.json()["match"] is None
    seek.refresh_from_db()
    assert seek.taken_by_id is None
    assert Seek.objects.filter(creator=bruno, cancelled_at__isnull=True).exists()


# ---------------------------------------------------------------- mute and block by REST and page


def test_a_player_mutes_blocks_lists_and_lifts_over_rest(db: None) -> None:
    alice, _ = _player("alice"), _player("bruno")
    api = api_for(alice)

    muted = api.post("/api/players/bruno/block/", {"kind": "mute"}, format="json")
    blocked = api.post("/api/players/bruno/block/", {"kind": "block"}, format="json")
    mine = api.get("/api/me/blocks/")
    lifted = api.delete("/api/players/bruno/block/")
    lifted_again = api.delete("/api/players/bruno/block/")
    myself = api.post("/api/players/alice/block/", {"kind": "mute"}, format="json")
    nobody = api.post("/api/players/nobody/block/", {"kind": "mute"}, format="json")

    assert (muted.status_code, muted.json()["kind"]) == (201, "mute")
    assert (blocked.status_code, blocked.json()["kind"]) == (200, "block")
    assert [(row["player"], row["kind"]) for row in mine.json()] == [("bruno", "block")]
    assert lifted.status_code == 204
    assert lifted_again.status_code == 404
    assert lifted_again.json()["detail"] == "You have not muted or blocked Bruno."
    assert (myself.status_code, myself.json()["detail"]) == (
        400,
        "You cannot mute or block yourself.",
    )
    assert nobody.status_code == 404
    assert not Block.objects.exists()


def test_the_player_page_blocks_and_unblocks(db: None) -> None:
    alice, bruno = _player("alice"), _player("bruno")
    browser = Client()
    browser.force_login(alice)

    before = browser.get("/players/bruno/").content.decode()
    blocked = browser.post("/players/bruno/block/", {"kind": "block"}, follow=True)
    after_block = Block.objects.get(owner=alice, other=bruno).kind
    unblocked = browser.post("/players/bruno/block/", {"kind": "none"}, follow=True)
    own_page = browser.get("/players/alice/").content.decode()

    assert 'data-testid="block"' in before
    assert after_block == BlockKind.BLOCK
    assert "You blocked Bruno" in blocked.content.decode()
    assert 'data-testid="unblock"' in blocked.content.decode()
    assert "Bruno is no longer muted or blocked." in unblocked.content.decode()
    assert not Block.objects.exists()
    assert 'data-testid="block-form"' not in own_page


# ---------------------------------------------------------------- reports


def _talk(match_id: int, alice: User, bruno: User, *, around: int) -> ChatMessage:
    """``around`` lines each way in the players' room, turn about, round one rude line of
    Bruno's; returns it."""
    for n in range(around + 5):
        speaker = alice if n % 2 else bruno
        ChatMessage.objects.create(
            match_id=match_id, author=speaker, room=ChatRoom.PLAYERS, text=f"before {n}"
        )
    rude = ChatMessage.objects.create(
        match_id=match_id, author=bruno, room=ChatRoom.PLAYERS, text="you play like a bot"
    )
    for n in range(around + 5):
        speaker = alice if n % 2 else bruno
        ChatMessage.objects.create(
            match_id=match_id, author=speaker, room=ChatRoom.PLAYERS, text=f"after {n}"
        )
    return rude


def test_a_reported_line_reaches_staff_with_the_conversation_around_it(
    board: tuple[int, User, User],
) -> None:
    # given a long talk with one rude line of Bruno's in the middle
    match_id, alice, bruno = board
    rude = _talk(match_id, alice, bruno, around=20)

    # when Alice reports it
    reported = api_for(alice).post(
        f"/api/chat/{rude.pk}/report/", {"note": "He keeps at it"}, format="json"
    )

    # then a conduct case about Bruno holds the line, its 20 lines each way, and her note
    assert reported.status_code == 201, reported.json()
    case = Case.objects.get()
    assert (case.kind, case.subject, case.key) == (CaseKind.CONDUCT, bruno, f"conduct:{bruno.pk}")
    assert list(case.others.all()) == [alice]
    [report] = case.evidence["reports"]
    assert (report["message"], report["match"], report["text"]) == (
        rude.pk,
        match_id,
        "you play like a bot",
    )
    assert [(r["username"], r["note"]) for r in report["reporters"]] == [
        ("alice", "He keeps at it")
    ]
    conversation = report["conversation"]
    assert len(conversation) == 41
    assert [line["text"] for line in conversation[:2]] == ["before 5", "before 6"]
    assert conversation[20] | {"at": None} == {
        "id": rude.pk,
        "at": None,
        "author": "bruno",
        "name": "Bruno",
        "text": "you play like a bot",
        "reported": True,
    }
    assert conversation[-1]["text"] == "after 19"
    assert {line["author"] for line in conversation} == {"alice", "bruno"}
    assert all(line["at"] for line in conversation)
    assert case.evidence["matches"] == [match_id]
    assert ChatReport.objects.get().case == case


def test_more_reports_about_one_player_grow_one_case(board: tuple[int, User, User]) -> None:
    match_id, alice, bruno = board
    first = _talk(match_id, alice, bruno, around=0)
    carol = _player("carol")
    spectators = ChatMessage.objects.create(
        match_id=match_id, author=bruno, room=ChatRoom.SPECTATORS, text="rude again"
    )

    api_for(alice).post(f"/api/chat/{first.pk}/report/", {}, format="json")
    again = api_for(carol).post(f"/api/chat/{spectators.pk}/report/", {}, format="json")

    assert again.status_code == 201
    case = Case.objects.get()
    assert [report["text"] for report in case.evidence["reports"]] == [
        "you play like a bot",
        "rude again",
    ]
    assert "2 lines reported by 2 players" in case.summary


def test_a_line_is_reported_once_by_someone_who_could_read_it_and_not_its_author(
    board: tuple[int, User, User],
) -> None:
    match_id, alice, bruno = board
    rude = _talk(match_id, alice, bruno, around=0)
    spectator = _player("carol")
    own = ChatMessage.objects.filter(author=alice).first()
    assert own is not None

    first = api_for(alice).post(f"/api/chat/{rude.pk}/report/", {}, format="json")
    twice = api_for(alice).post(f"/api/chat/{rude.pk}/report/", {}, format="json")
    by_author = api_for(alice).post(f"/api/chat/{own.pk}/report/", {}, format="json")
    by_spectator = api_for(spectator).post(f"/api/chat/{rude.pk}/report/", {}, format="json")

    assert first.status_code == 201
    assert twice.status_code == 409
    assert twice.json()["detail"] == "You reported this message already; staff have it."
    assert by_author.status_code == 400
    assert by_author.json()["detail"] == "You cannot report your own message."
    assert by_spectator.status_code == 404
    assert ChatReport.objects.count() == 1
    assert len(Case.objects.get().evidence["reports"][0]["reporters"]) == 1


def test_the_board_page_gives_its_report_control_a_csrf_token_the_api_takes(
    board: tuple[int, User, User],
) -> None:
    # given Alice on her board, in a browser that checks CSRF as a real one is checked
    match_id, alice, bruno = board
    rude = _talk(match_id, alice, bruno, around=0)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    page = browser.get(f"/matches/{match_id}/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None

    # when the Report control posts without the token, then with it
    without = browser.post(f"/api/chat/{rude.pk}/report/", {}, content_type="application/json")
    with_token = browser.post(
        f"/api/chat/{rude.pk}/report/",
        {},
        content_type="application/json",
        headers={"X-CSRFToken": token[1]},
    )

    # then only the second is taken, and the page's lines carry the ids it reports
    assert without.status_code == 403
    assert with_token.status_code == 201
    assert f'"id": {rude.pk}' in page
