"""The analysis, library, profile, wallet, fair-play, dispute-filing and account pages, and
the e-mails, read in Italian with none of the project's words left in English; the refusals
a player causes there read in their language.

Each page is asked for twice from the same rows, with ``Accept-Language: en`` and ``it``
(``tests.untranslated``); the rows make each page show its variants (empty and full, money
moved and waiting, a case open, decided and appealed).
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts import ledger
from accounts.ledger.approvals import adjustment_ask
from accounts.mail import MailKind, notice_mail_send, password_reset_send, verification_send
from accounts.models import AdjustmentDirection, LedgerTransaction, Profile, User
from accounts.roles import Role
from analysis.match_analysis import match_analysis
from core.errors import DomainError
from fairplay import sanctions
from fairplay.cases import case_report
from fairplay.models import Case, CaseKind
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.results import result_of
from reviews.services import analysis_upload
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match
from tests.integration.matches.helpers import api_for, start_match
from tests.untranslated import countries_named_alike, untranslated

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "mat" / "crawford_3pt.analysis.json"


def _both(client: Client, url: str, status: int = 200) -> tuple[str, str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert english.status_code == italian.status_code == status, url
    assert 'lang="it"' in italian.content.decode()
    return english.content.decode(), italian.content.decode()


def _data(*users: User) -> list[str]:
    return [value for user in users for value in (user.username, user.profile.display_name)]


def _months() -> list[str]:
    """This month's short name where Italian writes it as English does ("Nov"): data, as
    the dates around it are."""
    with translation.override("it"):
        return [date_format(timezone.now(), "M"), date_format(timezone.now(), "F")]


STAFF = ["staff"]
# Backgammon's word Italian players use as English players do.
EQUITY = ["Equity"]


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# The analysis and the library ------------------------------------------------------------


def _analysed(alice: User, bruno: User) -> Analysis:
    """A finished match between them, analysed (GNU Backgammon's saved answer)."""
    match = finished_match(alice, bruno)
    players = [alice.username, bruno.username]
    return Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=players,
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result_of(match_analysis(json.loads(SAMPLE.read_text())), players),
        finished_at=timezone.now(),
    )


def test_the_analysis_of_a_match_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Adams")
    bruno = UserFactory.create(username="bruno", display_name="Bruno Bianchi")
    analysis = _analysed(alice, bruno)

    english, italian = _both(_logged_in(alice), f"/matches/{analysis.match_id}/analysis/")

    assert "Tasso di errore (mEMG per decisione)" in italian
    assert "Del mio avversario" in italian
    assert untranslated(english, italian, [*_data(alice, bruno), *EQUITY]) == []


def test_a_match_not_yet_analysed_and_one_that_failed_read_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    bruno = UserFactory.create(username="bruno")
    client = _logged_in(alice)
    match = finished_match(alice, bruno)

    english, italian = _both(client, f"/matches/{match.pk}/analysis/")

    assert "Questo match non è stato analizzato." in italian
    assert untranslated(english, italian, _data(alice, bruno)) == []

    Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=[alice.username, bruno.username],
        match_length=1,
        plies=0,
        status=AnalysisStatus.FAILED,
        error="engine gone",
    )
    english, italian = _both(client, f"/matches/{match.pk}/analysis/")

    assert "L'analisi non è riuscita: engine gone" in italian
    assert untranslated(english, italian, [*_data(alice, bruno), "engine gone"]) == []


def test_the_library_reads_in_italian_empty_and_with_an_upload() -> None:
    alice = UserFactory.create(username="alice")
    client = _logged_in(alice)

    english, italian = _both(client, "/analyses/")

    assert "Ancora nessun match caricato." in italian
    assert untranslated(english, italian, _data(alice)) == []

    mat = (Path(__file__).resolve().parents[2] / "data" / "mat" / "crawford_3pt.mat").read_bytes()
    upload = analysis_upload(owner=alice, filename="friday.mat", content=mat)
    english, italian = _both(client, "/analyses/")

    assert "3 punti" in italian
    data = [*_data(alice), *upload.players, "friday.mat", *_months()]
    assert untranslated(english, italian, data) == []


def test_an_upload_refused_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    client = _logged_in(alice)

    refused = client.post(
        "/analyses/",
        {"file": _named(b"\x00\x01 not a match", "photo.mat")},
        HTTP_ACCEPT_LANGUAGE="it",
    )

    assert refused.status_code in (400, 503)
    if refused.status_code == 400:
        assert "Questo non è un file di testo: un file .mat è testo." in refused.content.decode()
    with translation.override("it"), pytest.raises(DomainError) as error:
        analysis_upload(owner=alice, filename="empty.mat", content=b"\x00")
    assert str(error.value) == "Questo non è un file di testo: un file .mat è testo."


def _named(content: bytes, name: str) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="text/plain")


# The profile and the wallet --------------------------------------------------------------


