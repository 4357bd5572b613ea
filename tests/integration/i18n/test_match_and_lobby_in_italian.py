"""The match page, the dice check, the adjudication page and the play lobby read in Italian,
and the refusals a player causes there come back in the language they asked in.

Each page is asked for twice from the same rows (``Accept-Language: en`` and ``it``); what
reads the same in both, once the players' data are masked, was left in English
(``tests.untranslated``).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from accounts.roles import Role
from lobby.seeks import SeekTerms, seek_post
from matches.clock import match_time_words
from matches.models import DEFAULT_CLOCK
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match
from tests.integration.matches.helpers import api_for, start_match
from tests.untranslated import untranslated

pytestmark = pytest.mark.django_db


def _both(client: Client, url: str) -> tuple[str, str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == 200, url
    assert 'lang="it"' in italian.content.decode()
    return english.content.decode(), italian.content.decode()


def _data(*users: User) -> list[str]:
    return [value for user in users for value in (user.username, user.profile.display_name)]


# Words Italian players write as English does: a backgammon term, a badge's name and a key.
SAME = ["Raccoon", "Post-Crawford", "Esc"]


def _lobby_with_everything() -> tuple[User, list[str]]:
    """Alice's play lobby with a challenge to her, one from her, a live match and a finished
    one, and open seeks: one she may take, one rated beyond her and her own."""
    alice = UserFactory.create(username="alice", display_name="Alice Adams")
    bruno = UserFactory.create(username="bruno", display_name="Bruno Bianchi")
    carla = UserFactory.create(username="carla", display_name="Carla Conti")
    dario = UserFactory.create(username="dario", display_name="Dario Dini")
    api_for(bruno).post("/api/matches/", {"opponent": "alice", "length": 3}, format="json")
    api_for(alice).post("/api/matches/", {"opponent": "carla", "length": 7}, format="json")
    start_match(bruno, carla, length=5)
    finished_match(carla, dario)
    seek_post(user=bruno, terms=SeekTerms(length=9))
    seek_post(user=carla, terms=SeekTerms(length=3, min_rating=1900))
    seek_post(user=alice, terms=SeekTerms(length=11))
    return alice, _data(alice, bruno, carla, dario)


def test_the_play_lobby_reads_in_italian_with_challenges_matches_and_seeks() -> None:
    alice, data = _lobby_with_everything()
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, "/play/")

    assert untranslated(english, italian, data) == []
    assert "Proposte di gioco aperte" in italian
    assert "Questa proposta è per giocatori con rating da 1900 in su; il tuo rating è" in italian


def test_a_visitor_reads_the_play_lobby_in_italian() -> None:
    _, data = _lobby_with_everything()

    english, italian = _both(Client(), "/play/")

    assert untranslated(english, italian, data) == []
    assert "Accedi per accettare una proposta di gioco" in italian


def test_the_open_seeks_fragment_reads_in_italian() -> None:
    alice, data = _lobby_with_everything()
    client = Client()
    client.force_login(alice)

    english = client.get("/play/seeks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    italian = client.get("/play/seeks/", HTTP_ACCEPT_LANGUAGE="it").content.decode()

    assert untranslated(english, italian, data) == []


def test_an_invitation_on_the_board_reads_in_italian() -> None:
    bruno = UserFactory.create(username="bruno", display_name="Bruno Bianchi")
    alice = UserFactory.create(username="alice", display_name="Alice Adams")
    answer = api_for(bruno).post("/api/matches/", {"opponent": "alice", "length": 5}, format="json")
    client = Client()
    client.force_login(alice)

    english, italian = _both(client, f"/matches/{answer.json()['id']}/")

    assert untranslated(english, italian, [*_data(alice, bruno), *SAME]) == []
    assert "Bruno Bianchi ti sfida a questo match." in italian
    assert "match ai 5 punti n." in italian


def test_a_finished_match_its_dice_check_and_a_watchers_view_read_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Adams")
    bruno = UserFactory.create(username="bruno", display_name="Bruno Bianchi")
    match = finished_match(alice, bruno)
    player, watcher = Client(), Client()
    player.force_login(alice)

    for client in (player, watcher):
        for url in (f"/matches/{match.pk}/", f"/matches/{match.pk}/dice/"):
            english, italian = _both(client, url)

            assert untranslated(english, italian, [*_data(alice, bruno), *SAME]) == [], url
    assert "Tutti i lanci verificati" in italian


def test_the_adjudication_page_of_a_match_never_adjudicated_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    bruno = UserFactory.create(username="bruno")
    sam = UserFactory.create(username="sam", display_name="Sam Staff", role=Role.STAFF)
    match = finished_match(alice, bruno)
    client = Client()
    client.force_login(sam)

    english, italian = _both(client, f"/matches/{match.pk}/adjudication/")

    assert untranslated(english, italian, [*_data(alice, bruno, sam), "staff"]) == []
    assert "Questo match non è stato aggiudicato." in italian


def test_the_clock_sentence_is_spelled_in_italian() -> None:
    with translation.override("it"):
        words = match_time_words(DEFAULT_CLOCK, lengths=[7])

    assert (
        words
        == "Un match ai 7 punti: 14 minuti a testa. I primi 12 secondi di ogni mossa sono gratuiti."
    )


# Refusals ---------------------------------------------------------------------------------


def test_a_play_out_of_turn_is_refused_in_the_players_language() -> None:
    alice = UserFactory.create(username="alice")
    bruno = UserFactory.create(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    url = f"/api/matches/{match_id}/actions/"
    # After the opening roll one player moves: the other one offers to double out of turn.
    waiting = next(
        player
        for player in (alice, bruno)
        if api_for(player).post(url, {"type": "double", "seq": 1}, format="json").status_code == 409
    )

    italian = api_for(waiting).post(
        url, {"type": "double", "seq": 2}, format="json", HTTP_ACCEPT_LANGUAGE="it"
    )
    english = api_for(waiting).post(
        url, {"type": "double", "seq": 3}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )

    assert italian.status_code == english.status_code == 409
    assert italian.json()["detail"] == "Non tocca a te"
    assert english.json()["detail"] == "It is not your turn"


def test_a_seek_beyond_the_players_balance_is_refused_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    body = {"length": 5, "stake_cents": 5_000_000, "currency": "FUN"}

    italian = api_for(alice).post("/api/seeks/", body, format="json", HTTP_ACCEPT_LANGUAGE="it")
    english = api_for(alice).post("/api/seeks/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")

    assert italian.status_code == english.status_code == 400
    assert english.json()["detail"].startswith("You have ")
    assert italian.json()["detail"].startswith("Hai ")
    assert "match ai 5 punti per 50.000,00 FUN" in italian.json()["detail"]


def test_a_challenge_to_nobody_is_refused_on_the_play_page_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    client = Client()
    client.force_login(alice)
    form = {"opponent": "nobody", "kind": "match", "length": "5", "clock": "standard"}

    italian = client.post("/play/challenge/", form, HTTP_ACCEPT_LANGUAGE="it")

    assert italian.status_code == 400
    assert "Non c&#x27;è nessun giocatore di nome nobody da sfidare." in italian.content.decode()
