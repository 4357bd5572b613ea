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

`xg_to_mat` is the entry point: the bytes of a file in, the .mat text of its match out, which
`backgammon.matfile.parse_mat` reads like any other. Every refusal is an `XgFileError`.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from backgammon.board import Board
from backgammon.errors import BackgammonError, gettext_noop
from backgammon.matfile import (
    Action,
    CubeAction,
    CubeDecision,
    GameRecord,
    MatRecord,
    Roll,
    format_mat,
    mat_play_text,
)
from backgammon.moves import Move
from backgammon.validate import resolve_play

MAGIC = b"RGMH"
"""The first four bytes of every .xg file."""
HEADER_SIZE = 8232
RECORD_SIZE = 2560
GAME_FILE = "temp.xg"
UNLIMITED_MATCH = 99999
"""The match length eXtreme Gammon gives a money session (an unlimited match)."""

_TRAILER = struct.Struct("<IiiiiB")
_TRAILER_SIZE = 36
_REGISTRY_ENTRY = 532
"""A registry entry: the name and the path as Pascal strings of 255 characters, then the
original size, the stored size, the start, the CRC-32, and whether it is stored as is."""


class XgFileError(BackgammonError):
    """An .xg file that cannot be turned into a match: the message says what is wrong."""


def xg_to_mat(content: bytes) -> str:
    """The .mat text of the match saved in ``content``, an .xg file's bytes.

    Raises `XgFileError` naming what cannot be read: not an .xg file, a damaged archive, a
    truncated record, a play that cannot be made from the position it was recorded in.
    """
    return format_mat(read_xg(content))


def read_xg(content: bytes) -> MatRecord:
    """The match saved in ``content`` (see `xg_to_mat`)."""
    records = _records(_archive_file(_archive(content), GAME_FILE))
    return _match(records)


def _archive(content: bytes) -> bytes:
    if content[:4] != MAGIC:
        raise XgFileError(gettext_noop("This is not an eXtreme Gammon .xg file."))
    if len(content) < HEADER_SIZE:
        raise XgFileError(gettext_noop("The .xg file is cut short: its header is incomplete."))
    header_size, _, thumbnail_size = struct.unpack_from("<IqI", content, 8)
    start = header_size + thumbnail_size
    if header_size != HEADER_SIZE or start > len(content):
        raise XgFileError(gettext_noop("The .xg file is damaged: its header is not valid."))
    return content[start:]


def _archive_file(archive: bytes, name: str) -> bytes:
    """The file ``name`` out of the zlib archive, its size and CRC-32 checked."""
    if len(archive) < _TRAILER_SIZE:
        raise _damaged()
    trailer = archive[-_TRAILER_SIZE:]
    crc, count, _, registry_size, registry_start, compressed = _TRAILER.unpack_from(trailer)
    body = archive[:-_TRAILER_SIZE]
    if zlib.crc32(body) != crc or not 0 <= registry_start <= len(body) - registry_size:
        raise _damaged()
    registry = body[registry_start : registry_start + registry_size]
    if compressed:
        registry = _inflated(registry)
    if count < 1 or len(registry) != count * _REGISTRY_ENTRY:
        raise _damaged()
    for index in range(count):
        entry = registry[index * _REGISTRY_ENTRY : (index + 1) * _REGISTRY_ENTRY]
        if entry[1 : 1 + entry[0]].decode("latin-1") != name:
            continue
        size, stored_size, start, file_crc = struct.unpack_from("<iiiI", entry, 512)
        stored_as_is = entry[528] == 1
        stored = body[start : start + stored_size]
        data = stored if stored_as_is else _inflated(stored)
        if start < 0 or len(stored) != stored_size or len(data) != size:
            raise _damaged()
        if zlib.crc32(data) != file_crc:
            raise _damaged()
        return data
    raise XgFileError(gettext_noop("The .xg file holds no match: its archive has no games."))


def _inflated(data: bytes) -> bytes:
    try:
        return zlib.decompress(data)
    except zlib.error:
        raise _damaged() from None


