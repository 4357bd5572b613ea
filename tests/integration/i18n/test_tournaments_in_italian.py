"""Everything a player or organizer reads about tournaments is served in Italian: the list,
each format's page and bracket in each state that shows different words, the organizer's
form with its errors, the cancel page, and the refusals a player or organizer causes.

Each page is asked for twice from the same rows (``Accept-Language: en`` and ``it``); what
reads the same in both, once the players' own data and the words both languages share are
masked (``tests.untranslated``), is a string the project forgot to translate.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.models import Currency, User
from core.errors import Conflict, DomainError, Forbidden
from matches.models import ClockKind
from matches.templatetags.clocks import clock_words, match_time
from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tests.untranslated import untranslated
from tournaments import scheduler, services
from tournaments.models import Tournament, TournamentFormat

# A match's end moves the bracket on once it commits, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)

# Words Italian writes as English does on these pages: format names Italian keeps, the
# swing's chips-per-point abbreviation, and the tiebreaks named after their inventors
# (Buchholz, Sonneborn-Berger).
SHARED = ["Swing", "Satellite", "CPP", "all-in", "Bu", "SB"]


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_run_in_process: None) -> None:
    """A match's end moves the bracket on, as it does on commit."""


def _other_apps_words() -> list[str]:
    """The clock kinds and currencies the form offers, which the matches and accounts apps
    name (and translate with their own pages)."""
    with translation.override("en"):
        return [str(label) for _, label in (*ClockKind.choices, *Currency.choices)]


