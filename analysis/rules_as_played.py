"""The rules a match was played by that its .mat file cannot say, and how the analysis
judges the match cube of match swing.

Terms:

* *initial cube*: the value of a game's cube before its first roll: 1, or 2, 4, ... after
  the *automatic doubles* of a money session (each opening roll of equal numbers doubled
  the centred cube, ``backgammon.cube``). The cube stays centred, so the Jacoby rule still
  holds while nobody has doubled.
* *match stake*, *match cube*, *match double*: as in ``backgammon.match_cube``: a second
  cube on what the whole match is played for, offered at the start of a turn and taken (the
  stake doubles, the taker owns the match cube) or dropped (the match ends, won by the
  doubler at the stake before the double).
* *MWC*: the chance of winning the match, GNU Backgammon's cubeful figure for the position
  of the match double (the doubler on roll, before rolling, with the game cube, the score
  and the Crawford flag as they were: the doubler's own game-cube options count).

The Crawford rule being off is said by the .mat file itself (its ``Crawford "Off"`` tag,
which GNU Backgammon's importer ignores); initial cubes and match doubles travel beside the
file as :class:`RulesAsPlayed`, and :mod:`analysis.gnubg_match_analysis` gives them to the
program. Without the Crawford rule no game is the Crawford game and at 1-away the trailer's
cube is live, valued with the post-Crawford entries of the match equity table, which hold
for such a match exactly; the table's entries for scores before anyone is 1-away are the
ones of a match with the Crawford rule (GNU Backgammon has no other), so there the figures
are those of the nearest table there is.

How a match double is judged. The match ends in one of two results, so for the stake it is
a single event won or lost, with no gammons: a player whose MWC is ``p`` expects
``(2p - 1)`` times the stake. In units of the stake before the double, from the doubler's
view (the arithmetic of the take point of any cube on a game without gammons, as Keeler
and Spencer set it out in "Optimal Doubling in Backgammon", Operations Research 23(6),
1975):

* no double: ``2p - 1``;
* double, take: ``2 (2p - 1)``;
* double, drop: ``+1``.

The taker should take when ``-2 (2p - 1) >= -1``, i.e. when his own MWC ``1 - p`` is at
least 25 % (the *take point*); the doubler gains by doubling when ``min(take, drop)`` beats
no double. This counts the match cube as *dead* after the take: the value of owning it (the
right to redouble later) is left out, as GNU Backgammon knows nothing of a match cube.
Keeler and Spencer show that a fully live cube moves the take point to 20 %: a take judged
right here is right with any recube value, a drop of a player holding 20-25 % may be called
an error that a live match cube would excuse, and doubling early is never charged for the
ownership it gives away. Errors are in *stakes*: equity normalised to the stake before the
double, as EMG normalises to the game cube, and marked with GNU Backgammon's thresholds.

How the game's decisions are judged with a match cube. With the match cube at ``V`` and
dead, a player's outcome is ``+V`` for winning the match and ``-V`` for losing it, an
affine function of the match result, so the expected outcome is ``V (2 MWC - 1)``: the play
and the game-cube action with the highest MWC are the ones with the highest expected stake,
whatever ``V``. The match cube changes the value of the match, not MWC-optimal play, and
GNU Backgammon's analysis of the games (in MWC, its match equity table, the score and the
game cube) stands as it is. While the match cube is live its ownership adds the value of a
later redouble, which depends on how much the MWC may still swing; that second-order value
is what the analysis leaves out, as it does for the match double itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TAKE_POINT = 0.25
"""The least MWC with which a match double should be taken, the match cube dead after it."""
_MARKS = ((0.12, "very bad"), (0.06, "bad"), (0.03, "doubtful"))


@dataclass(frozen=True)
class MatchDouble:
    """A match double as played: in game ``game`` (from 1) after ``rolls`` rolls of it,
    offered by ``player`` in the position ``gnubg_id`` (the doubler on roll); ``taken`` or
    dropped. Its verdicts are in stakes, whatever the stake was."""

    game: int
    rolls: int
    player: int
    gnubg_id: str
    taken: bool


@dataclass(frozen=True)
class RulesAsPlayed:
    """What the .mat file leaves out: ``initial_cubes`` one per game of the file (empty:
    all 1), and the match doubles in the order they were offered."""

    initial_cubes: tuple[int, ...] = ()
    match_doubles: tuple[MatchDouble, ...] = ()

    def request(self) -> dict[str, Any]:
        """The fields of the ``analyse_match`` request that carry them."""
        return {
            "initial_cubes": list(self.initial_cubes),
            "match_doubles": [
                {
                    "game": double.game,
                    "rolls": double.rolls,
                    "player": double.player,
                    "gnubg_id": double.gnubg_id,
                    "taken": double.taken,
                }
                for double in self.match_doubles
            ],
        }


@dataclass(frozen=True)
class MatchCubeJudgement:
    """A match double judged: the doubler's three equities in stakes (no double, double
    take, double drop), the best actions, and each side's error in stakes."""

    mwc: float
    no_double: float
    double_take: float
    double_drop: float
    should_double: bool
    should_take: bool
    double_error: float
    answer_error: float


def judge_match_double(mwc: float, *, taken: bool) -> MatchCubeJudgement:
    """The verdicts on a match double offered with the doubler's MWC ``mwc``."""
    no_double = 2 * mwc - 1
    double_take = 2 * no_double
    double_drop = 1.0
    doubled = min(double_take, double_drop)
    should_take = double_take <= double_drop
    answered = double_take if taken else double_drop
    return MatchCubeJudgement(
        mwc=mwc,
        no_double=no_double,
        double_take=double_take,
        double_drop=double_drop,
        should_double=doubled > no_double,
        should_take=should_take,
        double_error=max(no_double - doubled, 0.0),
        answer_error=max(answered - doubled, 0.0),
    )


def skill_mark(error: float) -> str | None:
    """GNU Backgammon's mark for an error of this size (its default thresholds)."""
    return next((mark for threshold, mark in _MARKS if error >= threshold), None)