def test_the_profile_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Rossi")
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])

    english, italian = _both(_logged_in(alice), "/profile/")

    assert "Esci ovunque" in italian
    data = [*_data(alice), "alice@example.com", *_months(), *countries_named_alike()]
    assert untranslated(english, italian, data) == []


def test_a_players_wallet_with_money_moved_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice", display_name="Alice Adams")
    bruno = UserFactory.create(username="bruno", display_name="Bruno Costa")
    match_id = start_match(alice, bruno, length=3, stake_cents=500)
    ledger.compensate(
        transaction=LedgerTransaction.objects.get(key=f"match:{match_id}:stakes"),
        reason="Played on a broken board",
        staff=UserFactory.create(role=Role.STAFF),
        key="correct-stakes",
    )

    english, italian = _both(_logged_in(alice), "/wallet/")

    assert "Match ai 3 punti contro Bruno Costa" in italian
    assert "Lo staff ha annullato un movimento (posta): Played on a broken board" in italian
    data = [*_data(alice, bruno), "Played on a broken board", *_months()]
    assert untranslated(english, italian, data) == []


def test_an_empty_wallet_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice")

    english, italian = _both(_logged_in(alice), "/wallet/?currency=REAL")

    assert "Ancora niente in REAL." in italian
    assert untranslated(english, italian, [*_data(alice), *_months()]) == []


def test_staff_read_a_wallet_with_adjustments_done_and_waiting_in_italian(settings: Any) -> None:
    settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = 10_000
    owner = UserFactory.create(username="owner")
    asking, approving = (
        UserFactory.create(username=name, role=Role.STAFF) for name in ("asking", "approving")
    )
    adjustment_ask(
        user=owner,
        currency="REAL",
        amount_cents=5_000,
        direction=AdjustmentDirection.DEPOSIT,
        reason="Bank transfer ref 500",
        staff=asking,
        key="small",
    )
    adjustment_ask(
        user=owner,
        currency="REAL",
        amount_cents=123_456,
        direction=AdjustmentDirection.WITHDRAW,
        reason="Bank transfer ref 501",
        staff=asking,
        key="large",
    )

    english, italian = _both(_logged_in(approving), f"/wallet/{owner.username}/")

    assert "Rettifica questo portafoglio" in italian
    assert "Dallo staff: Bank transfer ref 500" in italian
    written = [*_data(owner, asking, approving), "Bank transfer ref 500", "Bank transfer ref 501"]
    assert untranslated(english, italian, [*written, *_months(), *STAFF]) == []


def test_a_withdrawal_beyond_the_balance_is_refused_in_italian() -> None:
    owner = UserFactory.create(username="owner")
    sam = UserFactory.create(username="sam", role=Role.STAFF)

    with translation.override("it"), pytest.raises(DomainError) as refusal:
        ledger.withdraw(
            user=owner, currency="REAL", amount_cents=100, reason="Cash out", staff=sam, key="w"
        )

    assert str(refusal.value) == "Il saldo REAL di owner è 0.00; ne servono 1.00."


# Fair play --------------------------------------------------------------------------------


def _decided_case() -> tuple[Case, User, User, list[str]]:
    """A dumping case about Carla with Dario, taken and decided with a suspension."""
    carla = UserFactory.create(username="carla", display_name="Carla Conti")
    dario = UserFactory.create(username="dario", display_name="Dario Dini")
    sam = UserFactory.create(username="sam", display_name="Sam Staff", role=Role.STAFF)
    match = finished_match(dario, carla)
    case = case_report(
        kind=CaseKind.DUMPING,
        subject=carla,
        key=f"dumping:{carla.pk}:{dario.pk}",
        summary="Carla lost 3 matches to Dario in a row",
        evidence={
            "window_days": 7,
            "matches_played": 3,
            "one_way_series": True,
            "money_to_winner": {"FUN": 1500},
            "matches": [{"match": match.pk, "lost": True, "stake_cents": 500}],
        },
        others=[dario],
    )
    sanctions.case_assign(case_id=case.pk, staff=sam)
    sanctions.case_decide(
        case_id=case.pk,
        staff=sam,
        decision="sanction",
        reason="A one-way series.",
        orders=[
            sanctions.Order(kind="suspend", until=timezone.now() + timedelta(days=7)),
            sanctions.Order(kind="warn", user=dario),
        ],
    )
    case.refresh_from_db()
    told = [sanction.outcome.get("told", "") for sanction in case.sanctions.all()]
    written = [case.summary, case.decision_reason, *told]
    return case, carla, sam, [*_data(carla, dario, sam), *written, *_months(), *STAFF]


def test_a_player_reads_their_fair_play_decisions_in_italian(tasks_run_in_process: None) -> None:
    case, carla, _staff, data = _decided_case()
    client = _logged_in(carla)

    for url in ("/fairplay/mine/", f"/fairplay/{case.pk}/"):
        english, italian = _both(client, url)

        assert untranslated(english, italian, data) == [], url
    assert "Fai ricorso contro questa decisione" in italian


