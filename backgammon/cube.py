"""The doubling cube as a state machine.

Terms:

* *cube*: a die marked 2, 4, 8, ... 64 (its *value*, 1 before anyone doubles) by which a game's
  points are multiplied.
* *centred*: nobody owns the cube yet, so either player may double. After a take the cube is
  *owned* by the player who took; only the owner may double again (*redouble*).
* *double*: the player on roll, before rolling, offers to play on at twice the value. The
  opponent *takes* (plays on at the doubled value and owns the cube) or *drops* (resigns the
  game, losing the value before the double).
* *beaver* (money play, when allowed): the player doubled takes and at once redoubles, keeping
  the cube: the game goes on at four times the value before the double. The original doubler
  may not drop a beaver.
* *raccoon* (money play, when beavers and raccoons are allowed): the original doubler answers a
  beaver by redoubling again at once and keeping the cube; the game goes on at eight times the
  value before the double.
* *maximum cube*: an optional limit on the value; no double, beaver or raccoon may pass it.
* *Crawford game*: in a match, the one game after a player first comes within one point of
  winning; nobody may double in it.
* *automatic double* (money play, when enabled): when the opening roll throws the same number
  on both dice, the centred cube's value doubles and the dice are thrown again, up to a set
  number of times per game.

Players are 0 and 1. Every transition takes a `Cube` and returns a new one (or a `Drop`), or
raises `BackgammonError` with a message for the player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from backgammon.errors import BackgammonError, gettext_noop

PLAYERS = (0, 1)


class Offer(Enum):
    """What the cube is waiting for an answer to."""

    DOUBLE = "double"
    """Answered by take, drop or (when allowed) beaver, by the player doubled."""
    BEAVER = "beaver"
    """Answered by take or (when allowed) raccoon, by the original doubler."""


@dataclass(frozen=True, slots=True)
class CubeRules:
    """What the cube may do in one game, set by the match or money session."""

    money: bool = False
    beavers: bool = False
    raccoons: bool = False
    max_cube: int | None = None
    """The highest value the cube may reach; None for no limit."""
    crawford_game: bool = False
    automatic_doubles: int = 0
    """How many automatic doubles a money game may have (0: none)."""

    def __post_init__(self) -> None:
        if self.max_cube is not None and (self.max_cube < 1 or self.max_cube & (self.max_cube - 1)):
            raise ValueError(f"the maximum cube must be a power of two, not {self.max_cube}")
        if (self.beavers or self.raccoons or self.automatic_doubles) and not self.money:
            raise ValueError("beavers, raccoons and automatic doubles belong to money play")
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons answer beavers, so they need beavers allowed")
        if self.automatic_doubles < 0:
            raise ValueError("the number of automatic doubles cannot be negative")


@dataclass(frozen=True, slots=True)
class Cube:
    """The cube of one game.

    ``value`` is what the game is played for now; ``owner`` the player who may redouble (None:
    centred). While an offer is open, ``offered_by`` made it, ``offer`` says which and
    ``offered_value`` is the value the game goes on at if it is accepted.
    """

    value: int = 1
    owner: int | None = None
    offer: Offer | None = None
    offered_by: int | None = None
    offered_value: int | None = None
    automatic_doubles: int = 0
    """Automatic doubles this game has had."""

    def __post_init__(self) -> None:
        if self.value < 1 or self.value & (self.value - 1):
            raise ValueError(f"a cube value is a power of two, not {self.value}")
        if self.owner not in (None, *PLAYERS):
            raise ValueError(f"the cube is centred or owned by player 0 or 1, not {self.owner}")
        if (self.offer is None) != (self.offered_by is None) or (self.offer is None) != (
            self.offered_value is None
        ):
            raise ValueError("an offer needs who made it and the value it offers")

    @property
    def centred(self) -> bool:
        return self.owner is None

    @property
    def turned(self) -> bool:
        """Whether a double has been accepted this game (the Jacoby rule asks this).

        Automatic doubles leave the cube centred, so they do not turn it.
        """
        return self.owner is not None

    @property
    def awaiting(self) -> int | None:
        """The player who must answer the open offer, or None."""
        return None if self.offered_by is None else 1 - self.offered_by

    def may_double(self, player: int) -> bool:
        """Whether the cube is ``player``'s to turn (centred or theirs), ignoring the rules."""
        return self.offer is None and self.owner in (None, player)


@dataclass(frozen=True, slots=True)
class Drop:
    """A dropped double: the doubler wins ``points`` (the cube's value before the double)."""

    winner: int
    points: int


