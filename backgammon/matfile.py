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

* *header*: comment lines ``; [Key "Value"]`` before the match length, then `` N point match``;
  ``0 point match`` is a money session, whose score lines are running totals.
* *game*: `` Game n`` (`` [Crawford]`` after it marks the Crawford game), then the score before
  the game, player 0 on the left, player 1 on the right.
* *action*: one entry in a player's column: a *roll* (``52:`` and the play), a double
  (``Doubles => 2``, the value offered), a *beaver* (``Beavers => 4``: the doubled player
  takes and redoubles at once, keeping the cube), a *raccoon* (the doubler's redouble of the
  beaver, keeping the cube; GNU Backgammon writes it as a beaver of the beaver), ``Takes`` or
  ``Drops``. A beaver or raccoon stands at once; GNU Backgammon counts it taken at the next
  roll, or at a ``Takes`` written after it. Each numbered line holds player 0's action and
  then player 1's; the first line of a game leaves the left column empty when player 1
  starts.
* *empty roll*: a roll with no play written. As GNU Backgammon reads it: the turn passes when
  no checker can move, the only legal play is made when there is one, and otherwise the
  player stopped after rolling (they resigned, or the record ends there).
* *result*: ``Wins n points`` in the winner's column: n is what the game scored (cube ×
  level). A game that ends neither by bearing off nor by a drop was resigned; GNU Backgammon
  takes the level resigned as the least whose value at the cube covers n (a backgammon when
  none does) and scores the game at that level times the cube: it is read so here too
  (`game_ending`), so an n that no resignation at the cube scores is not kept. Backgammon
  Galaxy writes the points the winner needed to end the match: ``Wins 3 point and the
  match`` on a cube of 2 is read as the gammon's 4 points, and its ``Wins 4 point and the
  match`` on a cube of 1 (the match resigned) as a backgammon's 3, which leaves the match
  short of its length as GNU Backgammon leaves it.
  A game without a result is unfinished, unless its last roll bore off or its last double was
  dropped: it is then scored from the board and the cube, as GNU Backgammon scores it (the
  Jacoby rule aside, which the file does not say).

Reading (`parse_mat`; `backgammon.mat_reader` lists what it forgives) works the Crawford game
out from the scores and the header's ``Crawford`` rule (on unless ``"Off"``), as GNU
Backgammon does; the `` [Crawford]`` marker is written for readers.

Plays are written as GNU Backgammon writes them: one ``from/to`` per die, 25 for the bar, 0 for
off, ``*`` after a hit (`mat_play_text`). Reading accepts any move text `notation` reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from backgammon.board import Board
from backgammon.errors import BackgammonError
from backgammon.game import game_result
from backgammon.mat_reader import MAX_CUBE, EntryKind, GameText, read_mat_text
from backgammon.moves import Move, apply_play, legal_plays
from backgammon.validate import validate_play

_LEFT_WIDTH = 28
"""Width of player 0's column after the line number, as GNU Backgammon writes it."""
_NAME_WIDTH = 31


class CubeAction(Enum):
    DOUBLE = "Doubles"
    BEAVER = "Beavers"
    RACCOON = "Raccoons"
    TAKE = "Takes"
    DROP = "Drops"


_REDOUBLES = (CubeAction.DOUBLE, CubeAction.BEAVER, CubeAction.RACCOON)


@dataclass(frozen=True, slots=True)
class Roll:
    """``player`` rolled ``dice`` (as thrown) and played ``play`` ("" for an empty roll)."""

    player: int
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """``player`` doubled, beavered or raccooned (to ``value``), took or dropped."""

    player: int
    action: CubeAction
    value: int | None = None


