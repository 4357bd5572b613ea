"""The match files a player may upload, told apart by their content, each read as .mat text.

The analysis takes a .mat text (`backgammon.matfile.parse_mat` checks every play of it, and
GNU Backgammon analyses it). A *format* here is a kind of file players bring, with what
tells it apart by its content (the file's name only breaks a tie) and its *reader*: a
function from the file's bytes and name to that .mat text, raising `UnreadableMatch` with
the reason in words when it cannot (`NotThisFormat` when the file is not of the format at
all, a message that stands on its own).

* ``mat``: the Jellyfish text format most programs and rooms export; read as it is.
* ``sgf``, ``sgg``, ``tmg``: GNU Backgammon's own files and GamesGrid's and TrueMoneyGames'
  exports, which GNU Backgammon imports (``load match``, ``import sgg``, ``import tmg``):
  read by the program itself and written back as .mat (`analysis.match_import`, which says
  what it adds to keep the rules .mat cannot say). Converting rather than analysing them
  directly keeps one path for every upload: the same rules check, the same file kept for a
  download, the same analysis.
* Snowie's ``.txt`` export is recognised and refused: it holds one position, not a match.

* ``xg``: eXtreme Gammon's binary files, told by their signature and read by our own reader
  (`backgammon.xgfile`, from the format's published description).

A reader of another format plugs in with `register` (at the foot of this module, beside the
others): its ``recognises`` looks at the bytes (a binary format's signature), its ``read``
returns the .mat text, and the upload, the API and the pages name it by ``name``. A reader
that builds a `backgammon.matfile.MatRecord` returns ``format_mat(record)``; it refuses with
`UnreadableMatch` (or `backgammon.errors.BackgammonError`), and the upload answers 400
"This .xg file cannot be read: <its reason>". The text of the library page
(templates/reviews/library.html) names the formats taken; its file chooser's ``accept``
comes from the registry. A format's ``key`` is stored on the analysis
(``Analysis.file_format``, 8 characters at most). Files are 512 KB at most
(``reviews.services.MAX_UPLOAD_BYTES``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

from django.utils.translation import gettext as _

from analysis.engine import EngineError
from analysis.match_import import MatchImportRefused, import_match
from backgammon.errors import BackgammonError
from backgammon.matfile import MatRecord, parse_mat
from backgammon.xgfile import MAGIC as XG_MAGIC
from backgammon.xgfile import xg_to_mat
from core.errors import DomainError
from matches.engine import analysis_status
from matches.refusals import rules_refused


class UnreadableMatch(Exception):
    """The file is of a known format but its reader cannot make a match of it; the message
    says why, fit to show the player."""


class NotThisFormat(UnreadableMatch):
    """The file is not of the format at all: the message says so on its own."""


Reader = Callable[[bytes, str], str]
"""A file's bytes and name in, the .mat text of its match out."""


@dataclass(frozen=True)
class MatchFormat:
    key: str
    name: str
    """As a player knows it: "GamesGrid .sgg"."""
    extensions: tuple[str, ...]
    recognises: Callable[[bytes], bool]
    read: Reader
    holds_matches: bool = True
    """False for a format recognised only to be refused in words (a position's)."""


_FORMATS: list[MatchFormat] = []


def register(match_format: MatchFormat) -> None:
    """Make ``match_format`` one the upload takes (one of a key: the last registered)."""
    _FORMATS[:] = [known for known in _FORMATS if known.key != match_format.key]
    _FORMATS.append(match_format)


def match_formats() -> tuple[MatchFormat, ...]:
    return tuple(_FORMATS)


def format_named(key: str) -> MatchFormat | None:
    return next((known for known in _FORMATS if known.key == key), None)


def detected(content: bytes, filename: str) -> MatchFormat | None:
    """The format ``content`` is of: told by the content; where two would take it, the one
    the name's extension says; where none does, the one the extension says (whose reader
    then tells why it cannot read it); None when neither says one."""
    suffix = PurePath(filename).suffix.lower()
    candidates = [known for known in _FORMATS if known.recognises(content)] or _FORMATS
    named = [known for known in candidates if suffix in known.extensions]
    if named:
        return named[0]
    return candidates[0] if candidates is not _FORMATS else None


def match_record(content: bytes, filename: str) -> tuple[MatchFormat, MatRecord]:
    """The format of a file and the match it holds, read and checked as an upload is; a
    :class:`DomainError` with the reason a person reads when it is none (a player's upload
    and staff's fair-play screen read files alike)."""
    match_format = detected(content, filename)
    if match_format is None:
        raise DomainError(
            _("This is not a match file this site reads: it is none of %(formats)s.")
            % {"formats": ", ".join(known.name for known in match_formats() if known.holds_matches)}
        )
    try:
        record = parse_mat(match_format.read(content, filename))
    except NotThisFormat as error:
        raise DomainError(str(error)) from None
    except (UnreadableMatch, BackgammonError) as error:
        reason = rules_refused(error) if isinstance(error, BackgammonError) else str(error)
        raise DomainError(
            _("This %(kind)s file cannot be read: %(error)s")
            % {"kind": match_format.extensions[0], "error": reason}
        ) from None
    if not record.games:
        raise DomainError(_("This match file holds no game."))
    return match_format, record


