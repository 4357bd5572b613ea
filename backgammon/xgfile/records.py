"""The records of an .xg game file (``temp.xg``), as eXtreme Gammon's "XG format" page
describes them: fixed 2560-byte Delphi records, little-endian, every field on its natural
boundary. The byte after two list pointers says the kind: the match header, a game header, a
cube record (the decision before a roll), a move record, a game footer, the match footer.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from backgammon.errors import gettext_noop
from backgammon.xgfile.archive import XgFileError

RECORD_SIZE = 2560

# Record layouts, field by field as the format's description lists them up to the last
# field read: the offsets follow from the sizes and Delphi's natural alignment.
_SIZES = {"b": 1, "i": 4, "f": 4, "d": 8, "p": 26, "w": 258}
_ALIGN = {"b": 1, "i": 4, "f": 4, "d": 8, "p": 1, "w": 2}


def _layout(fields: str) -> dict[str, int]:
    """Each field's offset; ``fields`` are ``name:kind`` separated by spaces (``s40`` a
    string[40], ``i8`` eight integers, ``p`` a 26-byte position, ``w`` a 258-byte Unicode
    string)."""
    offsets, at = {}, 9  # after the two list pointers and the record's type
    for field in fields.split():
        name, kind = field.split(":")
        if kind.startswith("s"):
            size, align = int(kind[1:]) + 1, 1
        else:
            count = int(kind[1:]) if len(kind) > 1 else 1
            size, align = _SIZES[kind[0]] * count, _ALIGN[kind[0]]
        at += -at % align
        offsets[name] = at
        at += size
    return offsets


MATCH_HEADER = _layout(
    "splayer1:s40 splayer2:s40 length:i variation:i crawford:b jacoby:b beaver:b auto:b"
    " elo1:d elo2:d exp1:i exp2:i date:d sevent:s128 game_id:i level1:i level2:i elo:b"
    " profile1:b profile2:b slocation:s128 mode:i imported:b sround:s128 invert:i"
    " version:i magic:i money_g:i money_score:i2 entered:b counted:b unrated:b"
    " comment_header:i comment_footer:i is_money:b win_money:f lose_money:f currency:i"
    " fee:f stake:f site:i cube_limit:i auto_max:i transcribed:b event:w player1:w"
    " player2:w location:w round:w"
)
GAME_HEADER = _layout("score1:i score2:i crawford:b position:p number:i")
CUBE = _layout("player:i double:i take:i beaver:i raccoon:i cube:i position:p")
MOVE = _layout("before:p after:p player:i moves:i8 dice:i2 cube:i")
GAME_FOOTER = _layout("score1:i score2:i crawford:b winner:i points:i termination:i")


class Kind:
    MATCH_HEADER, GAME_HEADER, CUBE, MOVE, GAME_FOOTER, MATCH_FOOTER = range(6)


@dataclass(frozen=True, slots=True)
class Record:
    index: int
    data: bytes

    @property
    def kind(self) -> int:
        return self.data[8]

    def ints(self, offset: int, count: int = 1) -> tuple[int, ...]:
        return struct.unpack_from(f"<{count}i", self.data, offset)

    def one(self, layout: dict[str, int], name: str) -> int:
        return self.ints(layout[name])[0]

    def flag(self, layout: dict[str, int], name: str) -> bool:
        return self.data[layout[name]] != 0

    def ansi(self, layout: dict[str, int], name: str) -> str:
        """A string[n] field: its length in the first byte, then Windows-1252 text."""
        at = layout[name]
        return self.data[at + 1 : at + 1 + self.data[at]].decode("cp1252", "replace")

    def unicode(self, layout: dict[str, int], name: str) -> str:
        """A 258-byte Unicode string field, ended by a zero character."""
        at = layout[name]
        return self.data[at : at + 258].decode("utf-16-le", "replace").split("\x00")[0]

    def position(self, layout: dict[str, int], name: str) -> tuple[int, ...]:
        at = layout[name]
        return struct.unpack_from("<26b", self.data, at)


def read_records(game_file: bytes) -> list[Record]:
    if len(game_file) % RECORD_SIZE:
        raise XgFileError(
            gettext_noop(
                "The .xg file is damaged: its last record is cut short"
                " (%(size)s bytes of a game file made of %(record)s-byte records)."
            ),
            size=len(game_file),
            record=RECORD_SIZE,
        )
    records = [
        Record(index, game_file[at : at + RECORD_SIZE])
        for index, at in enumerate(range(0, len(game_file), RECORD_SIZE))
    ]
    if not records or records[0].kind != Kind.MATCH_HEADER:
        raise XgFileError(gettext_noop("The .xg file holds no match: it has no match header."))
    for record in records:
        if record.kind > Kind.MATCH_FOOTER:
            raise bad_record(record, gettext_noop("a record of an unknown type"))
    return records


def bad_record(record: Record, what: str) -> XgFileError:
    return XgFileError(
        gettext_noop("The .xg file is damaged: record %(number)s is %(what)s."),
        number=record.index + 1,
        what=what,
    )