Action = Roll | CubeDecision


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: the score before it, its actions in order, who won and the points scored
    (``winner`` None and 0 points while the game is unfinished)."""

    score_before: tuple[int, int]
    actions: tuple[Action, ...]
    winner: int | None
    points: int
    crawford: bool = False


class EndKind(Enum):
    BORNE_OFF = "borne off"
    DROPPED = "dropped"
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended: ``level`` 1 single, 2 gammon, 3 backgammon (1 for a drop)."""

    kind: EndKind
    level: int


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A match as a .mat file holds it; ``players`` are (left, right) = (player 0, player 1).

    ``length`` 0 is a money session. ``tags`` are the header's ``(key, value)`` pairs other
    than the Crawford rule, which is ``crawford_rule``.
    """

    players: tuple[str, str]
    length: int
    games: tuple[GameRecord, ...]
    tags: tuple[tuple[str, str], ...] = ()
    crawford_rule: bool = True

    def __post_init__(self) -> None:
        if self.length < 0:
            raise BackgammonError("A .mat file's match length is 0 (money) or more points")
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
        if last.winner is not None:
            score[last.winner] += last.points
        return (score[0], score[1])


def mat_play_text(play: Sequence[Move]) -> str:
    """A play as GNU Backgammon writes it in .mat files: ``25/22* 13/8``, one move per die."""
    return " ".join(f"{move.from_point}/{move.to_point}{'*' if move.hit else ''}" for move in play)


def format_mat(record: MatRecord) -> str:
    """The .mat text of ``record``, which GNU Backgammon's ``import mat`` reads back the same."""
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
    if game.winner is None:
        return lines
    wins = f" Wins {game.points} point{'s' if game.points != 1 else ''}"
    if game.winner == 1 and rows and not rows[-1][1]:
        lines[-1] = _row(len(rows), rows[-1][0], wins)
    else:
        lines.append(_row(None, wins if game.winner == 0 else "", wins if game.winner else ""))
    return lines


def _entry(action: Action) -> str:
    if isinstance(action, Roll):
        return f"{action.dice[0]}{action.dice[1]}: {action.play}"
    if action.action in _REDOUBLES:
        # GNU Backgammon reads "Raccoons" as a double waiting for an answer; it writes a
        # raccoon, and reads it back, as a beaver of the beaver.
        word = "Doubles" if action.action is CubeAction.DOUBLE else "Beavers"
        return f" {word} => {action.value}"
    return f" {action.action.value}"


def _row(number: int | None, left: str, right: str) -> str:
    # Player 0's column is always padded: where GNU Backgammon's import (1.07) finds no
    # second roll on a row, it looks for the right column from the row's 16th character on,
    # and on a shorter row it reads whatever the row before left there ("  3)  Takes" alone
    # re-reads the "Doubles => 2" of the row above).
    prefix = f"{number:3d}) " if number is not None else " " * 5
    return prefix + _column(left, _LEFT_WIDTH) + right


def _column(text: str, width: int) -> str:
    # Two spaces at least keep the columns apart for readers that split on them.
    return text.ljust(width) if len(text) <= width - 2 else text + "  "


def parse_mat(text: str) -> MatRecord:
    """Read a .mat file as GNU Backgammon's ``import mat`` reads it, checking every play and
    cube action against the rules.

    Raises `BackgammonError` (`IllegalPlay` for a play the dice do not allow) whose message
    starts with the line it cannot accept: ``line 12: ...``.
    """
    written = read_mat_text(text)
    crawford_rule = all(
        value.lower() != "off" for key, value in written.tags if key.lower() == "crawford"
    )
    games: list[GameRecord] = []
    crawford_played = False
    one_away = written.length - 1
    for game in written.games:
        crawford = (
            crawford_rule
            and not crawford_played
            and (game.score[0] == one_away) != (game.score[1] == one_away)
        )
        crawford_played = crawford_played or crawford
        games.append(_game_record(game, crawford))
    return MatRecord(
        players=written.games[0].names,
        length=written.length,
        games=tuple(games),
        tags=tuple((key, value) for key, value in written.tags if key.lower() != "crawford"),
        crawford_rule=crawford_rule,
    )


_CUBE_WORDS = {
    EntryKind.DOUBLE: CubeAction.DOUBLE,
    EntryKind.BEAVER: CubeAction.BEAVER,
    EntryKind.RACCOON: CubeAction.RACCOON,
    EntryKind.TAKE: CubeAction.TAKE,
    EntryKind.DROP: CubeAction.DROP,
}