def _both(client: Client, url: str, status: int = 200) -> tuple[str, str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == status, url
    if "<html" in italian.content.decode():  # a whole page, not the bracket's fragment
        assert 'lang="it"' in italian.content.decode()
    return english.content.decode(), italian.content.decode()


def _data(*users: User) -> list[str]:
    return [value for user in users for value in (user.username, user.profile.display_name)]


def _this_month() -> list[str]:
    with translation.override("it"):
        return [date_format(timezone.now(), "M")]


def _clock(tournament: Tournament) -> list[str]:
    """The clock's words, which the matches app writes (and translates with its pages)."""
    with translation.override("en"):
        return [
            clock_words(tournament.clock),
            match_time(tournament.clock, tournament.round_lengths),
        ]


def _written(tournament: Tournament, *users: User) -> list[str]:
    return [tournament.name, *_data(tournament.organizer, *users), *_this_month(), *SHARED]


def _started(format_: str, field: list[User], prefix: str, **fields: Any) -> Tournament:
    owner = organizer(f"{prefix}-orla")
    tournament = open_tournament(owner, name=f"{prefix.title()} Cup", format=format_, **fields)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _finished_knockout(prefix: str = "k") -> tuple[Tournament, list[User]]:
    field = players(4, prefix=prefix)
    tournament = _started(TournamentFormat.KNOCKOUT, field, prefix)
    while concede_round(tournament):
        scheduler.matches_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament, field


def _assert_italian(
    tournament: Tournament, field: list[User], client: Client, paths: tuple[str, ...]
) -> str:
    data = [*_written(tournament, *field), *_clock(tournament)]
    italian = ""
    for path in paths:
        english, italian = _both(client, f"/tournaments/{tournament.pk}/{path}")
        assert untranslated(english, italian, data) == [], path
    return italian


# The list ---------------------------------------------------------------------------------


def test_the_tournament_list_of_every_state_reads_in_italian() -> None:
    finished, field = _finished_knockout()
    owner = organizer("lisa")
    open_tournament(owner, name="Open Night", format="sit_and_go", seats=4)
    client = Client()
    client.force_login(owner)  # an organizer sees "New tournament" and "My tournaments"
    data = [*_written(finished, *field, owner), "Open Night"]

    for show in ("open", "running", "finished", "nothing"):
        english, italian = _both(client, f"/tournaments/?show={show}")

        assert untranslated(english, italian, data) == [], show
    english, italian = _both(client, "/tournaments/?show=open&format=swiss")
    assert "Nessun torneo corrisponde a questi filtri." in italian
    assert untranslated(english, italian, data) == []
    english, italian = _both(client, "/tournaments/?show=finished")
    assert "Eliminazione diretta" in italian
    assert "Concluso" in italian


# Each format's page, in each state ------------------------------------------------------


def test_an_open_knockout_with_check_in_reads_in_italian_to_players_and_organizer() -> None:
    owner = organizer("olga")
    tournament = open_tournament(
        owner,
        name="Evening Knockout",
        starts_at=timezone.now() + timezone.timedelta(minutes=20),
        check_in_minutes=30,
        round_minutes=60,
    )
    field = players(2, prefix="e")
    register_all(tournament, field)
    tournament.refresh_from_db()
    for viewer in (owner, field[0], players(1, prefix="v")[0]):
        client = Client()
        client.force_login(viewer)
        italian = _assert_italian(tournament, [*field, viewer], client, ("",))
    assert "Iscriviti" in italian  # the visitor who has not entered
    assert "10,00 + 0,65" in italian


def test_a_running_and_a_finished_knockout_read_in_italian() -> None:
    field = players(8, prefix="r")
    tournament = _started(TournamentFormat.KNOCKOUT, field, "r")
    client = Client()
    client.force_login(field[0])  # their own path and next match

    italian = _assert_italian(tournament, field, client, ("", "bracket/", "bracket/fragment/"))
    assert "Quarti di finale" in italian

    finished, others = _finished_knockout("f")
    italian = _assert_italian(finished, others, Client(), ("bracket/", ""))
    assert "Campione:" in italian
    assert "1º" in italian


def test_a_double_elimination_with_a_consolation_reads_in_italian() -> None:
    field = players(6, prefix="d")
    tournament = _started(
        TournamentFormat.DOUBLE_ELIMINATION,
        field,
        "d",
        consolation_through_round=1,
    )

    italian = _assert_italian(tournament, field, Client(), ("", "bracket/"))
    assert "Tabellone vincenti" in italian
    assert "Finalissima" in italian


def test_a_knockout_with_a_last_chance_reads_in_italian() -> None:
    field = players(9, prefix="l")
    tournament = _started(
        TournamentFormat.KNOCKOUT, field, "l", last_chance_reenters_at=4, round_lengths=(1,)
    )

    italian = _assert_italian(tournament, field, Client(), ("bracket/",))
    assert "Ripescaggio" in italian


def test_a_swiss_and_a_round_robin_read_in_italian_with_standings_and_pairings() -> None:
    swiss_field = players(5, prefix="s")
    swiss = _started(TournamentFormat.SWISS, swiss_field, "s", rounds=3)
    italian = _assert_italian(swiss, swiss_field, Client(), ("", "bracket/"))
    assert "Classifica" in italian
    assert "Turno 1" in italian
    assert "riposo" in italian

    robin_field = players(6, prefix="g")
    robin = _started(
        TournamentFormat.ROUND_ROBIN,
        robin_field,
        "g",
        group_size=3,
        advance_per_group=1,
    )
    italian = _assert_italian(robin, robin_field, Client(), ("", "bracket/"))
    assert "Girone A" in italian


def test_a_swing_reads_in_italian_before_and_while_it_is_played() -> None:
    owner = organizer("sara")
    tournament = open_tournament(
        owner,
        name="Thursday Swing",
        format="swing",
        starting_chips=1000,
        cpp_levels=(50, 100),
        cpp_step=50,
        jacoby=True,
    )
    field = players(4, prefix="w")
    register_all(tournament, field)
    italian = _assert_italian(tournament, field, Client(), ("",))
    assert "Fiches iniziali" in italian

    services.tournament_start(tournament_id=tournament.pk, user=owner)
    tournament.refresh_from_db()
    italian = _assert_italian(tournament, field, Client(), ("", "bracket/"))
    assert "Partite in corso" in italian


def test_a_satellite_and_a_sit_and_go_open_for_registration_read_in_italian() -> None:
    owner = organizer("tina")
    target = open_tournament(owner, name="Main Event", buy_in_cents=4000)
    satellite = open_tournament(
        owner, name="Road to Main", format="satellite", target_id=target.pk, max_entrants=8
    )
    sit_and_go = open_tournament(owner, name="Quick Six", format="sit_and_go", seats=6)
    register_all(sit_and_go, players(2, prefix="q"))

    for tournament in (satellite, sit_and_go):
        data = [target.name]
        client = Client()
        english, italian = _both(client, f"/tournaments/{tournament.pk}/")
        written = [*_written(tournament, *players_of(tournament)), *_clock(tournament), *data]
        assert untranslated(english, italian, written) == [], tournament.name
    assert "40,00" in italian or "Pagati sul tavolo completo di 6 posti." in italian


def players_of(tournament: Tournament) -> list[User]:
    return [entry.user for entry in tournament.entries.select_related("user__profile")]


def test_a_cancelled_tournament_and_the_cancel_page_read_in_italian() -> None:
    field = players(4, prefix="c")
    tournament = _started(TournamentFormat.KNOCKOUT, field, "c")
    owner = tournament.organizer
    client = Client()
    client.force_login(owner)

    italian = _assert_italian(tournament, field, client, ("cancel/",))
    assert "Annullare C Cup?" in italian
    assert "I 2 match in corso finiscono" in italian

    services.tournament_cancel(tournament_id=tournament.pk, user=owner)
    tournament.refresh_from_db()
    italian = _assert_italian(tournament, field, client, ("",))
    assert "Annullato" in italian


# The organizer's form ---------------------------------------------------------------------


def test_the_new_tournament_form_and_its_errors_read_in_italian() -> None:
    owner = organizer("fran")
    client = Client()
    client.force_login(owner)
    data = [*_data(owner), *_this_month(), *SHARED, *_other_apps_words()]

    english, italian = _both(client, "/tournaments/new/")
    data += re.findall(r"data-clock-sentence[^>]*>([^<]+)<", english)
    assert untranslated(english, italian, data) == []
    assert "Formula" in italian
    assert "come il tabellone principale" in italian

    wrong = {
        "name": " ",
        "format": "swiss",
        "buy_in": "10",
        "fee": "1",
        "currency": "FUN",
        "seeding": "rating",
        "round_lengths": "5, 99",
        "prizes": "50, 30, 30",
        "clock_kind": "none",
        "move_seconds": "10",
        "reserve_seconds": "0",
        "abandon_policy": "engine",
        "show_up_seconds": "10",
        "rounds": "",
    }
    english = client.post("/tournaments/new/", wrong, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.post("/tournaments/new/", wrong, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == 400
    english_text, italian_text = english.content.decode(), italian.content.decode()
    assert "Each match is 1 to 25 points, not 99." in english_text
    assert "Indica quanti turni ha lo svizzero." in italian_text
    assert "Ogni match è da 1 a 25 punti, non 99." in italian_text
    assert untranslated(english_text, italian_text, data) == []


def test_the_edit_form_reads_in_italian() -> None:
    owner = organizer("edo")
    tournament = open_tournament(
        owner, name="Edit Me", format="swing", starting_chips=800, cpp_levels=(10, 20)
    )
    client = Client()
    client.force_login(owner)

    english, italian = _both(client, f"/tournaments/{tournament.pk}/edit/")

    assert "Modifica Edit Me" in italian
    data = [*_written(tournament), *_other_apps_words()]
    data += re.findall(r"data-clock-sentence[^>]*>([^<]+)<", english)
    assert untranslated(english, italian, data) == []


# Refusals ---------------------------------------------------------------------------------


def _refused(error: type[Exception], call: Any) -> tuple[str, str]:
    said = []
    for language in ("en", "it"):
        with translation.override(language), pytest.raises(error) as refusal:
            call()
        said.append(str(refusal.value))
    return said[0], said[1]


def test_registration_and_edit_refusals_read_in_the_players_language() -> None:
    finished, field = _finished_knockout("x")

    english, italian = _refused(
        Conflict, lambda: services.entry_register(tournament_id=finished.pk, user=field[0])
    )
    assert english == "X Cup has finished, so it cannot be joined now."
    assert italian == "X Cup è concluso, quindi ora non ci si può iscrivere."

    english, italian = _refused(
        Conflict,
        lambda: services.tournament_edit(
            tournament_id=finished.pk, user=finished.organizer, changes={"name": "New"}
        ),
    )
    assert italian == "X Cup è concluso: non si può più modificare."

    english, italian = _refused(
        Forbidden, lambda: services.tournament_open(tournament_id=finished.pk, user=field[1])
    )
    assert italian == "Solo l'organizzatore di X Cup può aprirlo."


def test_a_full_sit_and_go_and_a_start_with_too_few_players_are_refused_in_italian() -> None:
    owner = organizer("nina")
    lonely = open_tournament(owner, name="Lonely Cup")
    register_all(lonely, players(1, prefix="n"))

    english, italian = _refused(
        Conflict, lambda: services.tournament_start(tournament_id=lonely.pk, user=owner)
    )
    assert english == "Lonely Cup needs at least 2 players to start; it has 1."
    assert italian == "Lonely Cup richiede almeno 2 giocatori per iniziare; ne ha 1."


def test_a_formats_own_refusal_reads_in_italian_with_its_numbers_written_in_italian() -> None:
    owner = organizer("ugo")
    target = open_tournament(owner, name="Big Final", buy_in_cents=500_000)
    satellite = open_tournament(owner, name="Tiny Sat", buy_in_cents=100, fee_cents=0)
    Tournament.objects.filter(pk=satellite.pk).update(
        format="satellite", target=target, max_entrants=None
    )
    register_all(satellite, players(3, prefix="u"))

    english, italian = _refused(
        DomainError, lambda: services.tournament_start(tournament_id=satellite.pk, user=owner)
    )
    assert english == (
        "The prize pool of 3.00 does not cover one seat in Big Final (buy-in 5,000.00). "
        "Raise the buy-in or the number of players."
    )
    assert italian == (
        "Il montepremi di 3,00 non copre un posto in Big Final (quota 5.000,00). "
        "Alza la quota o il numero di giocatori."
    )


def test_a_refusal_shown_after_an_action_reads_in_italian() -> None:
    finished, field = _finished_knockout("y")
    client = Client()
    client.force_login(field[0])

    answer = client.post(
        f"/tournaments/{finished.pk}/register/", HTTP_ACCEPT_LANGUAGE="it", follow=True
    )

    assert "Y Cup è concluso, quindi ora non ci si può iscrivere." in answer.content.decode()