def _damaged() -> XgFileError:
    return XgFileError(
        gettext_noop("The .xg file is damaged: its compressed archive cannot be read.")
    )


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


_MATCH_HEADER = _layout(
    "splayer1:s40 splayer2:s40 length:i variation:i crawford:b jacoby:b beaver:b auto:b"
    " elo1:d elo2:d exp1:i exp2:i date:d sevent:s128 game_id:i level1:i level2:i elo:b"
    " profile1:b profile2:b slocation:s128 mode:i imported:b sround:s128 invert:i"
    " version:i magic:i money_g:i money_score:i2 entered:b counted:b unrated:b"
    " comment_header:i comment_footer:i is_money:b win_money:f lose_money:f currency:i"
    " fee:f stake:f site:i cube_limit:i auto_max:i transcribed:b event:w player1:w"
    " player2:w location:w round:w"
)
_GAME_HEADER = _layout("score1:i score2:i crawford:b position:p number:i")
_CUBE = _layout("player:i double:i take:i beaver:i raccoon:i cube:i position:p")
_MOVE = _layout("before:p after:p player:i moves:i8 dice:i2 cube:i")
_GAME_FOOTER = _layout("score1:i score2:i crawford:b winner:i points:i termination:i")
_SAVE_VERSION_UNICODE = 24
"""From this save-file version on, the names are also written in Unicode."""
_MAX_SAVE_VERSION = 40


class _Kind:
    MATCH_HEADER, GAME_HEADER, CUBE, MOVE, GAME_FOOTER, MATCH_FOOTER = range(6)


@dataclass(frozen=True, slots=True)
class _Record:
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


def _records(game_file: bytes) -> list[_Record]:
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
        _Record(index, game_file[at : at + RECORD_SIZE])
        for index, at in enumerate(range(0, len(game_file), RECORD_SIZE))
    ]
    if not records or records[0].kind != _Kind.MATCH_HEADER:
        raise XgFileError(gettext_noop("The .xg file holds no match: it has no match header."))
    for record in records:
        if record.kind > _Kind.MATCH_FOOTER:
            raise _bad_record(record, gettext_noop("a record of an unknown type"))
    return records


def _bad_record(record: _Record, what: str) -> XgFileError:
    return XgFileError(
        gettext_noop("The .xg file is damaged: record %(number)s is %(what)s."),
        number=record.index + 1,
        what=what,
    )


def _match(records: list[_Record]) -> MatRecord:
    header = records[0]
    version = header.one(_MATCH_HEADER, "version")
    if not 1 <= version <= _MAX_SAVE_VERSION:
        raise XgFileError(
            gettext_noop("This .xg file was saved by a version of eXtreme Gammon we cannot read.")
        )
    if header.one(_MATCH_HEADER, "variation") != 0:
        raise XgFileError(
            gettext_noop(
                "This .xg file holds a variant (Nackgammon, Hypergammon...), not backgammon."
            )
        )
    length = header.one(_MATCH_HEADER, "length")
    money = length in (0, UNLIMITED_MATCH)
    games = tuple(_games(records, money))
    if not games:
        raise XgFileError(gettext_noop("This .xg file holds no game."))
    return MatRecord(
        players=(_name(header, 1), _name(header, 2)),
        length=0 if money else length,
        games=games,
        tags=tuple(_tags(header)),
        crawford_rule=not money and header.flag(_MATCH_HEADER, "crawford"),
    )


def _name(header: _Record, player: int) -> str:
    name = ""
    if header.one(_MATCH_HEADER, "version") >= _SAVE_VERSION_UNICODE:
        name = header.unicode(_MATCH_HEADER, f"player{player}")
    name = name or header.ansi(_MATCH_HEADER, f"splayer{player}")
    # a .mat score line splits a name from its score at the colon
    name = " ".join(name.replace(":", " ").split())
    return name or f"Player {player}"


