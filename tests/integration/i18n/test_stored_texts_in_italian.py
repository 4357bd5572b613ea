"""What the site writes and keeps for a player (notices, e-mails, a dispute's decision, a
sanction) reads in the language the player chose, wherever it is read: the socket's frame,
the bell's page, the API, the mailbox. A player who reads English reads English still."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import translation

from accounts.models import Profile, User
from disputes import services
from disputes.models import Dispute
from disputes.selectors import audit_log
from disputes.templatetags.disputes import audit_what
from fairplay.models import Sanction
from fairplay.selectors import sanction_told
from lobby.models import Notification
from tests.factories import PASSWORD
from tests.integration.config.rate_limits import low_rates
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.lobby.helpers import me_socket, next_frame, player, texts
from tests.integration.matches.helpers import api_for
from tests.mailbox import Mailbox, body
from tests.mailbox import mailbox as mailbox  # the fixture: a real SMTP server

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tasks_and_budgets(tasks_run_in_process: None) -> Iterator[None]:
    with low_rates():
        yield


def _challenge(challenger: User, opponent: User, **terms: object) -> int:
    answer = api_for(challenger).post(
        "/api/matches/", {"opponent": opponent.username, **terms}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    return int(answer.json()["id"])


def _italian(username: str, display_name: str, **options: object) -> User:
    return player(username, display_name, language="it", **options)


@pytest.mark.asyncio
async def test_an_italian_player_reads_a_challenge_in_italian_live_in_the_bell_and_the_api() -> (
    None
):
    # given Bruno, who reads Italian, with a page open, and Alice, who reads English
    alice = await sync_to_async(player)("alice", "Alice Adams")
    bruno = await sync_to_async(_italian)("bruno", "Bruno Costa")
    socket = await me_socket(bruno)

    # when Alice challenges him to a staked 5-point match
    match_id = await sync_to_async(_challenge)(
        alice, bruno, length=5, stake_cents=12345, currency="FUN"
    )

    # then the frame, the stored notice, the page and the API read Italian, money included
    said = "Alice Adams ti sfida a un match a 5 punti per 123,45 FUN."
    frame = await next_frame(socket, "notice")
    assert frame["notice"]["text"] == said
    assert await sync_to_async(texts)(bruno) == [said]
    page = await sync_to_async(_page)(bruno, "/notifications/", "en")
    assert said in page
    listed = await sync_to_async(api_for(bruno).get)("/api/notifications/")
    assert [notice["text"] for notice in listed.json()["notifications"]] == [said]
    await socket.disconnect()

    # and when Bruno declines, Alice, who reads English, reads it in English
    declined = await sync_to_async(api_for(bruno).post)(f"/api/matches/{match_id}/decline/")
    assert declined.status_code == 200, declined.json()
    assert (await sync_to_async(texts)(alice))[0] == (
        "Bruno Costa declined your challenge to a 5-point match for 123.45 FUN."
    )


def _page(user: User, url: str, language: str) -> str:
    client = Client()
    client.force_login(user)
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return answer.content.decode()


def test_each_player_reads_the_end_of_a_match_and_a_decision_in_their_language() -> None:
    # given Alice (English) beat Bruno (Italian) in a staked 1-point match, and Bruno disputes it
    alice, bruno, sam = player("alice", "Alice Adams"), _italian("bruno", "Bruno Costa"), staff()
    match = finished_match(alice, bruno, stake_cents=500)
    assert texts(bruno)[0].startswith("Hai perso il tuo match a 1 punto per 5,00 FUN contro")
    assert texts(alice)[0].startswith("You won your 1-point match for 5.00 FUN against")
    filed = file(bruno, match)
    assert filed.status_code == 201, filed.json()
    dispute = Dispute.objects.get(pk=filed.json()["id"])

    # when staff dismiss it
    services.dispute_decide(
        dispute_id=dispute.pk, staff=sam, decision="dismiss", reason="Il registro è pulito."
    )

    # then each is told in their language
    assert texts(bruno)[0] == (
        "La tua contestazione sul tuo match contro Alice Adams è stata decisa: Respinta."
    )
    assert texts(alice)[0] == "Bruno Costa's dispute about your match is decided: Dismissed."
    # and the decision's lines, written by the code, read in the reader's language; the
    # staff's reason reads as they wrote it
    italian = _page(bruno, f"/disputes/{dispute.pk}/", "it")
    assert "Il reclamo è respinto; il risultato resta valido." in italian
    assert "Il registro è pulito." in italian
    english = _page(alice, f"/disputes/{dispute.pk}/", "en")
    assert "The complaint is dismissed; the result stands." in english
    answer = api_for(bruno).get(f"/api/disputes/{dispute.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.json()["outcome"]["summary"] == [
        "Il reclamo è respinto; il risultato resta valido."
    ]
    # and the audit log says what was done in the staff's language, from the same rows
    entries = list(audit_log(dispute_id=dispute.pk))
    with translation.override("it"):
        assert [audit_what(entry) for entry in entries] == [
            "Respinta",
            "Aperta (Risultato sbagliato)",
        ]
    with translation.override("en"):
        assert [audit_what(entry) for entry in entries] == [entry.what for entry in entries]


def test_a_notice_mailed_to_an_italian_player_is_in_italian(mailbox: Mailbox) -> None:
    # given Bruno, who reads Italian, confirmed and away from the site
    alice, bruno = player("alice", "Alice Adams"), _italian("bruno", "Bruno", email="b@x.it")
    User.objects.filter(pk=bruno.pk).update(email_verified=True)

    # when Alice challenges him
    _challenge(alice, bruno, length=5)

    # then his mail is in Italian, its subject and the notice it repeats
    [message] = mailbox.about("Hai ricevuto una sfida")
    assert message["Subject"] == "Crawford: Hai ricevuto una sfida"
    assert "Alice Adams ti sfida a un match a 5 punti." in body(message)


def test_a_language_picked_in_the_switcher_is_remembered_on_the_account() -> None:
    bruno = player("bruno", "Bruno")
    client = Client()
    client.force_login(bruno)

    answer = client.post("/i18n/setlang/", {"language": "it", "next": "/"})

    assert answer.status_code == 302
    assert Profile.objects.get(user=bruno).language == "it"
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert Profile.objects.get(user=bruno).language == "it"
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert Profile.objects.get(user=bruno).language == "en"
    # a visitor's choice goes in the cookie alone
    assert Client().post("/i18n/setlang/", {"language": "it", "next": "/"}).status_code == 302


def test_a_player_signs_up_in_the_language_of_the_page() -> None:
    form = {
        "username": "carla",
        "display_name": "Carla",
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }

    answer = Client().post("/signup/", form, HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")

    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert Profile.objects.get(user__username="carla").language == "it"


def test_a_computer_played_player_and_a_sanction_read_in_the_readers_language() -> None:
    demo = player("robo", "Robo", bot_strength="world_class")
    warned = Sanction(kind="warn", reason="Un account a testa, per favore.")

    with translation.override("it"):
        assert demo.profile.computer_played == (
            "Giocatore dimostrativo guidato dal computer, di livello mondiale"
        )
        assert sanction_told(warned) == (
            "Un avvertimento dallo staff: Un account a testa, per favore."
        )
    with translation.override("en"):
        assert demo.profile.computer_played == "Computer-played demo player, world class"
        assert sanction_told(warned) == "A warning from staff: Un account a testa, per favore."


def test_an_english_player_still_reads_english_and_old_notices_keep_their_text() -> None:
    alice, bruno = player("alice", "Alice Adams"), _italian("bruno", "Bruno Costa")
    Notification.objects.create(user=bruno, kind="challenge", key="old", text="Written before.")

    _challenge(bruno, alice, length=11)

    assert texts(alice) == ["Bruno Costa challenges you to an 11-point match."]
    assert texts(bruno) == ["Written before."]