def test_staff_read_the_queue_and_a_case_in_italian(tasks_run_in_process: None) -> None:
    case, carla, sam, data = _decided_case()
    appealed = api_for(carla).post(
        f"/api/fairplay/cases/{case.pk}/appeal/", {"text": "I was unlucky."}, format="json"
    )
    assert appealed.status_code in (200, 201), appealed.json()
    open_case = case_report(
        kind=CaseKind.STALLING,
        subject=carla,
        key=f"stalling:{carla.pk}",
        summary="Carla let her clock run out twice",
        evidence={"cooldown_hours": 24, "reason": "clock"},
    )
    client = _logged_in(sam)

    for url in (
        "/staff/fairplay/?state=all",
        f"/staff/fairplay/{case.pk}/",
        f"/staff/fairplay/{open_case.pk}/",
    ):
        english, italian = _both(client, url)

        more = ["I was unlucky.", open_case.summary, "clock"]
        assert untranslated(english, italian, [*data, *more]) == [], url
    assert "Prendi in carico questo caso" in italian


# Disputes: filing one ---------------------------------------------------------------------


def test_the_dispute_form_reads_in_italian() -> None:
    alice = UserFactory.create(username="alice")
    bruno = UserFactory.create(username="bruno")
    match = finished_match(alice, bruno)

    english, italian = _both(_logged_in(bruno), f"/disputes/new/{match.pk}/")

    assert "Apri una contestazione" in italian
    assert untranslated(english, italian, _data(alice, bruno)) == []


# The account pages ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/password/reset/",
        "/password/reset/sent/",
        "/password/reset/MQ/not-a-token/",
        "/password/reset/done/",
        "/email/verify/not-a-token/",
        "/email/unsubscribe/not-a-token/",
    ],
)
def test_the_account_pages_of_a_visitor_read_in_italian(url: str) -> None:
    english, italian = _both(Client(), url, status=_status(url))

    assert untranslated(english, italian) == []


def _status(url: str) -> int:
    return 400 if url.startswith("/email/") else 200


@pytest.mark.parametrize("url", ["/password/", "/password/done/"])
def test_the_password_change_pages_read_in_italian(url: str) -> None:
    alice = UserFactory.create(username="alice")

    english, italian = _both(_logged_in(alice), url)

    assert untranslated(english, italian, _data(alice)) == []


def test_too_many_log_ins_read_in_italian(settings: Any) -> None:
    from django.test import RequestFactory

    from accounts.auth_views import _too_many

    pages = {}
    for language in ("en", "it"):
        with translation.override(language):
            request = RequestFactory().get("/login/")
            request.LANGUAGE_CODE = language
            from django.utils.translation import gettext

            reason = gettext("Too many log-ins have been tried from your address.")
            pages[language] = _too_many(request, 90, reason).content.decode()

    assert "Riprova tra 2 minuti." in pages["it"]
    assert untranslated(pages["en"], pages["it"]) == []


# The e-mails ------------------------------------------------------------------------------


def test_the_e_mails_read_in_italian(settings: Any) -> None:
    """Each mail goes in the language the player chose (``Profile.language``), whatever
    language the code sending it runs in."""
    alice = UserFactory.create(username="alice", display_name="Alice Rossi")
    alice.email = "alice@example.com"
    alice.save(update_fields=["email"])

    def in_language(language: str) -> None:
        Profile.objects.filter(user=alice).update(language=language)

    for language in ("en", "it"):
        in_language(language)
        assert verification_send(user_id=alice.pk)
        assert password_reset_send(user_id=alice.pk)
    User.objects.filter(pk=alice.pk).update(email_verified=True)
    for language in ("en", "it"):
        in_language(language)
        assert notice_mail_send(
            user_id=alice.pk, kind=MailKind.CHALLENGE, text="Bruno challenges you.", url="/"
        )

    verify_en, reset_en, verify_it, reset_it, notice_en, notice_it = mail.outbox
    assert verify_it.subject == "Crawford: conferma il tuo indirizzo e-mail"
    assert reset_it.subject == "Crawford: scegli una nuova password"
    assert notice_it.subject == "Crawford: Hai ricevuto una sfida"
    assert "Ciao alice," in verify_it.body
    assert "Apri questo link per sceglierne una nuova:" in reset_it.body
    assert "Mandami un'e-mail quando ricevo una sfida mentre sono assente" in notice_it.body
    for english, italian in ((verify_en, verify_it), (reset_en, reset_it), (notice_en, notice_it)):
        assert english.subject != italian.subject
        assert _english_lines(str(english.body)) & _english_lines(str(italian.body)) == set()


def _english_lines(body: str) -> set[str]:
    """The lines of a mail that are the project's words: not links, names or the notice."""
    return {
        line
        for line in body.splitlines()
        if line.strip() and "://" not in line and line.strip() != "Bruno challenges you."
    }
