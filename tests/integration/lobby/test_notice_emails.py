"""The notices a player chooses also come by e-mail, received here by a real SMTP server:
a tournament about to start, a challenge while away, a dispute decided; each once, only to
a confirmed address, with a link that stops them without logging in."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import Profile, User
from accounts.services import seen_on_site
from lobby.mail import tell_tournaments_soon
from lobby.models import NoticeKind, Notification
from lobby.notifications import notify
from tests.integration.config.rate_limits import low_rates
from tests.integration.lobby.helpers import me_socket, next_frame, player
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer, register_all
from tests.mailbox import Mailbox, body, links

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_budgets() -> Iterator[None]:
    with low_rates():
        yield


def _confirmed(username: str) -> User:
    user = player(username, email=f"{username}@example.com")
    User.objects.filter(pk=user.pk).update(email_verified=True)
    return user


def _challenge(challenger: User, opponent: User) -> None:
    response = api_for(challenger).post(
        "/api/matches/", {"opponent": opponent.username, "length": 5}, format="json"
    )
    assert response.status_code == 201, response.json()


def test_a_challenge_while_away_is_mailed_and_its_link_stops_them(mailbox: Mailbox) -> None:
    # given Bruno, confirmed and away from the site
    alice, bruno = player("alice", "Alice Adams"), _confirmed("bruno")

    # when Alice challenges him
    _challenge(alice, bruno)

    # then the challenge reaches his mailbox, with a link to stop such e-mails
    [message] = mailbox.about("You have been challenged")
    assert message["To"] == "bruno@example.com"
    assert "Alice Adams challenges you to a 5-point match." in body(message)
    [unsubscribe] = [link for link in links(message) if "/email/unsubscribe/" in link]
    assert str(message["List-Unsubscribe"]).strip() == f"<{unsubscribe}>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # and following it, without logging in, stops them
    stranger = Client()
    asked = stranger.get(unsubscribe)
    assert "Stop these e-mails?" in asked.content.decode()
    assert Profile.objects.get(user=bruno).mail_challenge_away  # a look changes nothing
    done = stranger.post(unsubscribe)
    assert "No more of these e-mails" in done.content.decode()
    assert not Profile.objects.get(user=bruno).mail_challenge_away
    _challenge(player("carl"), bruno)
    assert Notification.objects.filter(user=bruno, kind=NoticeKind.CHALLENGE).count() == 2
    assert len(mailbox.about("You have been challenged", count=0)) == 1


def test_a_player_on_the_site_hears_a_challenge_from_the_bell_alone(mailbox: Mailbox) -> None:
    alice, bruno = player("alice"), _confirmed("bruno")
    seen_on_site(user_id=bruno.pk)

    _challenge(alice, bruno)

    assert Notification.objects.filter(user=bruno, kind=NoticeKind.CHALLENGE).exists()
    assert mailbox.about("You have been challenged", count=0) == []


@pytest.mark.asyncio
async def test_a_page_open_on_the_site_counts_as_being_there(mailbox: Mailbox) -> None:
    # given Bruno, confirmed, who opens the lobby page (its tab names the page on /ws/me/)
    alice, bruno = await sync_to_async(player)("alice"), await sync_to_async(_confirmed)("bruno")
    socket = await me_socket(bruno)
    await socket.send_json_to({"type": "page", "url": "/play/"})
    await next_frame(socket, "page")

    # when Alice challenges him
    await sync_to_async(_challenge)(alice, bruno)

    # then the bell tells him, and no e-mail does
    assert (await next_frame(socket, "notice"))["notice"]["kind"] == "challenge"
    assert mailbox.about("You have been challenged", count=0) == []
    await socket.disconnect()


def test_a_player_seen_long_ago_is_away(mailbox: Mailbox) -> None:
    alice, bruno = player("alice"), _confirmed("bruno")
    seen_on_site(user_id=bruno.pk, now=timezone.now() - timedelta(minutes=6))

    _challenge(alice, bruno)

    assert len(mailbox.about("You have been challenged")) == 1


def test_an_address_not_confirmed_gets_no_notice(mailbox: Mailbox) -> None:
    alice, bruno = player("alice"), player("bruno", email="bruno@example.com")

    _challenge(alice, bruno)

    mailbox.about("confirm your e-mail address")
    assert mailbox.about("You have been challenged", count=0) == []


def test_entrants_are_mailed_once_ten_minutes_before_their_tournament(mailbox: Mailbox) -> None:
    # given a tournament starting in eight minutes, two confirmed entrants and one who
    # does not want it by e-mail
    starts_at = timezone.now() + timedelta(minutes=8)
    tournament = open_tournament(organizer(), name="Evening Knockout", starts_at=starts_at)
    entrants = [_confirmed("anna"), _confirmed("ben"), _confirmed("cleo")]
    Profile.objects.filter(user=entrants[2]).update(mail_tournament_soon=False)
    register_all(tournament, entrants)

    # when the sweep runs, and again
    told = tell_tournaments_soon()
    again = tell_tournaments_soon()

    # then everyone has the notice once, and two have the e-mail once
    assert (told, again) == (3, 0)
    for entrant in entrants:
        [notice] = Notification.objects.filter(user=entrant, kind=NoticeKind.TOURNAMENT_SOON)
        assert notice.text == f"Evening Knockout starts in 8 minutes, at {starts_at:%H:%M} UTC."
    mailed = mailbox.about("Your tournament starts soon", count=2)
    assert sorted(message["To"] for message in mailed) == ["anna@example.com", "ben@example.com"]
    assert f"http://testserver/tournaments/{tournament.pk}/" in body(mailed[0])
    assert len(mailbox.about("Your tournament starts soon", count=0)) == 2


def test_a_tournament_further_ahead_is_not_told_yet(mailbox: Mailbox) -> None:
    tournament = open_tournament(organizer(), starts_at=timezone.now() + timedelta(minutes=30))
    register_all(tournament, [_confirmed("anna")])

    assert tell_tournaments_soon() == 0


def test_a_mail_programs_one_click_stops_dispute_decisions(mailbox: Mailbox) -> None:
    bruno = _confirmed("bruno")
    notify(
        user_id=bruno.pk,
        kind=NoticeKind.DISPUTE_DECIDED,
        key="dispute:1",
        text="Your dispute about the match against Alice Adams was decided: voided.",
        url="/disputes/1/",
    )
    [message] = mailbox.about("Your dispute has been decided")
    unsubscribe = str(message["List-Unsubscribe"]).strip().strip("<>")

    answer = Client().post(unsubscribe, {"List-Unsubscribe": "One-Click"})

    assert answer.status_code == 200
    assert not Profile.objects.get(user=bruno).mail_dispute_decided
    assert Profile.objects.get(user=bruno).mail_challenge_away


def test_a_made_up_unsubscribe_link_is_refused_in_words(client: Client) -> None:
    response = client.post("/email/unsubscribe/made-up/")

    assert response.status_code == 400
    assert "not an unsubscribe link Crawford sent" in response.content.decode()
