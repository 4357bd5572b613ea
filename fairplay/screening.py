"""Screening match files from any site for engine assistance, the way the live detector
judges a player here.

Staff send match files in any format a player may upload (``manage.py fairplay_screen``,
``POST /api/fairplay/screen/``); each is read by the same reader as a player's upload,
analysed by GNU Backgammon at ``settings.ANALYSIS_PLIES`` through the same analysis engine
and the same result shape as a played match, and every player named in the files is judged with
:func:`fairplay.detectors.engine_use.judged_window` (the live detector's own judgement)
over each window of ``ENGINE_WINDOW`` of their matches, in the order given: the windows
the live detector would have judged after each of those matches had been played here.

Terms:

* *screened file*: one file read and analysed, or refused with the reason a person reads.
* *player*: a name as the files write it, compared without regard to case (rooms write a
  name in either case), never matched to an account here: the screen judges play, not
  people, at :data:`accounts.ratings.STARTING_RATING` (a newcomer's rating).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.ratings import STARTING_RATING
from analysis.engine import EngineError, InvalidMatchError
from backgammon.matfile import MatRecord, format_mat
from core.errors import DomainError, NotInstalled
from fairplay.detectors.engine_fit import PrFit
from fairplay.detectors.engine_screen import PlayerScreen, screen_players
from fairplay.detectors.engine_use import judged_window, pr_fit
from matches.engine import analysis_engine, analysis_status
from reviews.match_formats import match_record
from reviews.results import result_of

MAX_SCREEN_FILES = 20
"""Files one screen reads: each is analysed before the answer, at a few seconds to a
minute or two each."""
MAX_SCREEN_FILE_BYTES = 512 * 1024


@dataclass(frozen=True)
class ScreenedFile:
    name: str
    players: tuple[str, str] = ("", "")
    result: dict[str, Any] | None = None
    refused: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.name, "players": list(self.players), "refused": self.refused}


def mat_record(content: bytes, name: str = "") -> MatRecord:
    """A match file's match, in any format a player may upload
    (:func:`reviews.match_formats.match_record`); :class:`DomainError` with the reason when
    it cannot be read."""
    if len(content) > MAX_SCREEN_FILE_BYTES:
        raise DomainError(
            _("The file is larger than %(kb)s KB.") % {"kb": MAX_SCREEN_FILE_BYTES // 1024}
        )
    return match_record(content, name)[1]


def analysed(record: MatRecord) -> dict[str, Any]:
    """GNU Backgammon's analysis of ``record`` as a played match's is kept (``result``)."""
    _analysis_available()
    result = analysis_engine().analyse_match(format_mat(record), plies=settings.ANALYSIS_PLIES)
    return result_of(result, record.players)


def screen_file(
    name: str,
    content: bytes,
    *,
    analyse: Callable[[MatRecord], dict[str, Any]] = analysed,
) -> ScreenedFile:
    """One file read and analysed, or refused with its reason: a file nobody can analyse
    does not stop the others of a screen from the command line."""
    try:
        record = mat_record(content, name)
        return ScreenedFile(name=name, players=record.players, result=_analysed(record, analyse))
    except DomainError as error:
        return ScreenedFile(name=name, refused=str(error))


def screen_upload(files: Sequence[tuple[str, bytes]]) -> list[ScreenedFile]:
    """Staff's upload: every file read before any is analysed, and the whole refused with
    the file and the reason when one of them cannot be read."""
    if not files:
        raise DomainError(_('Send one match file or more in the multipart field "files".'))
    if len(files) > MAX_SCREEN_FILES:
        raise DomainError(
            _("Send %(most)s files at most; these are %(count)s.")
            % {"most": MAX_SCREEN_FILES, "count": len(files)}
        )
    records = []
    for name, content in files:
        try:
            records.append((name, mat_record(content, name)))
        except DomainError as error:
            raise DomainError(f"{name}: {error}") from None
    _analysis_available()
    screened = []
    for name, record in records:
        try:
            result = _analysed(record, analysed)
        except DomainError as error:
            raise DomainError(f"{name}: {error}") from None
        screened.append(ScreenedFile(name=name, players=record.players, result=result))
    return screened


def _analysed(record: MatRecord, analyse: Callable[[MatRecord], dict[str, Any]]) -> dict[str, Any]:
    try:
        return analyse(record)
    except InvalidMatchError as error:
        raise DomainError(
            _("GNU Backgammon could not read the match: %(error)s") % {"error": error}
        ) from None
    except EngineError as error:
        raise DomainError(_("GNU Backgammon failed: %(error)s") % {"error": error}) from None


def screen(
    files: Sequence[ScreenedFile], *, fit: PrFit | None = None, rating: float = STARTING_RATING
) -> list[PlayerScreen]:
    """Every player of the analysed ``files``, judged as the live detector judges."""
    against = fit or pr_fit()
    return screen_players(
        [(file.name, file.result) for file in files if file.result is not None],
        judge=lambda matches: judged_window(matches, rating=rating, fit=against),
        size=int(settings.FAIRPLAY["ENGINE_WINDOW"]),
        plies=settings.ANALYSIS_PLIES,
    )


def _analysis_available() -> None:
    found = analysis_status()
    if not found.available:
        raise NotInstalled(_("Analysis is unavailable here: %(reason)s") % {"reason": found.reason})