def _tags(header: _Record) -> Iterator[tuple[str, str]]:
    for key, unicode_name, ansi_name in (
        ("Event", "event", "sevent"),
        ("Round", "round", "sround"),
        ("Place", "location", "slocation"),
    ):
        value = header.unicode(_MATCH_HEADER, unicode_name) or header.ansi(_MATCH_HEADER, ansi_name)
        value = " ".join(value.replace('"', "'").split())
        if value:
            yield key, value
    played = struct.unpack_from("<d", header.data, _MATCH_HEADER["date"])[0]
    if 1 <= played < 2958466:  # Delphi days since 1899-12-30, up to year 9999
        yield "EventDate", (date(1899, 12, 30) + timedelta(days=int(played))).strftime("%Y.%m.%d")
    yield "Jacoby", "On" if header.flag(_MATCH_HEADER, "jacoby") else "Off"
    yield "Beaver", "On" if header.flag(_MATCH_HEADER, "beaver") else "Off"


def _games(records: list[_Record], money: bool) -> Iterator[GameRecord]:
    """Each game from its header to its footer; a game the file ends in is unfinished."""
    totals: tuple[int, int] | None = None
    game: _Game | None = None
    for record in records[1:]:
        if record.kind == _Kind.GAME_HEADER:
            if game is not None:
                yield game.record(None)
            score = (record.one(_GAME_HEADER, "score1"), record.one(_GAME_HEADER, "score2"))
            if money and totals is not None:
                score = totals
            game = _Game(record, score)
        elif record.kind == _Kind.MATCH_FOOTER:
            continue
        elif game is None:
            raise _bad_record(record, gettext_noop("out of place between two games"))
        elif record.kind == _Kind.GAME_FOOTER:
            finished = game.record(record)
            yield finished
            totals = _after(finished)
            game = None
        else:
            game.follow(record)
    if game is not None:
        yield game.record(None)


def _after(game: GameRecord) -> tuple[int, int]:
    score = list(game.score_before)
    if game.winner is not None:
        score[game.winner] += game.points
    return (score[0], score[1])


_XG_PLAYER = {1: 0, -1: 1}
"""eXtreme Gammon's player 1 (``1``) and player 2 (``-1``) as .mat players 0 and 1."""
_TAKE, _DROP, _BEAVER = 1, 0, 2
_RESIGNED = 100