def text_of(content: bytes) -> str:
    """The file as text: UTF-8 (a byte order mark dropped), else Latin-1, as rooms write."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("latin-1")


_HEAD = 4096
"""Recognising looks at the start of a file only: what names a format is near its top."""


def _head(content: bytes) -> str:
    return text_of(content[:_HEAD]) if b"\x00" not in content[:_HEAD] else ""


_MAT = re.compile(r"^\s*\d+\s+point\s+match\s*$", re.IGNORECASE | re.MULTILINE)
_SGF = re.compile(r"^\s*\(\s*;.*?GM\[6\]", re.DOTALL)
_SGG_PLAYERS = re.compile(r"^.+\s+vs\.\s+.+$", re.MULTILINE)
_SGG_GAME = re.compile(r"^Game\s+\d+\.\s*\d+\*?-\d+\*?", re.MULTILINE)
_TMG_GAME = re.compile(r"^Game\s+\d+:\s*\d+-\d+\s*$", re.MULTILINE)
_TMG_RECORD = re.compile(r"^\s*-?\d+\s+\d+\s", re.MULTILINE)
_SNOWIE_FIELDS = 40
"""A Snowie .txt position: one line of 40 fields split by semicolons (GNU Backgammon's
import.c lists them: match length, Jacoby, players, score, cube, the 26 points, the dice)."""


def _is_mat(content: bytes) -> bool:
    return bool(_MAT.search(_head(content)))


def _is_sgf(content: bytes) -> bool:
    return bool(_SGF.match(_head(content)))


def _is_sgg(content: bytes) -> bool:
    head = _head(content)
    return bool(_SGG_PLAYERS.search(head) and _SGG_GAME.search(head))


def _is_tmg(content: bytes) -> bool:
    head = _head(content)
    return bool(_TMG_GAME.search(head) and _TMG_RECORD.search(head))


def _is_snowie_position(content: bytes) -> bool:
    lines = _head(content).strip().splitlines()
    return len(lines) == 1 and lines[0].count(";") >= _SNOWIE_FIELDS - 1


def _read_mat(content: bytes, filename: str) -> str:
    text = text_of(content)
    if "\x00" in text:
        raise NotThisFormat(_("This is not a text file: a .mat file is text."))
    return text


def _is_xg(content: bytes) -> bool:
    return content[: len(XG_MAGIC)] == XG_MAGIC


def _read_xg(content: bytes, filename: str) -> str:
    """Its match as .mat text; a file the reader cannot make a match of raises
    `backgammon.xgfile.XgFileError` (a `BackgammonError`) with the reason."""
    return xg_to_mat(content)


def _refuse_snowie_position(content: bytes, filename: str) -> str:
    raise UnreadableMatch(
        _(
            "a Snowie .txt file holds one position, not a match: export the match from"
            " Snowie as a .mat file"
        )
    )


def _by_gnubg(importer: str) -> Reader:
    def read(content: bytes, filename: str) -> str:
        command = analysis_status().command
        if command is None:
            raise UnreadableMatch(
                _("GNU Backgammon, which reads this format, is not installed here")
            )
        try:
            return import_match(command, importer=importer, content=content, filename=filename).mat
        except MatchImportRefused as refused:
            raise UnreadableMatch(str(refused)) from None
        except EngineError as failed:
            raise UnreadableMatch(f"GNU Backgammon could not read it: {failed}") from None

    return read


for _format in (
    MatchFormat("mat", "Jellyfish .mat", (".mat", ".txt"), _is_mat, _read_mat),
    MatchFormat("sgf", "GNU Backgammon .sgf", (".sgf",), _is_sgf, _by_gnubg("load match")),
    MatchFormat("sgg", "GamesGrid .sgg", (".sgg",), _is_sgg, _by_gnubg("import sgg")),
    MatchFormat("tmg", "TrueMoneyGames .tmg", (".tmg",), _is_tmg, _by_gnubg("import tmg")),
    MatchFormat("xg", "eXtreme Gammon .xg", (".xg",), _is_xg, _read_xg),
    MatchFormat(
        "snowie",
        "Snowie .txt position",
        (".txt",),
        _is_snowie_position,
        _refuse_snowie_position,
        holds_matches=False,
    ),
):
    register(_format)
