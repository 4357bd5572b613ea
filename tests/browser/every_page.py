"""Every page a player or staff member opens, each in the states it can be in: made through
the services and the match API, as players, an organizer and staff would.

``every_page()`` returns the scene: tournaments of each format before, during and after
their play (a wide double elimination among them, and names as long as the fields allow),
matches playing, finished and suspended, an analysis, a wallet with lines, a dispute, a
fair-play case and a large withdrawal waiting for a second staff member.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts import ledger
from accounts.models import User
from analysis.match_analysis import match_analysis
from config.celery import app as celery_app
from disputes.models import Dispute
from fairplay.detectors import dumping
from fairplay.models import Case
from lobby.models import Notification
from matches.models import AbandonPolicy, Match, MatchStatus
from matches.tasks import sweep_deadlines
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.services import result_of
from tests.factories import UserFactory
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.matches.helpers import Bot, api_for, board_left, start_match
from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tests.untranslated import countries_named_alike, untranslated
from tournaments import scheduler, services
from tournaments.models import Tournament

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "mat"
# As long as a tournament's name may be, and a display name with no space to break at.
LONG_NAME = (
    "The Grand Mediterranean Invitational Backgammon Championship of Club Secretaries, "
    "Treasurers and Their Friends 2026"
)
LONG_DISPLAY_NAME = "Maximiliana-Konstantinopoulou-Wolfeschle"
VIEWER = "kate"


@dataclass
class Scene:
    """The pages to visit: (a name for the screenshot, the path), as the viewer and as staff."""

    player_pages: list[tuple[str, str]] = field(default_factory=list)
    staff_pages: list[tuple[str, str]] = field(default_factory=list)
    # Pages where a menu is opened before measuring: (name, path, the button that opens it).
    menus: list[tuple[str, str, str]] = field(default_factory=list)


def _started(tournament: Tournament, owner: User) -> None:
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)


def _tournament(
    prefix: str, count: int, *, stage: str, viewer: User | None = None, **settings: Any
) -> Tournament:
    """A tournament among ``count`` new players named ``prefix``, ``stage`` one of ``open``
    (registration, half full), ``started`` (first matches made), ``results`` (the first
    round's results in) or ``finished``; the row's format fields set as ``settings`` say."""
    owner = organizer(f"{prefix}-org")
    format_fields = {
        key: settings.pop(key)
        for key in (
            "format",
            "grand_final_reset",
            "consolation_through_round",
            "rounds",
            "seats",
            "target_id",
        )
        if key in settings
    }
    swing = settings.pop("swing", None)
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0, **settings)
    Tournament.objects.filter(pk=tournament.pk).update(**format_fields, **(swing or {}))
    field_ = players(count, prefix=prefix)
    if viewer is not None:
        field_[0] = viewer
    if stage == "open":
        register_all(tournament, field_[: max(1, count // 2)])
        return tournament
    register_all(tournament, field_)
    tournament.refresh_from_db()
    if tournament.state == "registration":
        _started(tournament, owner)
    else:
        scheduler.matches_start(tournament_id=tournament.pk)
    if stage == "results":
        concede_round(tournament)
    elif stage == "finished":
        while concede_round(tournament):
            pass
    tournament.refresh_from_db()
    return tournament


def _tournaments(scene: Scene, viewer: User) -> None:
    made = {
        "knockout-open": _tournament("ko", 8, stage="open", format="knockout"),
        "knockout-running": _tournament(
            "kr", 8, stage="results", viewer=viewer, consolation_through_round=0
        ),
        "knockout-finished": _tournament(
            "kf", 8, stage="finished", name=LONG_NAME, consolation_through_round=0
        ),
        "sit-and-go-open": _tournament("so", 4, stage="open", format="sit_and_go", seats=4),
        "sit-and-go-finished": _tournament("sf", 4, stage="finished", format="sit_and_go", seats=4),
        "double-results": _tournament(
            "dr",
            8,
            stage="results",
            format="double_elimination",
            grand_final_reset=True,
            consolation_through_round=1,
        ),
        "double-wide": _tournament(
            "dw",
            16,
            stage="results",
            format="double_elimination",
            grand_final_reset=True,
            consolation_through_round=1,
        ),
        "double-finished": _tournament(
            "df",
            6,
            stage="finished",
            format="double_elimination",
            grand_final_reset=True,
            consolation_through_round=1,
        ),
        "swiss-running": _tournament("wr", 7, stage="results", format="swiss", rounds=3),
        "swiss-finished": _tournament("wf", 7, stage="finished", format="swiss", rounds=3),
        "round-robin-running": _tournament("rr", 5, stage="results", format="round_robin"),
        "round-robin-finished": _tournament("rf", 4, stage="finished", format="round_robin"),
        "swing-running": _tournament(
            "gr",
            4,
            stage="results",
            format="swing",
            swing={"starting_chips": 1000, "cpp_levels": [100, 150], "cpp_step": 50},
        ),
        "swing-finished": _tournament(
            "gf",
            3,
            stage="finished",
            format="swing",
            swing={"starting_chips": 100, "cpp_levels": [100], "cpp_step": 0},
        ),
    }
    main_event = made["knockout-open"]
    made["satellite-open"] = _tournament(
        "st", 4, stage="open", format="satellite", target_id=main_event.pk, max_entrants=4
    )
    for name, tournament in made.items():
        scene.player_pages.append((f"{name}-bracket", f"/tournaments/{tournament.pk}/bracket/"))
        scene.player_pages.append((f"{name}", f"/tournaments/{tournament.pk}/"))
    scene.player_pages += [
        ("tournaments", "/tournaments/"),
        ("my-tournaments", "/tournaments/mine/"),
    ]


def _analysis(owner: User) -> int:
    """An uploaded match as GNU Backgammon analysed it (its saved answer, at 0 ply)."""
    answer = json.loads((SAMPLES / "crawford_3pt.analysis.json").read_text())
    players_ = ["Alice", "Bob"]
    analysis = Analysis.objects.create(
        owner=owner,
        source=AnalysisSource.UPLOADED,
        filename="crawford_3pt.mat",
        mat=(SAMPLES / "crawford_3pt.mat").read_text(),
        players=players_,
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result_of(match_analysis(answer), players_),
        finished_at=timezone.now(),
    )
    return analysis.pk


def _suspended(alice: User, bruno: User) -> int:
    """A match ``bruno`` left for longer than his grace: the sweeper suspends it."""
    match_id = start_match(alice, bruno, length=5)
    bot = Bot({alice.username: alice, bruno.username: bruno})
    for _ in range(6):
        bot.step(match_id)
    board_left(match_id, bruno)
    past = timezone.now() - timedelta(seconds=1)
    # Suspended for staff, as some rooms rule, so no worker adjudicates it before the visit.
    Match.objects.filter(pk=match_id).update(
        grace_ends_1=past, deadline=past, abandon_policy=AbandonPolicy.SUSPEND
    )
    sweep_deadlines()
    assert Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED
    return match_id


@contextmanager
def _tasks_at_once() -> Iterator[None]:
    """Tasks (the next round's pairings, prizes) run in this process, on commit."""
    conf = celery_app.conf
    eager, propagates = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = eager, propagates


def every_page() -> Scene:
    scene = Scene()
    viewer = UserFactory(username=VIEWER, display_name="Kate O'Brien")
    rival = UserFactory(username="rosa", display_name=LONG_DISPLAY_NAME)
    carl = UserFactory(username="carl", display_name="Carl Diaz")
    desk = staff("sam")
    staff("tess")
    with _tasks_at_once():
        _tournaments(scene, viewer)

    running = start_match(viewer, UserFactory(username="liam", display_name="Liam Walsh"), length=5)
    finished = finished_match(viewer, rival, stake_cents=250)
    money = start_match(viewer, carl, money=True, stake_cents=100, max_cube=4, currency="FUN")
    suspended = _suspended(rival, carl)
    for _ in range(5):
        dumping.scan_match(finished_match(rival, carl, stake_cents=500).pk)
    dispute = file(rival, finished).json()["id"]
    challenge = api_for(rival).post("/api/matches/", {"opponent": VIEWER, "length": 3}).json()["id"]
    analysis = _analysis(viewer)
    ledger.withdraw(
        user=rival,
        currency="FUN",
        amount_cents=100,
        reason="A cash-out to the bank",
        staff=desk,
        key="every-page:withdrawal",
    )
    scene.player_pages += [
        ("home", "/"),
        ("play", "/play/"),
        ("notifications", "/notifications/"),
        ("board-playing", f"/matches/{running}/"),
        ("board-money", f"/matches/{money}/"),
        ("board-finished", f"/matches/{finished.pk}/"),
        ("board-suspended", f"/matches/{suspended}/"),
        ("board-challenged", f"/matches/{challenge}/"),
        ("dice-check", f"/matches/{finished.pk}/dice/"),
        ("analysis", f"/analyses/{analysis}/"),
        ("analyses", "/analyses/"),
        ("wallet", "/wallet/"),
        ("profile", "/profile/"),
        ("player", f"/players/{VIEWER}/"),
        ("rival", "/players/rosa/"),
        ("ratings", "/ratings/"),
        ("pr-leaderboard", "/ratings/pr/"),
        ("dispute-form", f"/disputes/new/{finished.pk}/"),
        ("my-disputes", "/disputes/mine/"),
        ("new-tournament", "/tournaments/new/"),
    ]
    scene.menus.append(("resign-menu", f"/matches/{running}/", "[data-testid=resign]"))
    case = Case.objects.get(kind="dumping").pk
    scene.staff_pages += [
        ("dispute-queue", "/disputes/"),
        ("dispute", f"/disputes/{dispute}/"),
        ("dispute-audit", "/disputes/audit/"),
        ("fairplay-queue", "/staff/fairplay/"),
        ("fairplay-case", f"/staff/fairplay/{case}/"),
        ("wallet-approvals", "/staff/wallet-approvals/"),
        ("staff-wallet", f"/wallet/{VIEWER}/"),
    ]
    return scene


# Words the scene's rows carry besides names: the uploaded match's players and file, the
# reason staff typed for a withdrawal.
ROW_WORDS = ["Alice", "Bob", "crawford_3pt.mat", "A cash-out to the bank"]
VISITOR_PAGES = ["/", "/login/", "/signup/", "/tournaments/", "/ratings/", "/password/reset/"]


def _row_words() -> list[str]:
    names = [
        value
        for user in User.objects.select_related("profile")
        for value in (user.username, user.profile.display_name)
    ]
    with translation.override("it"):
        month = date_format(timezone.now(), "M")
    # What the rows hold as written: notices stored in their reader's language (English
    # here), the words a player typed in a dispute, a fair-play case's summary for staff.
    stored = [
        *Notification.objects.values_list("text", flat=True),
        *Dispute.objects.values_list("description", flat=True),
        *Case.objects.values_list("summary", flat=True),
    ]
    tournaments = Tournament.objects.values_list("name", flat=True)
    return [*names, *tournaments, *stored, *ROW_WORDS, month, *countries_named_alike()]


def _left_on(client: Client, path: str, data: list[str]) -> list[str]:
    english = client.get(path, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    italian = client.get(path, HTTP_ACCEPT_LANGUAGE="it", follow=True)
    if english.status_code != 200 or italian.status_code != 200:
        return [f"{path} answered {english.status_code} / {italian.status_code}"]
    if 'lang="it"' not in italian.content.decode():
        return [f"{path} is not served in Italian"]
    left = untranslated(english.content.decode(), italian.content.decode(), data)
    return [f"{path} {text}" for text in left]


def left_in_english(scene: Scene) -> list[str]:
    """Every page of ``scene``, as the viewer, staff and a visitor read it, served in English
    and in Italian: the project's words the Italian page still writes in English."""
    data = _row_words()
    found: list[str] = []
    for who, pages in ((VIEWER, scene.player_pages), ("sam", scene.staff_pages), ("", [])):
        client = Client()
        if who:
            client.force_login(User.objects.get(username=who))
        paths = [path for _name, path in pages] if who else VISITOR_PAGES
        for path in paths:
            found += _left_on(client, path, data)
    return found
