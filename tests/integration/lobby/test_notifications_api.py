"""GET /api/notifications/ and POST /api/notifications/read/: newest first, the unread
count, pages, and reading some or all, never another player's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from lobby.models import Notification
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import NOT_LOGGED_IN, api_for, refusal

pytestmark = pytest.mark.django_db


def _notices(user: User, count: int) -> list[Notification]:
    """``count`` notices, a minute apart, the last the newest."""
    start = timezone.now() - timedelta(hours=1)
    return [
        Notification.objects.create(
            user=user,
            kind="challenge",
            key=f"challenge:{n}",
            text=f"Notice {n}",
            url=f"/matches/{n}/",
            data={"match_id": n},
            created_at=start + timedelta(minutes=n),
        )
        for n in range(count)
    ]


def test_the_list_is_newest_first_with_the_unread_count() -> None:
    alice = player("alice")
    made = _notices(alice, 3)
    Notification.objects.filter(pk=made[0].pk).update(read_at=timezone.now())
    _notices(player("bruno"), 2)

    body = api_for(alice).get("/api/notifications/").json()

    assert body["unread"] == 2
    assert [n["text"] for n in body["notifications"]] == ["Notice 2", "Notice 1", "Notice 0"]
    assert [n["read"] for n in body["notifications"]] == [False, False, True]
    assert body["notifications"][0] == {
        "id": made[2].pk,
        "kind": "challenge",
        "text": "Notice 2",
        "url": "/matches/2/",
        "data": {"match_id": 2},
        "created_at": made[2].created_at.isoformat(),
        "read": False,
    }


def test_pages_follow_one_another_and_unread_alone_can_be_asked_for() -> None:
    alice = player("alice")
    made = _notices(alice, 5)
    Notification.objects.filter(pk=made[3].pk).update(read_at=timezone.now())
    client = api_for(alice)

    first = client.get("/api/notifications/?limit=2").json()["notifications"]
    second = client.get(f"/api/notifications/?limit=2&before={first[-1]['id']}").json()
    unread = client.get("/api/notifications/?unread=true").json()["notifications"]

    assert [n["text"] for n in first] == ["Notice 4", "Notice 3"]
    assert [n["text"] for n in second["notifications"]] == ["Notice 2", "Notice 1"]
    assert [n["text"] for n in unread] == ["Notice 4", "Notice 2", "Notice 1", "Notice 0"]


def test_reading_some_leaves_the_others_and_another_players_alone() -> None:
    alice, bruno = player("alice"), player("bruno")
    mine, theirs = _notices(alice, 3), _notices(bruno, 1)

    answer = api_for(alice).post(
        "/api/notifications/read/", {"ids": [mine[0].pk, theirs[0].pk]}, format="json"
    )

    assert answer.status_code == 200
    assert answer.json() == {"read": 1, "unread": 2}
    assert Notification.objects.get(pk=theirs[0].pk).read_at is None


def test_reading_all_marks_every_unread_notice() -> None:
    alice = player("alice")
    _notices(alice, 4)

    answer = api_for(alice).post("/api/notifications/read/", {"all": True}, format="json")
    again = api_for(alice).post("/api/notifications/read/", {"all": True}, format="json")

    assert answer.json() == {"read": 4, "unread": 0}
    assert again.json() == {"read": 0, "unread": 0}


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({}, 'Send "ids", or "all": true, not both.'),
        ({"ids": [1], "all": True}, 'Send "ids", or "all": true, not both.'),
        ({"ids": list(range(1, 102))}, "ids: Ensure this field has no more than 100 elements."),
        ({"ids": [0]}, "ids: 0: Ensure this value is greater than or equal to 1."),
    ],
)
def test_a_read_request_names_some_notices_or_all_of_them(
    body: dict[str, object], detail: str
) -> None:
    answer = api_for(player("alice")).post("/api/notifications/read/", body, format="json")

    assert answer.status_code == 400
    assert answer.json()["detail"] == detail


def test_notices_are_for_logged_in_players_only() -> None:
    assert refusal(APIClient().get("/api/notifications/")) == NOT_LOGGED_IN
    assert refusal(APIClient().post("/api/notifications/read/", {"all": True})) == NOT_LOGGED_IN