def _game_record(written: GameText, crawford: bool) -> GameRecord:
    course = _Course(crawford)
    actions: list[Action] = []
    result: tuple[int, int] | None = None
    result_line = 0
    for entry in written.entries:
        try:
            if entry.kind in (EntryKind.WIN, EntryKind.LOSS):
                assert entry.number is not None
                winner = entry.player if entry.kind is EntryKind.WIN else 1 - entry.player
                # Of two results the last stands, as in GNU Backgammon's import: Backgammon
                # Galaxy follows a resignation's "Losses" row with the match's "Wins" row.
                if entry.number < 1:
                    raise BackgammonError("a game is won for one point at least")
                result, result_line = (winner, entry.number), entry.line
                continue
            if result is not None:
                raise BackgammonError("the game goes on after its result")
            if entry.kind is EntryKind.ROLL:
                assert entry.dice is not None
                action: Action = Roll(entry.player, entry.dice, entry.play)
            else:
                action = _cube_decision(entry.player, _CUBE_WORDS[entry.kind], entry.number, course)
            course.apply(action)
            actions.append(action)
        except BackgammonError as error:
            raise type(error)(f"line {entry.line}: {error}") from None
    if result is not None and course.won is not None and course.won[0] != result[0]:
        raise BackgammonError(
            f"line {result_line}: the result names the loser: the other player won this game"
        )
    if result is None:
        result = course.won
    elif course.won is None:
        # resigned: scored at the level resigned times the cube, as GNU Backgammon scores it
        result = (result[0], _resigned_level(result[1], course.cube) * course.cube)
    if result is None:
        return GameRecord(written.score, tuple(actions), None, 0, crawford)
    return GameRecord(written.score, tuple(actions), result[0], result[1], crawford)


def _cube_decision(
    player: int, action: CubeAction, value: int | None, course: _Course
) -> CubeDecision:
    if action not in _REDOUBLES:
        return CubeDecision(player, action)
    if action is CubeAction.BEAVER and course.offer and course.offer.action is CubeAction.BEAVER:
        action = CubeAction.RACCOON
    least = course.next_value()
    if value is None:
        value = least
    # More than twice the cube is what a record with automatic doubles writes (the file
    # cannot say them); less, or not a power of two, no cube ever shows.
    if value < least or value & (value - 1):
        raise BackgammonError(
            f"a {action.name.lower()} turns the cube to a power of two of {least} or more,"
            f" not {value}"
        )
    if value > MAX_CUBE:
        raise BackgammonError(
            f"a cube is {MAX_CUBE} at most (what a GNU Backgammon Match ID holds)"
        )
    return CubeDecision(player, action, value)


