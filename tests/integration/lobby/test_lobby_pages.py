"""The pages: the bell on every page, /notifications/, and the play lobby's seeks, posted,
taken, cancelled and "Play now", through forms that work without JavaScript."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Profile, User
from lobby import seeks
from lobby.models import Notification, Seek
from lobby.seeks import SeekTerms
from matches.models import Match
from tests.integration.lobby.helpers import player

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _notice(user: User, n: int, *, read: bool = False, **fields: object) -> Notification:
    return Notification.objects.create(
        user=user,
        kind="challenge",
        key=f"challenge:{n}",
        text=f"Notice {n}",
        url=f"/matches/{n}/",
        created_at=timezone.now() - timedelta(minutes=100 - n),
        read_at=timezone.now() if read else None,
        **fields,
    )


def test_the_bell_shows_the_unread_count_on_every_page_and_is_absent_for_visitors() -> None:
    alice = player("alice")
    for n in range(3):
        _notice(alice, n, read=n == 0)

    page = _client(alice).get("/tournaments/").content.decode()
    visitor = Client().get("/tournaments/").content.decode()

    assert 'data-testid="bell-count">2</span>' in page
    assert 'aria-label="Notifications: 2 unread"' in page
    assert 'data-sound="on"' in page
    assert "js/notices/main.js" in page
    assert "nav-bell" not in visitor
    assert "js/notices/main.js" not in visitor


def test_the_bell_stays_quiet_for_a_player_who_turned_the_sound_off() -> None:
    alice = player("alice")
    client = _client(alice)

    saved = client.post(
        "/profile/",
        {"display_name": "Alice", "checker_colour": "white", "notification_sound": ""},
    )

    assert saved.status_code == 302
    assert Profile.objects.get(user=alice).notification_sound is False
    assert 'data-sound="off"' in client.get("/").content.decode()


def test_the_notifications_page_lists_newest_first_and_marks_all_read() -> None:
    alice = player("alice")
    for n in range(3):
        _notice(alice, n, read=n == 1)
    client = _client(alice)

    page = client.get("/notifications/").content.decode()
    marked = client.post("/notifications/read/")

    assert page.index("Notice 2") < page.index("Notice 1") < page.index("Notice 0")
    assert page.count("notice-row notice-unread") == 2
    assert marked.status_code == 302
    assert not Notification.objects.filter(read_at__isnull=True).exists()
    assert 'data-testid="bell-count" hidden>0</span>' in client.get("/").content.decode()


def test_the_notifications_page_pages_back_through_older_notices() -> None:
    alice = player("alice")
    for n in range(55):
        _notice(alice, n)
    client = _client(alice)

    first = client.get("/notifications/").content.decode()
    older = Notification.objects.get(user=alice, key="challenge:5").pk
    second = client.get(f"/notifications/?before={older}").content.decode()

    assert all(f"Notice {n}<" in first for n in range(5, 55))
    assert f'href="?before={older}"' in first
    assert all(f"Notice {n}<" in second for n in range(5))
    assert "Notice 4<" not in first
    assert "Notice 5<" not in second
    assert client.get("/notifications/?before=x").status_code == 200


def test_the_notifications_page_is_for_logged_in_players() -> None:
    assert Client().get("/notifications/").status_code == 302


def test_the_play_lobby_lists_seeks_with_a_button_for_those_the_player_may_take() -> None:
    alice, bruno = player("alice", "Alice Adams", rating=1810.0), player("bruno")
    seek = seeks.seek_post(user=alice, terms=SeekTerms(length=7, stake_cents=250))

    page = _client(bruno).get("/play/").content.decode()
    fragment = _client(bruno).get("/play/seeks/").content.decode()
    own = _client(alice).get("/play/seeks/").content.decode()

    for html in (page, fragment):
        assert "Alice Adams" in html
        assert "7-point match for 2.50 FUN · rated" in html
        assert "12 s a move, 2 min a point" in html
        assert f'action="/play/seeks/{seek.pk}/take/"' in html
    assert 'data-testid="play-now"' in page
    assert 'data-testid="seek-form"' in page
    assert 'id="id_seek-length"' in page
    assert page.count('id="id_length"') == 1
    assert f'action="/play/seeks/{seek.pk}/cancel/"' in own
    assert "take/" not in own


def test_a_seek_posted_from_the_form_is_listed_and_errors_stay_beside_the_fields() -> None:
    alice = player("alice")
    client = _client(alice)

    wrong = client.post(
        "/play/seeks/post/", {"seek-kind": "match", "seek-currency": "FUN", "seek-clock": "x"}
    )
    posted = client.post(
        "/play/seeks/post/",
        {
            "seek-kind": "money",
            "seek-stake": "0.50",
            "seek-currency": "FUN",
            "seek-clock": "blitz",
            "seek-min_rating": "1400",
        },
        follow=True,
    )

    assert wrong.status_code == 400
    assert "Say how many points the match is played to." in wrong.content.decode()
    assert "Select a valid choice" in wrong.content.decode()
    assert "Your seek is posted" in posted.content.decode()
    seek = Seek.objects.get(creator=alice)
    assert (seek.kind, seek.stake_cents, seek.min_rating) == ("money", 50, 1400)
    assert seek.clock["move_seconds"] == 8
    # a money session's reserve is for the session, not counted per point
    assert "8 s a move, 30 s a game" in posted.content.decode()


def test_a_seek_taken_from_the_lobby_leads_to_the_board() -> None:
    alice, bruno = player("alice"), player("bruno")
    seek = seeks.seek_post(user=alice, terms=SeekTerms())

    taken = _client(bruno).post(f"/play/seeks/{seek.pk}/take/")
    late = _client(player("chloe")).post(f"/play/seeks/{seek.pk}/take/", follow=True)

    match = Match.objects.get()
    assert taken.headers["Location"] == f"/matches/{match.pk}/"
    assert "Someone took this seek already" in late.content.decode()


def test_play_now_from_the_lobby_plays_or_waits() -> None:
    alice, bruno = player("alice"), player("bruno")

    waiting = _client(alice).post("/play/now/", follow=True)
    playing = _client(bruno).post("/play/now/")

    assert "Nobody you can play is waiting: your seek is posted" in waiting.content.decode()
    assert playing.headers["Location"] == f"/matches/{Match.objects.get().pk}/"


def test_a_seek_is_cancelled_from_the_lobby_by_its_creator_only() -> None:
    alice = player("alice")
    seek = seeks.seek_post(user=alice, terms=SeekTerms())

    refused = _client(player("bruno")).post(f"/play/seeks/{seek.pk}/cancel/", follow=True)
    cancelled = _client(alice).post(f"/play/seeks/{seek.pk}/cancel/", follow=True)

    assert "This seek is not yours to cancel" in refused.content.decode()
    assert "Your seek is cancelled." in cancelled.content.decode()
    assert not Seek.objects.get(pk=seek.pk).is_open
