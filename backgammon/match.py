"""Match and money play: the score across games, the Crawford rule, what a game is worth.

Terms:

* *match to N points* (``length`` N): games are played until a player has N points or more.
* *away*: the points a player still needs; "2-away" needs 2.
* *Crawford game*: exactly the first game after a player first reaches N-1 (is 1-away); nobody
  may double in it. The games after it are *post-Crawford*, where doubling is allowed again.
* *money play* (``length`` 0): a session of single games, each settled on its own; the score is
  the running total of points won and never ends the session.
* *level* of a win: 1 single game, 2 gammon, 3 backgammon (`ResultKind`). A resignation offers
  one of the same three levels.
* *game points*: cube value × level. Under the *Jacoby rule* (money play, when enabled)
  gammons and backgammons count as single games unless the cube has been turned.

A game's points are added to the score in full even when they pass the match length: a player
4-away who wins 6 points shows a score of length + 2. Only reaching the length matters for the
result, and the full figure keeps the game record honest (the .mat and statistics files show
points won, not points needed).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from backgammon.cube import PLAYERS, Cube, CubeRules
from backgammon.errors import BackgammonError, gettext_noop
from backgammon.game import ResultKind

MAX_MATCH_LENGTH = 32767
"""The longest match a GNU Backgammon Match ID can describe (15 bits)."""


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """House rules of a match or money session."""

    crawford_rule: bool = True
    """Match play: whether the Crawford game is played (it nearly always is)."""
    jacoby: bool = False
    beavers: bool = False
    raccoons: bool = False
    automatic_doubles: int = 0
    max_cube: int | None = None


@dataclass(frozen=True, slots=True)
class MatchState:
    """The score before the game numbered ``game_number`` (the first game is 1).

    ``crawford`` says that game is the Crawford game, ``post_crawford`` that the Crawford game
    has been played.
    """

    length: int
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False
    game_number: int = 1
    options: MatchOptions = field(default_factory=MatchOptions)

    def __post_init__(self) -> None:
        if not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise BackgammonError(
                gettext_noop(
                    "A match is played to 1 to %(most)s points (0 for money play), not %(length)s"
                ),
                most=MAX_MATCH_LENGTH,
                length=self.length,
            )
        if min(self.score) < 0:
            raise BackgammonError(gettext_noop("A score cannot be negative"))
        if self.money:
            if self.crawford or self.post_crawford:
                raise BackgammonError(gettext_noop("Money play has no Crawford game"))
        elif (
            self.options.jacoby
            or self.options.beavers
            or self.options.raccoons
            or self.options.automatic_doubles
        ):
            raise BackgammonError(
                gettext_noop("The Jacoby rule, beavers and automatic doubles belong to money play")
            )
        if self.options.raccoons and not self.options.beavers:
            raise BackgammonError(
                gettext_noop("Raccoons answer beavers: allow beavers to allow raccoons")
            )
        if self.options.automatic_doubles < 0:
            raise BackgammonError(
                gettext_noop("The number of automatic doubles cannot be negative")
            )
        max_cube = self.options.max_cube
        if max_cube is not None and (max_cube < 1 or max_cube & (max_cube - 1)):
            raise BackgammonError(
                gettext_noop("The maximum cube is a power of two, like 64, not %(value)s"),
                value=max_cube,
            )
        if self.crawford and self.post_crawford:
            raise BackgammonError(
                gettext_noop("A game cannot be both the Crawford game and after it")
            )

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def over(self) -> bool:
        return not self.money and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The player who won the match, or None while it goes on (always None for money)."""
        if not self.over:
            return None
        return 0 if self.score[0] >= self.length else 1

    def away(self, player: int) -> int:
        """Points ``player`` still needs to win the match (0 once they have)."""
        if self.money:
            raise BackgammonError(gettext_noop("Money play has no match length to count down to"))
        return max(self.length - self.score[player], 0)

    def cube_rules(self) -> CubeRules:
        """The cube's rules for the current game."""
        return CubeRules(
            money=self.money,
            beavers=self.options.beavers,
            raccoons=self.options.raccoons,
            max_cube=self.options.max_cube,
            crawford_game=self.crawford,
            automatic_doubles=self.options.automatic_doubles,
        )

    def game_points(self, result: ResultKind, cube: Cube) -> int:
        """What winning the current game by ``result`` (or a resignation of that level) is
        worth at ``cube``."""
        return game_points(result, cube, money=self.money, jacoby=self.options.jacoby)

    def after_game(self, winner: int, points: int) -> MatchState:
        """The score once ``winner`` has won the current game for ``points``."""
        if winner not in PLAYERS:
            raise ValueError(f"players are 0 and 1, not {winner}")
        if points < 1:
            raise ValueError(f"a game is worth at least a point, not {points}")
        if self.over:
            raise BackgammonError(gettext_noop("The match is over"))
        score = list(self.score)
        score[winner] += points
        crawford = (
            not self.money
            and self.options.crawford_rule
            and not (self.crawford or self.post_crawford)
            and score[winner] == self.length - 1
        )
        return replace(
            self,
            score=(score[0], score[1]),
            crawford=crawford,
            post_crawford=self.post_crawford or self.crawford,
            game_number=self.game_number + 1,
        )


def game_points(result: ResultKind, cube: Cube, *, money: bool, jacoby: bool) -> int:
    """Cube value × level; under the Jacoby rule in money play a gammon or backgammon counts
    as a single game while the cube has not been turned."""
    level = result.value
    if money and jacoby and not cube.turned:
        level = ResultKind.SINGLE.value
    return cube.value * level