class _Course:
    """A game followed action by action, refused where the rules do not let it go on.

    ``board`` is seen by ``seen_by``; ``offer`` is the last double, beaver or raccoon until
    it is taken; ``unplayed`` an empty roll that had legal plays (nothing may follow it);
    ``won`` the winner and points once the game is over by bearing off or a drop, ``ending``
    how.
    """

    def __init__(self, crawford: bool) -> None:
        self.crawford = crawford
        self.board = Board.initial()
        self.seen_by = 0
        self.last_roller: int | None = None
        self.unplayed: Roll | None = None
        self.cube = 1
        self.owner: int | None = None
        self.offer: CubeDecision | None = None
        self.won: tuple[int, int] | None = None
        self.ending: Ending | None = None

    def board_for(self, player: int) -> Board:
        """The board as ``player`` sees it."""
        if player != self.seen_by:
            self.board, self.seen_by = self.board.swapped(), player
        return self.board

    def next_value(self) -> int:
        """The value a double, beaver or raccoon offered now turns the cube to."""
        return 2 * (self.offer.value if self.offer and self.offer.value else self.cube)

    def apply(self, action: Action) -> None:
        if self.won is not None:
            raise BackgammonError("the game is over: nothing may follow its last action")
        if self.unplayed is not None:
            rolled = "-".join(map(str, self.unplayed.dice))
            raise BackgammonError(
                f"the {rolled} rolled before this has no play written, though one was legal"
            )
        if isinstance(action, Roll):
            self._roll(action)
        elif action.action in _REDOUBLES:
            self._offer(action)
        else:
            self._answer(action)

    def _roll(self, roll: Roll) -> None:
        if self.offer is not None:
            if self.offer.action is CubeAction.DOUBLE:
                raise BackgammonError("the double must be taken or dropped before the next roll")
            self.offer = None  # the doubler rolls: the beaver or raccoon is taken
        if roll.player == self.last_roller:
            raise BackgammonError("the same player cannot roll twice in a row")
        board = self.board_for(roll.player)
        if roll.play:
            try:
                after = validate_play(board, roll.dice, roll.play)
            except BackgammonError as error:
                rolled = "-".join(map(str, roll.dice))
                raise type(error)(
                    f"{roll.play} is not a legal play of {rolled} here: {error}"
                ) from None
        else:
            plays = legal_plays(board, roll.dice)
            after = apply_play(board, plays[0]) if len(plays) == 1 else board
            self.unplayed = roll if len(plays) > 1 else None
        self.board, self.last_roller = after, roll.player
        if (result := game_result(after)) is not None:
            self.won = (roll.player, self.cube * result.points)
            self.ending = Ending(EndKind.BORNE_OFF, result.points)

    def _offer(self, offer: CubeDecision) -> None:
        value = offer.value or self.next_value()
        if offer.action is CubeAction.DOUBLE:
            if self.offer is not None:
                raise BackgammonError("the offer before this must be answered first")
            if self.crawford:
                raise BackgammonError("nobody may double in the Crawford game")
            if self.last_roller != 1 - offer.player:
                raise BackgammonError("a player may double only before their own roll")
            if self.owner == 1 - offer.player:
                raise BackgammonError("only the owner of the cube may double")
            self.offer = replace(offer, value=value)
            return
        answered = CubeAction.DOUBLE if offer.action is CubeAction.BEAVER else CubeAction.BEAVER
        waiting = self.offer
        if waiting is None or waiting.action is not answered or waiting.player == offer.player:
            raise BackgammonError(
                f"a {offer.action.name.lower()} answers the opponent's {answered.name.lower()},"
                " and none is offered"
            )
        self.cube, self.owner = value, offer.player
        # it stands, and stays on the table until the next roll or a Takes, as GNU Backgammon
        # counts it taken only then
        self.offer = replace(offer, value=value)

    def _answer(self, answer: CubeDecision) -> None:
        offer = self.offer
        if offer is None or offer.player == answer.player:
            raise BackgammonError(
                f"a {answer.action.name.lower()} answers a double, and none is offered"
            )
        if answer.action is CubeAction.TAKE:
            if offer.action is CubeAction.DOUBLE:
                assert offer.value is not None
                self.cube, self.owner = offer.value, answer.player
            self.offer = None
            return
        if offer.action is not CubeAction.DOUBLE:
            raise BackgammonError(f"a {offer.action.name.lower()} cannot be dropped")
        self.won = (offer.player, self.cube)
        self.ending = Ending(EndKind.DROPPED, 1)


def _followed(game: GameRecord) -> tuple[_Course, tuple[Board, ...]]:
    """``game`` replayed, and the position before each action from its player's view."""
    course = _Course(game.crawford)
    positions = []
    for number, action in enumerate(game.actions, 1):
        positions.append(course.board_for(action.player))
        try:
            course.apply(action)
        except BackgammonError as error:
            raise type(error)(f"Action {number} ({_entry(action).strip()}): {error}") from None
    return course, tuple(positions)


def replay(game: GameRecord) -> tuple[Board, ...]:
    """The position before each action of ``game``, seen by the player who acts.

    Raises `BackgammonError` (`IllegalPlay` for a play the dice do not allow) naming the
    action that cannot be replayed.
    """
    return _followed(game)[1]


def game_ending(game: GameRecord) -> Ending | None:
    """How ``game`` ended, None while it is unfinished.

    A game whose last roll did not bear off and whose last double was not dropped was
    resigned: at the level GNU Backgammon's import gives it, the least whose value at the
    cube covers the points won.
    """
    if game.winner is None:
        return None
    course = _followed(game)[0]
    if course.ending is not None:
        return course.ending
    return Ending(EndKind.RESIGNED, _resigned_level(game.points, course.cube))


def _resigned_level(points: int, cube: int) -> int:
    """The level GNU Backgammon's import gives a game resigned for ``points`` on ``cube``:
    the least whose value at the cube covers them, a backgammon when none does."""
    return next((level for level in (1, 2) if points <= level * cube), 3)