class _Game:
    """One game followed record by record: the board replayed by our rules, seen by
    ``seen_by``, and the cube's value."""

    def __init__(self, header: _Record, score: tuple[int, int]) -> None:
        self.number = header.one(_GAME_HEADER, "number")
        self.score = score
        self.crawford = header.flag(_GAME_HEADER, "crawford")
        self.actions: list[Action] = []
        self.board = Board.initial()
        self.seen_by = 0
        self.cube = 1
        self.beaver_by: int | None = None

    def follow(self, record: _Record) -> None:
        if record.kind == _Kind.CUBE:
            self._cube(record)
        elif record.kind == _Kind.MOVE:
            self._move(record)
        else:
            raise _bad_record(record, gettext_noop("out of place inside a game"))

    def _player(self, record: _Record, layout: dict[str, int]) -> int:
        player = _XG_PLAYER.get(record.one(layout, "player"))
        if player is None:
            raise _bad_record(record, gettext_noop("a turn of neither player"))
        return player

    def _cube(self, record: _Record) -> None:
        if record.one(_CUBE, "double") != 1:
            return  # the player on roll did not double
        doubler = self._player(record, _CUBE)
        taker = 1 - doubler
        value = 2 * self.cube
        self.actions.append(CubeDecision(doubler, CubeAction.DOUBLE, value))
        answer = record.one(_CUBE, "take")
        if answer == _DROP:
            self.actions.append(CubeDecision(taker, CubeAction.DROP))
        elif answer == _TAKE:
            self.actions.append(CubeDecision(taker, CubeAction.TAKE))
            self.cube = value
        elif answer == _BEAVER:
            self.cube = 2 * value
            self.actions.append(CubeDecision(taker, CubeAction.BEAVER, self.cube))
            self.beaver_by = taker
        else:
            raise _bad_record(record, gettext_noop("a double answered neither yes nor no"))

    def _move(self, record: _Record) -> None:
        player = self._player(record, _MOVE)
        self._cube_before_roll(record, player)
        dice = record.ints(_MOVE["dice"], 2)
        if not all(1 <= die <= 6 for die in dice):
            raise _bad_record(record, gettext_noop("a roll of dice that do not exist"))
        if not any(record.position(_MOVE, "after")):
            # rolled, then resigned: eXtreme Gammon records no play and no position after
            self.actions.append(Roll(player, (dice[0], dice[1]), ""))
            return
        pairs = record.ints(_MOVE["moves"], 8)
        moves = []
        for start in range(0, 8, 2):
            origin, destination = pairs[start : start + 2]
            if origin == -1:
                break
            if not 0 <= origin <= 24 or destination > 23:
                raise _bad_record(record, gettext_noop("a move between points that do not exist"))
            moves.append(Move(origin + 1, max(destination + 1, 0)))
        if player != self.seen_by:
            self.board, self.seen_by = self.board.swapped(), player
        written = " ".join(f"{move.from_point}/{move.to_point}" for move in moves)
        try:
            play, after = resolve_play(self.board, (dice[0], dice[1]), moves)
        except BackgammonError as error:
            raise XgFileError(
                gettext_noop(
                    "Game %(game)s of the .xg file cannot be replayed: %(play)s with %(roll)s"
                    " cannot be played from the position it was made in (%(why)s)."
                ),
                game=self.number,
                play=written or "no move",
                roll=f"{dice[0]}-{dice[1]}",
                why=str(error),
            ) from None
        if after != _board(record.position(_MOVE, "after")):
            raise XgFileError(
                gettext_noop(
                    "Game %(game)s of the .xg file cannot be replayed: %(play)s with %(roll)s"
                    " does not lead to the position the file records after it."
                ),
                game=self.number,
                play=written or "no move",
                roll=f"{dice[0]}-{dice[1]}",
            )
        self.board = after
        self.actions.append(Roll(player, (dice[0], dice[1]), mat_play_text(play)))

    def _cube_before_roll(self, record: _Record, player: int) -> None:
        """Check the cube the move record holds (its logarithm, signed by its owner) against
        the cube actions followed; after a beaver, a cube twice as large is the doubler's
        raccoon, which the cube record does not tell apart."""
        recorded = 2 ** min(abs(record.one(_MOVE, "cube")), 15)
        if self.beaver_by == 1 - player and recorded == 2 * self.cube:
            self.cube = recorded
            self.actions.append(CubeDecision(player, CubeAction.RACCOON, self.cube))
        self.beaver_by = None
        if recorded != self.cube:
            raise XgFileError(
                gettext_noop(
                    "Game %(game)s of the .xg file cannot be replayed: its cube is at"
                    " %(recorded)s where the doubles before make it %(cube)s."
                ),
                game=self.number,
                recorded=recorded,
                cube=self.cube,
            )

    def record(self, footer: _Record | None) -> GameRecord:
        """The game as a .mat game: finished by ``footer``, or unfinished (cut off by the
        next game's header or the file's end) without one."""
        if footer is None:
            return GameRecord(self.score, tuple(self.actions), None, 0, self.crawford)
        winner = _XG_PLAYER.get(footer.one(_GAME_FOOTER, "winner"))
        points = footer.one(_GAME_FOOTER, "points")
        if winner is None or points < 1:
            raise _bad_record(footer, gettext_noop("the end of a game nobody won"))
        return GameRecord(self.score, tuple(self.actions), winner, points, self.crawford)


def _board(position: tuple[int, ...]) -> Board | None:
    """An eXtreme Gammon position (seen by the mover: theirs positive on points 1..24 and
    the bar at 25, the opponent's negative, the opponent's bar at 0) as a `Board`; None
    when it is no position at all."""
    mover = {point: count for point, count in enumerate(position[1:], 1) if count > 0}
    opponent = {25 - point: -count for point, count in enumerate(position[1:25], 1) if count < 0}
    if position[0] < 0:
        opponent[25] = -position[0]
    try:
        return Board.from_points(mover, opponent)
    except BackgammonError:
        return None
