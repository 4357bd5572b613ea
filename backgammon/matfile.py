""".mat files: a whole match as text, the format GNU Backgammon and most programs import.

A .mat file (the Jellyfish "match" text format) looks like this::

    ; [Site "Crawford"]
    ; [Crawford "On"]

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1) 31: 8/5 6/5                 52: 13/8 13/11
      2)  Doubles => 2                Takes
      3) 64: 24/18 13/9               Doubles => 4
      4)  Drops                       Wins 2 points

Terms:

* *header*: comment lines ``; [Key "Value"]`` before the match length, then `` N point match``.
* *game*: `` Game n`` (`` [Crawford]`` after it marks the Crawford game), then the score before
  the game, player 0 on the left, player 1 on the right.
* *action*: one entry in a player's column: a *roll* (``52:`` and the play, empty when no
  checker could move), a double (``Doubles => 2``, the value offered), ``Takes`` or ``Drops``.
  Each numbered line holds player 0's action and then player 1's; the first line of a game
  leaves the left column empty when player 1 starts.
* *result*: ``Wins n points`` in the winner's column: n is what the game scored (cube ×
  level). A game that ends neither by bearing off nor by a drop was resigned.

Reading works the Crawford game out from the scores and the header's ``Crawford`` rule (on
unless ``"Off"``), as GNU Backgammon does; the `` [Crawford]`` marker is written for readers.

Plays are written as GNU Backgammon writes them: one ``from/to`` per die, 25 for the bar, 0 for
off, ``*`` after a hit (`mat_play_text`). Reading accepts any move text `notation` reads.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from backgammon.board import Board
from backgammon.errors import BackgammonError
from backgammon.moves import Move
from backgammon.notation import MOVE_TOKEN
from backgammon.validate import validate_play

_LEFT_WIDTH = 28
"""Width of player 0's column after the line number, as GNU Backgammon writes it."""
_NAME_WIDTH = 31
_RIGHT_COLUMN_FROM = 20
"""An entry starting further right than this belongs to player 1."""

_TAG = re.compile(r'^\s*;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\b.*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*\d+\)")
_ENTRY = re.compile(
    r"(?P<dice>[1-6]{2}):(?P<play>(?:[ \t]+" + MOVE_TOKEN.pattern + r")*)"
    r"|Doubles\s*=>\s*(?P<value>\d+)"
    r"|(?P<take>Takes)"
    r"|(?P<drop>Drops)"
    r"|Wins\s+(?P<points>\d+)\s+points?",
    re.IGNORECASE,
)


class CubeAction(Enum):
    DOUBLE = "Doubles"
    TAKE = "Takes"
    DROP = "Drops"


@dataclass(frozen=True, slots=True)
class Roll:
    """``player`` rolled ``dice`` (as thrown) and played ``play`` ("" when nothing moved)."""

    player: int
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """``player`` doubled (to ``value``), took or dropped."""

    player: int
    action: CubeAction
    value: int | None = None


Action = Roll | CubeDecision


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: the score before it, its actions in order, who won and the points scored."""

    score_before: tuple[int, int]
    actions: tuple[Action, ...]
    winner: int
    points: int
    crawford: bool = False


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A match as a .mat file holds it; ``players`` are (left, right) = (player 0, player 1).

    ``tags`` are the header's ``(key, value)`` pairs other than the Crawford rule, which is
    ``crawford_rule``.
    """

    players: tuple[str, str]
    length: int
    games: tuple[GameRecord, ...]
    tags: tuple[tuple[str, str], ...] = ()
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        if self.length < 1:
            raise BackgammonError("A .mat file records a match to at least one point")
        for name in self.players:
            if not name.strip() or ":" in name or "\n" in name:
                raise BackgammonError(
                    f"A player's name in a .mat file must be non-empty and free of ':', "
                    f"not {name!r}"
                )

    @property
    def final_score(self) -> tuple[int, int]:
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        score = list(last.score_before)
        score[last.winner] += last.points
        return (score[0], score[1])


def mat_play_text(play: Sequence[Move]) -> str:
    """A play as GNU Backgammon writes it in .mat files: ``25/22* 13/8``, one move per die."""
    return " ".join(f"{move.from_point}/{move.to_point}{'*' if move.hit else ''}" for move in play)


def format_mat(record: MatRecord) -> str:
    """The .mat text of ``record``."""
    lines = [f'; [{key} "{value}"]' for key, value in record.tags]
    lines.append(f'; [Crawford "{"On" if record.crawford_rule else "Off"}"]')
    lines += ["", f" {record.length} point match", ""]
    for number, game in enumerate(record.games, 1):
        lines.append(f" Game {number}" + (" [Crawford]" if game.crawford else ""))
        left, right = (
            f"{name} : {score}"
            for name, score in zip(record.players, game.score_before, strict=True)
        )
        lines.append(f" {_column(left, _NAME_WIDTH)}{right}")
        lines += _action_lines(game)
        lines.append("")
    return "\n".join(lines) + "\n"


def _action_lines(game: GameRecord) -> list[str]:
    rows: list[list[str]] = []
    for action in game.actions:
        if action.player == 0 or not rows or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][action.player] = _entry(action)
    lines = [_row(number, left, right) for number, (left, right) in enumerate(rows, 1)]
    wins = f" Wins {game.points} point{'s' if game.points != 1 else ''}"
    if game.winner == 1 and rows and rows[-1][0] and not rows[-1][1]:
        lines[-1] = _row(len(rows), rows[-1][0], wins)
    else:
        lines.append(_row(None, wins if game.winner == 0 else "", wins if game.winner else ""))
    return lines


