"""The match cube of "match swing": a second cube, beside the game's, that doubles the stake
of the whole match.

Terms:

* *match stake*: what the match is played for, as a multiple of what each player put up;
  the *match cube* shows it (its *value*, 1 at the start).
* *centred* / *owned*: as with the game cube (``backgammon.cube``), nobody owns the match
  cube at first, so either player may double it; after a take the taker owns it and only
  he may double it again.
* *match double*: at the start of his turn (on roll, before rolling and before touching the
  game cube in that turn), a player offers to play on for twice the match stake. The
  opponent *takes* (the stake doubles, he owns the match cube, and the doubler goes on
  with his turn: he may double the game or roll) or *drops* (the match ends at once, won
  by the doubler at the stake before the double).
* *maximum*: an optional limit on the value; no double may pass it.

Gammons never raise the match cube, and it has no Jacoby rule, Crawford rule or beavers;
the game cube works as usual inside the match.

Players are 0 and 1. Every transition takes a `MatchCube` and returns a new one (or a
`MatchDrop`), or raises `BackgammonError` with a message for the player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from backgammon.errors import BackgammonError, gettext_noop
from backgammon.turns import GameState, Phase

PLAYERS = (0, 1)


@dataclass(frozen=True, slots=True)
class MatchCube:
    """The match cube: ``value`` is the match stake now; ``owner`` the player who may double
    it (None: centred); ``offered_by`` the player whose double waits for an answer."""

    value: int = 1
    owner: int | None = None
    offered_by: int | None = None
    maximum: int | None = None
    """The highest value the match cube may reach; None for no limit."""

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"a match cube value is a power of two, not {self.value}")
        for seat in (self.owner, self.offered_by):
            if seat not in (None, *PLAYERS):
                raise ValueError(f"players are 0 and 1, not {seat}")
        if self.maximum is not None and self.maximum < 1:
            raise ValueError(f"the maximum match cube is at least 1, not {self.maximum}")

    @property
    def awaiting(self) -> int | None:
        """The player who must answer the match double on the table, or None."""
        return None if self.offered_by is None else 1 - self.offered_by

    def may_double(self, player: int) -> bool:
        """Whether the match cube is ``player``'s to turn now (centred or his, below its
        maximum, no double waiting), whatever the game's position."""
        return (
            self.offered_by is None
            and self.owner in (None, player)
            and (self.maximum is None or self.value * 2 <= self.maximum)
        )


@dataclass(frozen=True, slots=True)
class MatchDrop:
    """A dropped match double: the doubler wins the match at ``value``, the match stake
    before the double."""

    winner: int
    value: int


def double(
    cube: MatchCube, game: GameState, *, player: int, game_cube_turned: bool = False
) -> MatchCube:
    """``player`` offers to double the match stake in ``game``'s position.

    ``game_cube_turned``: whether the game cube has been doubled (and taken) in this turn
    already, which the game state alone does not show: after it the player is on roll
    again, but his turn is no longer at its start.
    """
    _check_player(player)
    check_answered(cube, player=player)
    if game.phase is Phase.OVER:
        raise BackgammonError(gettext_noop("The game is over"))
    if game.phase in (Phase.DOUBLED, Phase.RESIGNATION):
        raise BackgammonError(gettext_noop("Answer the offer on the table first"))
    if game.on_roll != player:
        raise BackgammonError(gettext_noop("You can double the match stake only on your own turn"))
    if game.phase is not Phase.ROLL:
        raise BackgammonError(
            gettext_noop(
                "You can double the match stake only at the start of your turn, before rolling"
            )
        )
    if game_cube_turned:
        raise BackgammonError(
            gettext_noop(
                "You can double the match stake only at the start of your turn, before the game"
                " cube is turned"
            )
        )
    if cube.owner is not None and cube.owner != player:
        raise BackgammonError(gettext_noop("Your opponent owns the match cube"))
    if cube.maximum is not None and cube.value * 2 > cube.maximum:
        raise BackgammonError(
            gettext_noop("The match stake is at its maximum (%(value)s)"), value=cube.value
        )
    return replace(cube, offered_by=player)


def take(cube: MatchCube, *, player: int) -> MatchCube:
    """``player`` accepts the match double: the stake doubles and he owns the match cube."""
    _check_answer(cube, player, gettext_noop("There is no match double to take"))
    return replace(cube, value=cube.value * 2, owner=player, offered_by=None)


def drop(cube: MatchCube, *, player: int) -> MatchDrop:
    """``player`` refuses the match double and loses the match at the stake before it."""
    _check_answer(cube, player, gettext_noop("There is no match double to drop"))
    assert cube.offered_by is not None
    return MatchDrop(winner=cube.offered_by, value=cube.value)


def check_answered(cube: MatchCube, *, player: int) -> None:
    """Refuse, saying why, anything ``player`` does but answer while a match double waits."""
    if cube.offered_by is None:
        return
    if cube.offered_by == player:
        raise BackgammonError(gettext_noop("Wait for your opponent to answer your match double"))
    raise BackgammonError(gettext_noop("Answer the match double first: take or drop"))


def _check_player(player: int) -> None:
    if player not in PLAYERS:
        raise ValueError(f"players are 0 and 1, not {player}")


def _check_answer(cube: MatchCube, player: int, refusal: str) -> None:
    """Refuse with ``refusal`` (there is no match double to answer so) unless one waits for
    ``player``'s answer."""
    _check_player(player)
    if cube.offered_by is None:
        raise BackgammonError(refusal)
    if cube.offered_by == player:
        raise BackgammonError(gettext_noop("Your opponent must answer your match double"))
