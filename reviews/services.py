"""The analysis queue: what to analyse, running GNU Backgammon on it, and keeping the result.

* ``on_match_finished`` (subscribed to ``MatchFinished``): every match that ends with a
  game played is queued, after its adjudication (a match ends only once it is adjudicated),
  by the ``review.for_match`` task on the ``default`` queue (``analysis_for_match``).
* ``analysis_upload``: a player's match file in any format ``reviews.match_formats`` reads
  (.mat, GNU Backgammon's .sgf, GamesGrid's .sgg, TrueMoneyGames' .tmg, eXtreme Gammon's
  .xg), made .mat and read by ``backgammon.matfile`` (what GNU Backgammon's own importer
  accepts), refused with the reason otherwise.
* ``analysis_run`` (the ``review.analyse`` task): claims a queued analysis, runs
  ``analyse match`` in this worker's warm GNU Backgammon at ``settings.ANALYSIS_PLIES``,
  telling the followers how far it got after each game, and keeps the result and each
  player's figures for their PR.
* ``analysis_requeue`` (``review.requeue``, on beat): an analysis whose message was lost,
  or whose worker died, is queued again; a match that finished ``LOST_AFTER`` ago or more
  (within ``ASKED_WITHIN``) and has a game but no analysis had its ``review.for_match``
  lost (a worker killed while running it, a process stopped between the commit and the
  queue) and is asked for again; after ``MAX_ATTEMPTS`` it is marked failed. A
  worker running an analysis says it is alive every ``ALIVE_EVERY`` (``alive_at``), from a
  thread of its own while GNU Backgammon works; one silent for ``SILENT_AFTER`` was killed,
  and its analysis is queued again within about a minute (``review.requeue`` runs every
  30 seconds). Each run is an *attempt*, numbered when claimed, and only the attempt that
  holds the analysis may finish it, so a run that was only slow never writes over the one
  that took it over.

Post-match analysis has a queue of its own (``review``) and its own workers, so it never
delays an adjudication, which runs on the ``analysis`` queue. Without Redis (``make run``)
an analysis runs in one background thread of the server, not in the request that ended
the match.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from accounts.performance import performance_record
from analysis.engine import EngineError, InvalidMatchError
from backgammon.matfile import format_mat
from core import bus, locks
from core.errors import DomainError
from core.locks import Lock
from core.tasks import enqueue
from matches.engine import analysis_engine, analysis_status
from matches.events import MatchFinished
from matches.models import Game, Match
from matches.records import WRITTEN_GAME, match_file, rules_as_played
from reviews.events import AnalysisChanged
from reviews.match_formats import match_record
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.results import result_of

logger = logging.getLogger(__name__)

ANALYSE_TASK = "review.analyse"
FOR_MATCH_TASK = "review.for_match"
MAX_ATTEMPTS = 3
MAX_UPLOAD_BYTES = 512 * 1024
MAX_WAITING_UPLOADS = 5
"""Uploads one player may have queued or running at once."""
LOST_AFTER = timedelta(minutes=2)
"""A queued analysis no worker took by then is queued again (its message was lost)."""
ASKED_WITHIN = timedelta(minutes=30)
"""How far back the sweep looks for a finished match whose analysis was never asked for:
every pass (each 30 seconds) reads the matches finished in this window, by an index."""
ALIVE_EVERY = timedelta(seconds=10)
SILENT_AFTER = timedelta(seconds=40)
"""A running analysis whose worker said nothing for this long had its worker die."""

_embedded = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")


def on_match_finished(event: MatchFinished) -> None:
    """Ask for the match's analysis by task: the subscriber runs after the commit of
    whatever ended the match, the deadline sweep among them, which ends hundreds of matches
    a minute and must not read each one's file on the way (bench/bench_clocks.py)."""
    if settings.ANALYSE_FINISHED_MATCHES:
        enqueue(FOR_MATCH_TASK, event.match_id, settings.ANALYSIS_PLIES)


def analysis_for_match(match_id: int, plies: int | None = None) -> Analysis | None:
    """Queue the analysis of a finished match (once) at ``plies`` (the setting's depth
    unless given); None when it has no game to analyse."""
    existing = Analysis.objects.filter(match_id=match_id).first()
    if existing is not None:
        return existing
    match = Match.objects.select_related("player_0", "player_1").get(pk=match_id)
    # The file holds finished games only (and one a dropped match double ended): a match
    # adjudicated or aborted in its first game has none, and a file without a game is not
    # one GNU Backgammon would read.
    if not match.games.filter(WRITTEN_GAME).exists():
        return None
    mat = match_file(match)
    with transaction.atomic():
        analysis, created = Analysis.objects.get_or_create(
            match=match,
            defaults={
                "source": AnalysisSource.PLAYED,
                "mat": mat,
                "players": [match.player_0.username, match.player_1.username],
                "match_length": match.length,
                "plies": settings.ANALYSIS_PLIES if plies is None else plies,
            },
        )
        if created:
            _queue(analysis)
    return analysis