def double(cube: Cube, rules: CubeRules, *, player: int, on_roll: int, rolled: bool) -> Cube:
    """``player`` offers a double; ``on_roll`` is the player whose turn it is, ``rolled``
    whether they have thrown their dice this turn."""
    _check_player(player)
    if rules.crawford_game:
        raise BackgammonError(gettext_noop("No doubling in the Crawford game"))
    if cube.offer is not None:
        raise BackgammonError(
            gettext_noop("A double is already on the table: it must be answered first")
        )
    if player != on_roll:
        raise BackgammonError(gettext_noop("You may double only on your own turn, before rolling"))
    if rolled:
        raise BackgammonError(gettext_noop("Doubling is only allowed before you roll"))
    if cube.owner is not None and cube.owner != player:
        raise BackgammonError(gettext_noop("You may not double: your opponent owns the cube"))
    _check_max(cube.value * 2, rules)
    return replace(cube, offer=Offer.DOUBLE, offered_by=player, offered_value=cube.value * 2)


def take(cube: Cube, *, player: int) -> Cube:
    """``player`` accepts the open offer: a double (the taker owns the cube) or a beaver (the
    beaverer keeps it)."""
    _check_answer(cube, player, gettext_noop("There is no double to take"))
    assert cube.offered_value is not None
    owner = player if cube.offer is Offer.DOUBLE else cube.offered_by
    return Cube(value=cube.offered_value, owner=owner, automatic_doubles=cube.automatic_doubles)


def drop(cube: Cube, *, player: int) -> Drop:
    """``player`` refuses the double and loses the game at the value before it."""
    _check_answer(cube, player, gettext_noop("There is no double to drop"))
    if cube.offer is Offer.BEAVER:
        raise BackgammonError(gettext_noop("A beaver cannot be dropped: take it or raccoon"))
    assert cube.offered_by is not None
    return Drop(winner=cube.offered_by, points=cube.value)


def beaver(cube: Cube, rules: CubeRules, *, player: int) -> Cube:
    """``player``, just doubled, takes and redoubles at once, keeping the cube.

    Where raccoons are allowed the original doubler must then answer (take or raccoon);
    otherwise the beaver stands at once.
    """
    _check_answer(cube, player, gettext_noop("There is no double to beaver"))
    if cube.offer is not Offer.DOUBLE:
        raise BackgammonError(gettext_noop("Only a double can be beavered"))
    if not rules.beavers:
        raise BackgammonError(
            gettext_noop("Beavers are not allowed in this game")
            if rules.money
            else gettext_noop("Beavers are allowed only in money play")
        )
    assert cube.offered_value is not None
    value = cube.offered_value * 2
    _check_max(value, rules)
    if rules.raccoons:
        return replace(cube, offer=Offer.BEAVER, offered_by=player, offered_value=value)
    return Cube(value=value, owner=player, automatic_doubles=cube.automatic_doubles)


def raccoon(cube: Cube, rules: CubeRules, *, player: int) -> Cube:
    """``player``, whose double was beavered, redoubles at once and keeps the cube."""
    _check_answer(cube, player, gettext_noop("There is no double to raccoon"))
    if cube.offer is not Offer.BEAVER:
        raise BackgammonError(gettext_noop("Only a beaver can be answered with a raccoon"))
    if not rules.raccoons:
        raise BackgammonError(gettext_noop("Raccoons are not allowed in this game"))
    assert cube.offered_value is not None
    value = cube.offered_value * 2
    _check_max(value, rules)
    return Cube(value=value, owner=player, automatic_doubles=cube.automatic_doubles)


def opening_roll(cube: Cube, rules: CubeRules, dice: tuple[int, int]) -> Cube:
    """The cube after one throw of the opening roll (one die per player).

    Same numbers are thrown again; in money play with automatic doubles they also double the
    centred cube, until the game has had as many as the rules allow or the cube would pass its
    maximum.
    """
    if dice[0] != dice[1] or cube.automatic_doubles >= rules.automatic_doubles:
        return cube
    if not cube.centred or cube.offer is not None:
        raise BackgammonError(gettext_noop("Automatic doubles happen only before the game starts"))
    if rules.max_cube is not None and cube.value * 2 > rules.max_cube:
        return cube
    return replace(cube, value=cube.value * 2, automatic_doubles=cube.automatic_doubles + 1)


def _check_player(player: int) -> None:
    if player not in PLAYERS:
        raise ValueError(f"players are 0 and 1, not {player}")


def _check_max(value: int, rules: CubeRules) -> None:
    if rules.max_cube is not None and value > rules.max_cube:
        raise BackgammonError(
            gettext_noop("The cube is at its maximum (%(value)s)"), value=rules.max_cube
        )


def _check_answer(cube: Cube, player: int, refusal: str) -> None:
    """Refuse with ``refusal`` (there is no double to answer so) unless an offer waits for
    ``player``'s answer."""
    _check_player(player)
    if cube.offer is None:
        raise BackgammonError(refusal)
    if cube.offered_by == player:
        raise BackgammonError(gettext_noop("Your opponent must answer your offer"))
