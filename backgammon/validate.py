"""Checking a submitted play and telling the player what is wrong with it.

A play may be submitted as moves (a `Play`, each move possibly spanning several dice), as move
text (``24/18 13/10*``) or as the Position ID of the result. It is accepted when it leaves a
position that some legal play leaves: the order the moves are listed in, and which of several
equal routes a checker took, do not matter. Otherwise the rule it breaks is named in an
`IllegalPlay` message, with a legal play where that helps.

Terms are those of `backgammon.moves`; the *dice left* are the dice of the roll not yet used
by the moves read so far.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import permutations

from backgammon.board import BAR, Board, pack_side
from backgammon.errors import IllegalPlay, Listed, gettext_noop
from backgammon.moves import (
    BAR_POINT,
    OFF_POINT,
    Move,
    Play,
    ResultKey,
    Results,
    generate,
    result_board,
    result_key,
    split_key,
)
from backgammon.notation import MOVE_TOKEN, format_play, parse_moves, point_name

_HOME = 6
_POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
# What a double must still play, by how many of its die the legal plays use.
_MUST_PLAY = {
    1: gettext_noop("You must play one %(die)s: %(example)s is possible"),
    2: gettext_noop("You must play two %(die)ss: %(example)s is possible"),
    3: gettext_noop("You must play three %(die)ss: %(example)s is possible"),
    4: gettext_noop("You must play four %(die)ss: %(example)s is possible"),
}


def validate_play(board: Board, dice: tuple[int, int], play: Play | str) -> Board:
    """The board after ``play`` (from the mover's view), or `IllegalPlay` saying why not.

    ``play`` is a `Play`, move text, or the Position ID of the resulting position.
    """
    return resolve(board, dice, play)[1]


def resolve(board: Board, dice: tuple[int, int], play: Play | str) -> tuple[Play, Board]:
    """The legal play ``play`` stands for, as single-die moves, and the board after it.

    Takes what `validate_play` takes; the play found is kept so that nobody needs to search
    the legal plays again to write it down.
    """
    if isinstance(play, str):
        if _looks_like_position_id(play):
            return _validate_position(board, dice, Board.from_position_id(play))
        play = parse_moves(play)
    return resolve_play(board, dice, play)


def resolve_play(board: Board, dice: tuple[int, int], moves: Sequence[Move]) -> tuple[Play, Board]:
    """The legal play the submitted ``moves`` amount to, as single-die moves, and its result."""
    results = generate(board, dice)
    if not results:
        if moves:
            raise IllegalPlay(gettext_noop("No move is possible: the turn passes"))
        return (), board
    # Moves made from the highest point down can be made whenever any order can, so the
    # order a player lists them in does not matter.
    moves = sorted(moves, key=lambda move: -move.from_point)
    key = _written_result(board, moves)
    found = _match(results, key, moves)
    if found is None:
        _explain(board, dice, moves, results)
        raise IllegalPlay(gettext_noop("That is not a legal play with %(roll)s"), roll=_roll(dice))
    return results[found], result_board(board, found)


def parse_play(text: str, board: Board, dice: tuple[int, int]) -> Play:
    """The legal play ``text`` stands for with ``dice`` on ``board``, as single-die moves.

    Raises `NotationError` for unreadable text and `IllegalPlay` for a play the rules forbid.
    """
    return resolve_play(board, dice, parse_moves(text))[0]


def _looks_like_position_id(text: str) -> bool:
    stripped = text.strip()
    return bool(_POSITION_ID.fullmatch(stripped)) and not MOVE_TOKEN.fullmatch(stripped)


def _validate_position(board: Board, dice: tuple[int, int], after: Board) -> tuple[Play, Board]:
    results = generate(board, dice)
    for key, found in results.items():
        candidate = result_board(board, key)
        if candidate == after:
            return found, candidate
    if not results:
        if after == board:
            return (), board
        raise IllegalPlay(gettext_noop("No move is possible: the turn passes"))
    if after == board:
        _explain(board, dice, (), results)
    raise IllegalPlay(gettext_noop("That is not a legal play with %(roll)s"), roll=_roll(dice))


def _written_result(board: Board, moves: Sequence[Move]) -> ResultKey:
    """The result of moving checkers as written, checking what holds whatever the dice."""
    mover = list(board.mover)
    opposing = list(board.opponent[23::-1])
    blots = {index for index, count in enumerate(opposing) if count == 1}
    hits = 0
    for move in moves:
        source = move.from_point - 1
        if move.to_point >= move.from_point:
            raise IllegalPlay(
                gettext_noop("Checkers move toward your home board: %(move)s goes the wrong way"),
                move=_text(move),
            )
        if not mover[source]:
            if move.from_point == BAR_POINT:
                raise IllegalPlay(gettext_noop("You have no checker on the bar"))
            raise IllegalPlay(
                gettext_noop("You have no checker on point %(point)s"), point=move.from_point
            )
        mover[source] -= 1
        if move.to_point == OFF_POINT:
            continue
        target = move.to_point - 1
        if opposing[target] >= 2:
            raise IllegalPlay(gettext_noop("Point %(point)s is blocked"), point=move.to_point)
        if opposing[target] == 1:
            opposing[target] = 0
            hits |= 1 << target
        elif move.hit and target not in blots:
            raise IllegalPlay(
                gettext_noop("There is no checker to hit on point %(point)s"), point=move.to_point
            )
        mover[target] += 1
    return result_key(pack_side(mover), hits)


def _match(results: Results, key: ResultKey, moves: Sequence[Move]) -> ResultKey | None:
    """The legal result the written one stands for.

    A checker written as moving past a blot (``13/1`` with 6-6) may have hit it on the way;
    when exactly one legal result agrees on every hit written or implied, that is the one.
    """
    if key in results:
        return key
    mover, required = split_key(key)
    candidates = []
    for found in results:
        packed, hits = split_key(found)
        if packed == mover and hits & required == required:
            candidates.append(found)
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        ways = Listed(tuple(format_play(results[found]) for found in candidates), "or")
        raise IllegalPlay(
            gettext_noop("Say which blots %(play)s hits: %(ways)s"),
            play=format_play(moves),
            ways=ways,
        )
    return None


def _explain(
    board: Board,
    dice: tuple[int, int],
    moves: Sequence[Move],
    results: Results,
) -> None:
    """Raise `IllegalPlay` naming the first rule the moves break, if one can be named."""
    mover = list(board.mover)
    blocked = [count >= 2 for count in board.opponent[23::-1]]
    left = list(dice) if dice[0] != dice[1] else [dice[0]] * 4
    used: list[int] = []
    for move in moves:
        if mover[BAR] and move.from_point != BAR_POINT:
            if mover[BAR] == 1:
                raise IllegalPlay(gettext_noop("The checker on the bar must enter first"))
            raise IllegalPlay(gettext_noop("The checkers on the bar must enter first"))
        route = _route(mover, blocked, move, left, dice)
        for die in route:
            left.remove(die)
            used.append(die)
        mover[move.from_point - 1] -= 1
        if move.to_point != OFF_POINT:
            mover[move.to_point - 1] += 1
    most = len(next(iter(results.values())))
    example = _example(board, moves, results)
    if len(used) < most:
        if dice[0] == dice[1]:
            raise IllegalPlay(_MUST_PLAY[most], die=dice[0], example=example)
        if most == 2:
            raise IllegalPlay(
                gettext_noop("Both dice must be played: %(example)s is possible"), example=example
            )
        if _playable(board, max(dice)) and _playable(board, min(dice)):
            raise IllegalPlay(
                gettext_noop("The higher die must be played: %(example)s is possible"),
                example=example,
            )
        raise IllegalPlay(
            gettext_noop("You must play a die: %(example)s is possible"), example=example
        )
    if most == 1 and used == [min(dice)] and dice[0] != dice[1] and _playable(board, max(dice)):
        raise IllegalPlay(
            gettext_noop("The higher die must be played: %(example)s is possible"),
            example=example,
        )


def _route(
    mover: list[int], blocked: list[bool], move: Move, left: list[int], dice: tuple[int, int]
) -> tuple[int, ...]:
    """The dice left that carry the checker of ``move``, or `IllegalPlay` saying why none do."""
    if move.to_point == OFF_POINT and any(mover[_HOME:]):
        raise IllegalPlay(
            gettext_noop("You cannot bear off while a checker is outside your home board")
        )
    blocked_at: int | None = None
    higher_refused: int | None = None
    for size in range(1, len(left) + 1):
        for dice_order in sorted(set(permutations(left, size))):
            point, stopped_at = _walk(move.from_point, dice_order[:-1], blocked)
            if point is None:
                blocked_at = blocked_at or stopped_at
                continue
            lands = _lands(mover, move, point, dice_order[-1])
            if lands:
                return dice_order
            if lands is None:
                higher_refused = higher_refused or dice_order[-1]
    raise _refusal(move, left, dice, blocked_at, higher_refused)


def _walk(start: int, dice: Sequence[int], blocked: list[bool]) -> tuple[int | None, int | None]:
    """Where the checker on ``start`` stands after ``dice``: (point, None), or (None, the
    blocked point it stopped at), or (None, None) when it ran off the board on the way."""
    point = start
    for die in dice:
        point -= die
        if point <= 0:
            return None, None
        if blocked[point - 1]:
            return None, point
    return point, None


def _lands(mover: list[int], move: Move, point: int, die: int) -> bool | None:
    """Whether ``die`` takes the checker on ``point`` to where ``move`` goes; None when it
    would bear off with a higher number than needed while a checker stands higher."""
    if move.to_point != OFF_POINT:
        return point - die == move.to_point
    if point == die:
        return True
    if point > die:
        return False
    # A higher number bears off only from the highest occupied point; the moving checker
    # itself no longer stands where it started.
    above = sum(mover[point:_HOME]) - (point < move.from_point <= _HOME)
    return True if not above else None


def _refusal(
    move: Move,
    left: list[int],
    dice: tuple[int, int],
    blocked_at: int | None,
    higher_refused: int | None,
) -> IllegalPlay:
    """Why no order of the dice left carries the checker of ``move``."""
    distance = move.from_point - move.to_point
    if blocked_at is not None:
        return IllegalPlay(gettext_noop("Point %(point)s is blocked"), point=blocked_at)
    if higher_refused is not None:
        return IllegalPlay(
            gettext_noop(
                "A %(die)s bears off from point %(point)s only when no checker stands on a "
                "higher point"
            ),
            die=higher_refused,
            point=move.from_point,
        )
    if move.to_point == OFF_POINT and distance > sum(left):
        return IllegalPlay(
            gettext_noop("Bearing off from point %(point)s needs a %(pips)s or more"),
            point=move.from_point,
            pips=distance,
        )
    if len(left) == (4 if dice[0] == dice[1] else 2):
        return IllegalPlay(
            gettext_noop("%(move)s does not fit your roll of %(roll)s"),
            move=_text(move),
            roll=_roll(dice),
        )
    if not left:
        return IllegalPlay(
            gettext_noop("%(move)s is one move too many: the dice are used up"), move=_text(move)
        )
    remaining = Listed(tuple(str(die) for die in sorted(left, reverse=True)))
    return IllegalPlay(
        gettext_noop("%(move)s does not fit the dice you have left: %(dice)s"),
        move=_text(move),
        dice=remaining,
    )


def _example(board: Board, moves: Sequence[Move], results: Results) -> str:
    """A legal play to suggest: one that keeps the player's own moves when there is one."""
    wanted = [(move.from_point, move.to_point) for move in moves]
    plays = list(results.values())
    for play in plays:
        pairs = [(move.from_point, move.to_point) for move in play]
        if all(pairs.count(pair) >= wanted.count(pair) for pair in wanted):
            return format_play(_unhit(play), board)
    return format_play(_unhit(plays[0]), board)


def _unhit(play: Play) -> list[Move]:
    """The moves of ``play`` with no hit marked: the board the play is written for marks them."""
    return [Move(move.from_point, move.to_point) for move in play]


def _playable(board: Board, die: int) -> bool:
    """Whether some checker can move ``die`` on its own."""
    return bool(generate(board, (die, die)))


def _roll(dice: tuple[int, int]) -> str:
    return f"{max(dice)}-{min(dice)}"


def _text(move: Move) -> str:
    return f"{point_name(move.from_point)}/{point_name(move.to_point)}"