def analysis_upload(*, owner: User, filename: str, content: bytes) -> Analysis:
    """Keep a player's match file in their library, as .mat, and queue its analysis.

    The format is told by the content, the name only breaking a tie; content no format
    recognises is read as the name's extension says, so that its reader gives the reason
    (``reviews.match_formats``)."""
    if len(content) > MAX_UPLOAD_BYTES:
        raise DomainError(
            _("The file is larger than %(kb)s KB.") % {"kb": MAX_UPLOAD_BYTES // 1024}
        )
    waiting = Analysis.objects.filter(
        owner=owner, status__in=(AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)
    ).count()
    if waiting >= MAX_WAITING_UPLOADS:
        raise DomainError(
            ngettext(
                "You have %(count)s analysis waiting; send more once it is done.",
                "You have %(count)s analyses waiting; send more once one of them is done.",
                waiting,
            )
            % {"count": waiting}
        )
    match_format, record = match_record(content, filename)
    with transaction.atomic():
        analysis = Analysis.objects.create(
            owner=owner,
            source=AnalysisSource.UPLOADED,
            filename=filename[:200],
            file_format=match_format.key,
            mat=format_mat(record),
            players=list(record.players),
            match_length=record.length,
            plies=settings.ANALYSIS_PLIES,
        )
        _queue(analysis)
    return analysis


def analysis_run(analysis_id: int) -> bool:
    """Analyse it if nobody else is or has; True when this call finished it."""
    analysis = _claim(analysis_id)
    if analysis is None:
        return False
    attempt = analysis.attempts
    _tell(analysis)
    found = analysis_status()
    if not found.available:
        _fail(analysis, f"analysis is unavailable here: {found.reason}")
        return True

    def progressed(done: int, total: int) -> None:
        _holding(analysis.pk, attempt).update(done=done, total=total, alive_at=timezone.now())
        analysis.done, analysis.total = done, total
        _tell(analysis)

    # A match played here tells the engine what its file cannot: automatic doubles and
    # match doubles (an upload has only its file).
    rules = rules_as_played(analysis.match) if analysis.match is not None else None
    try:
        with _alive(analysis.pk, attempt):
            result = analysis_engine().analyse_match(
                analysis.mat, plies=analysis.plies, on_progress=progressed, rules=rules
            )
    except InvalidMatchError as error:
        _fail(analysis, f"GNU Backgammon could not read the match: {error}")
        return True
    except EngineError as error:
        if analysis.attempts >= MAX_ATTEMPTS:
            _fail(analysis, f"GNU Backgammon failed {analysis.attempts} times: {error}")
            return True
        _holding(analysis.pk, attempt).update(status=AnalysisStatus.QUEUED)
        raise
    with transaction.atomic():
        if not locks.select(Lock.ANALYSIS, _holding(analysis.pk, attempt), analysis.pk).exists():
            return False  # taken over while this run was silent: the other run finishes it
        analysis.result = result_of(result, analysis.players)
        analysis.status = AnalysisStatus.DONE
        analysis.finished_at = timezone.now()
        analysis.done = analysis.total
        analysis.error = ""
        analysis.save(update_fields=["result", "status", "finished_at", "done", "error"])
        if analysis.match_id is not None:
            _record_performance(analysis)
        _tell(analysis)
    return True


def _holding(analysis_id: int, attempt: int) -> QuerySet[Analysis]:
    """The analysis, while ``attempt`` is the run that holds it."""
    return Analysis.objects.filter(pk=analysis_id, status=AnalysisStatus.RUNNING, attempts=attempt)


@contextmanager
def _alive(analysis_id: int, attempt: int) -> Iterator[None]:
    """While the block runs, say every ``ALIVE_EVERY`` that this run is alive (GNU
    Backgammon may work minutes between two progress reports)."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(ALIVE_EVERY.total_seconds()):
                try:
                    _holding(analysis_id, attempt).update(alive_at=timezone.now())
                except DatabaseError:  # away for a moment: the next beat tries again
                    logger.warning("analysis %s could not say it is alive", analysis_id)
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"analysis-{analysis_id}-alive", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def analysis_requeue(now: datetime | None = None) -> list[int]:
    """Queue again every analysis lost on the way, and ask for those of finished matches
    whose asking was lost; the ids queued."""
    now = now or timezone.now()
    asked = [analysis.pk for analysis in _never_asked_for(now)]
    silent = Q(alive_at__lt=now - SILENT_AFTER) | Q(
        alive_at__isnull=True, started_at__lt=now - SILENT_AFTER
    )
    lost = Analysis.objects.filter(
        status=AnalysisStatus.QUEUED, queued_at__lt=now - LOST_AFTER
    ) | Analysis.objects.filter(silent, status=AnalysisStatus.RUNNING)
    requeued = []
    for analysis in lost.order_by("queued_at")[:100]:
        if analysis.attempts >= MAX_ATTEMPTS:
            _fail(analysis, f"no worker finished it in {analysis.attempts} attempts")
            continue
        with transaction.atomic():
            Analysis.objects.filter(pk=analysis.pk).update(
                status=AnalysisStatus.QUEUED, queued_at=now
            )
            _queue(analysis)
        requeued.append(analysis.pk)
    return asked + requeued


def _never_asked_for(now: datetime) -> Iterator[Analysis]:
    """The analyses of matches that finished a while ago with a game on record and none
    asked for (``review.for_match`` was lost), asked for now.

    Only with a broker: run eagerly (the embedded set-up), the asking happens in the process
    that ended the match, the moment it commits, and is not lost apart from that process;
    there a finished match without an analysis is one nobody meant to analyse (the demo's,
    which ``load_demo`` leaves for a player to ask for), and the one engine of ``make run``
    is kept for play."""
    if not settings.ANALYSE_FINISHED_MATCHES or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    finished_game = Game.objects.filter(WRITTEN_GAME, match=OuterRef("pk"))
    forgotten = Match.objects.filter(
        Exists(finished_game),
        finished_at__gte=now - ASKED_WITHIN,
        finished_at__lt=now - LOST_AFTER,
        analysis__isnull=True,
    ).values_list("pk", flat=True)
    for match_id in forgotten[:100]:
        logger.warning("match %s finished without its analysis asked for: asked now", match_id)
        analysis = analysis_for_match(match_id)
        if analysis is not None:
            yield analysis


def followers(analysis: Analysis) -> tuple[int, ...]:
    """Who hears of it live: the uploader, or both players of the match."""
    if analysis.match_id is None:
        return (analysis.owner_id,) if analysis.owner_id is not None else ()
    match = analysis.match
    assert match is not None
    return tuple(
        user_id for user_id in (match.player_0_id, match.player_1_id) if user_id is not None
    )


def _claim(analysis_id: int) -> Analysis | None:
    with transaction.atomic():
        analysis = (
            locks.select(Lock.ANALYSIS, Analysis.objects.all(), analysis_id, skip_locked=True)
            .filter(pk=analysis_id, status=AnalysisStatus.QUEUED)
            .first()
        )
        if analysis is None:
            return None
        analysis.status = AnalysisStatus.RUNNING
        analysis.started_at = analysis.alive_at = timezone.now()
        analysis.attempts += 1
        analysis.done = 0
        analysis.save(update_fields=["status", "started_at", "alive_at", "attempts", "done"])
    return analysis


def _fail(analysis: Analysis, reason: str) -> None:
    with transaction.atomic():
        analysis.status = AnalysisStatus.FAILED
        analysis.error = reason[:1000]
        analysis.finished_at = timezone.now()
        analysis.save(update_fields=["status", "error", "finished_at"])
        _tell(analysis)


def _record_performance(analysis: Analysis) -> None:
    match = analysis.match
    assert match is not None
    assert analysis.result is not None
    players = (match.player_0, match.player_1)
    for seat, figures in enumerate(analysis.result["players"]):
        user = players[seat]
        if user is None or (match.engine_strength and seat == 1):
            continue  # the computer keeps no PR
        performance_record(
            user=user,
            match_id=match.pk,
            opponent_name=analysis.players[1 - seat],
            decisions=int(figures["decisions"]),
            error=float(figures["error"]),
            luck=float(figures["luck"]),
            played_at=match.finished_at or analysis.finished_at or timezone.now(),
        )


def _tell(analysis: Analysis) -> None:
    bus.publish_on_commit(
        AnalysisChanged(
            analysis_id=analysis.pk,
            match_id=analysis.match_id,
            user_ids=followers(analysis),
            status=analysis.status,
            done=analysis.done,
            total=analysis.total,
        )
    )


def _queue(analysis: Analysis) -> None:
    """Hand it to a worker once committed; in the embedded set-up, to the server's thread."""
    analysis_id = analysis.pk
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: _embedded.submit(_run_in_thread, analysis_id))
    else:
        transaction.on_commit(lambda: enqueue(ANALYSE_TASK, analysis_id))


def _run_in_thread(analysis_id: int) -> None:
    try:
        analysis_run(analysis_id)
    except Exception:
        logger.exception("the analysis of %s failed", analysis_id)
    finally:
        close_old_connections()
