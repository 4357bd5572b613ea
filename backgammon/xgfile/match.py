"""An .xg game file's records followed game by game into a `MatRecord`.

Every play is replayed by our rules from the game's start, and checked against the position
and the cube the file records after it, so a file whose plays do not add up is refused
rather than turned into a different match. eXtreme Gammon's *player 1* and *player 2* are
player 0 (left column) and player 1 (right column) of the .mat text.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
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
    mat_play_text,
)
from backgammon.moves import Move
from backgammon.validate import resolve_play
from backgammon.xgfile.archive import XgFileError
from backgammon.xgfile.records import (
    CUBE,
    GAME_FOOTER,
    GAME_HEADER,
    MATCH_HEADER,
    MOVE,
    Kind,
    Record,
    bad_record,
)

UNLIMITED_MATCH = 99999
"""The match length eXtreme Gammon gives a money session (an unlimited match)."""
_SAVE_VERSION_UNICODE = 24
"""From this save-file version on, the names are also written in Unicode."""
_MAX_SAVE_VERSION = 40


def match_record(records: list[Record]) -> MatRecord:
    header = records[0]
    version = header.one(MATCH_HEADER, "version")
    if not 1 <= version <= _MAX_SAVE_VERSION:
        raise XgFileError(
            gettext_noop("This .xg file was saved by a version of eXtreme Gammon we cannot read.")
        )
    if header.one(MATCH_HEADER, "variation") != 0:
        raise XgFileError(
            gettext_noop(
                "This .xg file holds a variant (Nackgammon, Hypergammon...), not backgammon."
            )
        )
    length = header.one(MATCH_HEADER, "length")
    money = length in (0, UNLIMITED_MATCH)
    games = tuple(_games(records, money))
    if not games:
        raise XgFileError(gettext_noop("This .xg file holds no game."))
    return MatRecord(
        players=(_name(header, 1), _name(header, 2)),
        length=0 if money else length,
        games=games,
        tags=tuple(_tags(header)),
        crawford_rule=not money and header.flag(MATCH_HEADER, "crawford"),
    )


def _name(header: Record, player: int) -> str:
    name = ""
    if header.one(MATCH_HEADER, "version") >= _SAVE_VERSION_UNICODE:
        name = header.unicode(MATCH_HEADER, f"player{player}")
    name = name or header.ansi(MATCH_HEADER, f"splayer{player}")
    # a .mat score line splits a name from its score at the colon
    name = " ".join(name.replace(":", " ").split())
    return name or f"Player {player}"


def _tags(header: Record) -> Iterator[tuple[str, str]]:
    for key, unicode_name, ansi_name in (
        ("Event", "event", "sevent"),
        ("Round", "round", "sround"),
        ("Place", "location", "slocation"),
    ):
        value = header.unicode(MATCH_HEADER, unicode_name) or header.ansi(MATCH_HEADER, ansi_name)
        value = " ".join(value.replace('"', "'").split())
        if value:
            yield key, value
    played = struct.unpack_from("<d", header.data, MATCH_HEADER["date"])[0]
    if 1 <= played < 2958466:  # Delphi days since 1899-12-30, up to year 9999
        yield "EventDate", (date(1899, 12, 30) + timedelta(days=int(played))).strftime("%Y.%m.%d")
    yield "Jacoby", "On" if header.flag(MATCH_HEADER, "jacoby") else "Off"
    yield "Beaver", "On" if header.flag(MATCH_HEADER, "beaver") else "Off"


def _games(records: list[Record], money: bool) -> Iterator[GameRecord]:
    """Each game from its header to its footer; a game the file ends in is unfinished."""
    totals: tuple[int, int] | None = None
    game: _Game | None = None
    for record in records[1:]:
        if record.kind == Kind.GAME_HEADER:
            if game is not None:
                yield game.record(None)
            score = (record.one(GAME_HEADER, "score1"), record.one(GAME_HEADER, "score2"))
            if money and totals is not None:
                score = totals
            game = _Game(record, score)
        elif record.kind == Kind.MATCH_FOOTER:
            continue
        elif game is None:
            raise bad_record(record, gettext_noop("out of place between two games"))
        elif record.kind == Kind.GAME_FOOTER:
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


class _Game:
    """One game followed record by record: the board replayed by our rules, seen by
    ``seen_by``, and the cube's value."""

    def __init__(self, header: Record, score: tuple[int, int]) -> None:
        self.number = header.one(GAME_HEADER, "number")
        self.score = score
        self.crawford = header.flag(GAME_HEADER, "crawford")
        self.actions: list[Action] = []
        self.board = Board.initial()
        self.seen_by = 0
        self.cube = 1
        self.beaver_by: int | None = None

    def follow(self, record: Record) -> None:
        if record.kind == Kind.CUBE:
            self._cube(record)
        elif record.kind == Kind.MOVE:
            self._move(record)
        else:
            raise bad_record(record, gettext_noop("out of place inside a game"))

    def _player(self, record: Record, layout: dict[str, int]) -> int:
        player = _XG_PLAYER.get(record.one(layout, "player"))
        if player is None:
            raise bad_record(record, gettext_noop("a turn of neither player"))
        return player

    def _cube(self, record: Record) -> None:
        if record.one(CUBE, "double") != 1:
            return  # the player on roll did not double
        doubler = self._player(record, CUBE)
        taker = 1 - doubler
        value = 2 * self.cube
        self.actions.append(CubeDecision(doubler, CubeAction.DOUBLE, value))
        answer = record.one(CUBE, "take")
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
            raise bad_record(record, gettext_noop("a double answered neither yes nor no"))

    def _move(self, record: Record) -> None:
        player = self._player(record, MOVE)
        self._cube_before_roll(record, player)
        dice = record.ints(MOVE["dice"], 2)
        if not all(1 <= die <= 6 for die in dice):
            raise bad_record(record, gettext_noop("a roll of dice that do not exist"))
        if not any(record.position(MOVE, "after")):
            # rolled, then resigned: eXtreme Gammon records no play and no position after
            self.actions.append(Roll(player, (dice[0], dice[1]), ""))
            return
        pairs = record.ints(MOVE["moves"], 8)
        moves = []
        for start in range(0, 8, 2):
            origin, destination = pairs[start : start + 2]
            if origin == -1:
                break
            if not 0 <= origin <= 24 or destination > 23:
                raise bad_record(record, gettext_noop("a move between points that do not exist"))
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
        if after != _board(record.position(MOVE, "after")):
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

    def _cube_before_roll(self, record: Record, player: int) -> None:
        """Check the cube the move record holds (its logarithm, signed by its owner) against
        the cube actions followed; after a beaver, a cube twice as large is the doubler's
        raccoon, which the cube record does not tell apart."""
        recorded = 2 ** min(abs(record.one(MOVE, "cube")), 15)
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

    def record(self, footer: Record | None) -> GameRecord:
        """The game as a .mat game: finished by ``footer``, or unfinished (cut off by the
        next game's header or the file's end) without one."""
        if footer is None:
            return GameRecord(self.score, tuple(self.actions), None, 0, self.crawford)
        winner = _XG_PLAYER.get(footer.one(GAME_FOOTER, "winner"))
        points = footer.one(GAME_FOOTER, "points")
        if winner is None or points < 1:
            raise bad_record(footer, gettext_noop("the end of a game nobody won"))
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
