"""eXtreme Gammon's saved matches (.xg files) turned into .mat text.

Read from eXtreme Gammon's published description of the format (its "XG format" page):

* *container*: a 8232-byte header starting with ``RGMH``, then an optional JPEG thumbnail,
  then a *zlib archive*: the files' data, a compressed *registry* naming each file (its
  size, where it starts, its CRC-32), and a 36-byte *trailer* (CRC-32 of what precedes it,
  the number of files, the registry's size and where it starts).
* *temp.xg*: the archive's game file, fixed 2560-byte *records* (Delphi records,
  little-endian, every field on its natural boundary): one match header, then for each game
  a game header, a *cube record* before each turn (a double, a take, a drop, a beaver, or
  nothing) and a *move record* for each roll, a game footer (who won, how many points, and
  how: a drop, a single, gammon or backgammon borne off, or a resignation); a match footer.
* *player 1* and *player 2* are eXtreme Gammon's; they are player 0 (left column) and
  player 1 (right column) of the .mat text.

A move record holds the dice and the play as (from, to) pairs of 0-based points seen by the
mover (24 is the bar, below 0 is off, a from of -1 ends the list) and the position after the
play. Each play is checked against our own rules from the game's start, and the position it
leaves against the recorded one, so a file whose plays do not add up is refused rather than
turned into a different match.

The container and archive are read by `backgammon.xgfile.archive`, the records by
`backgammon.xgfile.records`, and followed into a match by `backgammon.xgfile.match`.
`xg_to_mat` is the entry point: the bytes of a file in, the .mat text of its match out, which
`backgammon.matfile.parse_mat` reads like any other. Every refusal is an `XgFileError`.
"""

from __future__ import annotations

from backgammon.matfile import MatRecord, format_mat
from backgammon.xgfile.archive import MAGIC, XgFileError, game_file
from backgammon.xgfile.match import match_record
from backgammon.xgfile.records import RECORD_SIZE, read_records

__all__ = ["MAGIC", "RECORD_SIZE", "XgFileError", "read_xg", "xg_to_mat"]


def xg_to_mat(content: bytes) -> str:
    """The .mat text of the match saved in ``content``, an .xg file's bytes.

    Raises `XgFileError` naming what cannot be read: not an .xg file, a damaged archive, a
    truncated record, a play that cannot be made from the position it was recorded in.
    """
    return format_mat(read_xg(content))


def read_xg(content: bytes) -> MatRecord:
    """The match saved in ``content`` (see `xg_to_mat`)."""
    return match_record(read_records(game_file(content)))