def _entry(action: Action) -> str:
    if isinstance(action, Roll):
        return f"{action.dice[0]}{action.dice[1]}: {action.play}"
    if action.action is CubeAction.DOUBLE:
        return f" Doubles => {action.value}"
    return f" {action.action.value}"


def _row(number: int | None, left: str, right: str) -> str:
    prefix = f"{number:3d}) " if number is not None else " " * 5
    if not right:
        return (prefix + left).rstrip()
    return (prefix + _column(left, _LEFT_WIDTH) + right).rstrip()


def _column(text: str, width: int) -> str:
    # Two spaces at least keep the columns apart for readers that split on them.
    return text.ljust(width) if len(text) <= width - 2 else text + "  "


def parse_mat(text: str) -> MatRecord:
    """Read a .mat file; raises `BackgammonError` naming the line it cannot read."""
    tags: list[tuple[str, str]] = []
    crawford_rule = True
    lines = text.splitlines()
    index = 0
    length = None
    while index < len(lines) and length is None:
        line = lines[index]
        index += 1
        if tag := _TAG.match(line):
            key, value = tag.groups()
            if key.lower() == "crawford":
                crawford_rule = value.lower() != "off"
            else:
                tags.append((key, value))
        elif found := _LENGTH.match(line):
            length = int(found.group(1))
    if length is None:
        raise BackgammonError("This is not a .mat file: no line says 'N point match'")

    players: tuple[str, str] | None = None
    games: list[GameRecord] = []
    crawford_played = False
    while index < len(lines):
        line = lines[index]
        index += 1
        if not _GAME.match(line):
            if line.strip():
                raise _unreadable(index, line)
            continue
        if index >= len(lines) or not (score := _SCORE.match(lines[index])):
            raise BackgammonError(f"Line {index + 1}: a game must start with the score")
        names = (score.group(1), score.group(3))
        if players is None:
            players = names
        score_before = (int(score.group(2)), int(score.group(4)))
        index += 1
        crawford = (
            crawford_rule
            and not crawford_played
            and (score_before[0] == length - 1) != (score_before[1] == length - 1)
        )
        crawford_played = crawford_played or crawford
        game, index = _read_game(lines, index, score_before, crawford)
        games.append(game)
    if players is None:
        raise BackgammonError("This .mat file holds no game")
    return MatRecord(
        players=players,
        length=length,
        games=tuple(games),
        tags=tuple(tags),
        crawford_rule=crawford_rule,
    )


def _read_game(
    lines: list[str], index: int, score_before: tuple[int, int], crawford: bool
) -> tuple[GameRecord, int]:
    actions: list[Action] = []
    result: tuple[int, int] | None = None
    while index < len(lines) and lines[index].strip() and not _GAME.match(lines[index]):
        line = lines[index]
        index += 1
        numbered = _NUMBERED.match(line)
        start = numbered.end() if numbered else 0
        entries = list(_ENTRY.finditer(line, start))
        leftover = _ENTRY.sub("", line[start:])
        if not entries or leftover.strip():
            raise _unreadable(index, line)
        if len(entries) > 2:
            raise _unreadable(index, line)
        for position, entry in enumerate(entries):
            player = position if len(entries) == 2 else int(entry.start() > _RIGHT_COLUMN_FROM)
            if entry.group("points") is not None:
                result = (player, int(entry.group("points")))
            elif result is not None:
                raise BackgammonError(f"Line {index}: the game goes on after it was won")
            else:
                actions.append(_action(player, entry))
    if result is None:
        raise BackgammonError(f"Line {index}: the game ends without saying who won")
    winner, points = result
    return GameRecord(score_before, tuple(actions), winner, points, crawford), index


def _action(player: int, entry: re.Match[str]) -> Action:
    if dice := entry.group("dice"):
        return Roll(player, (int(dice[0]), int(dice[1])), " ".join(entry.group("play").split()))
    if entry.group("value") is not None:
        return CubeDecision(player, CubeAction.DOUBLE, int(entry.group("value")))
    if entry.group("take"):
        return CubeDecision(player, CubeAction.TAKE)
    return CubeDecision(player, CubeAction.DROP)


def _unreadable(number: int, line: str) -> BackgammonError:
    return BackgammonError(f"Line {number} of the .mat file cannot be read: {line.strip()!r}")


def replay(game: GameRecord) -> tuple[Board, ...]:
    """The position before each action of ``game``, seen by the player who acts.

    Raises `BackgammonError` (`IllegalPlay` for a play the dice do not allow) naming the
    action that cannot be replayed.
    """
    board = Board.initial()
    acting = game.actions[0].player if game.actions else 0
    positions = []
    for number, action in enumerate(game.actions, 1):
        if action.player != acting:
            board = board.swapped()
            acting = action.player
        positions.append(board)
        if isinstance(action, Roll):
            try:
                board = validate_play(board, action.dice, action.play)
            except BackgammonError as error:
                raise type(error)(f"Action {number} ({_entry(action).strip()}): {error}") from None
    return tuple(positions)
