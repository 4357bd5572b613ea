"""A cube decision as GNU Backgammon judges it: three equities and the proper cube action.

Terms (all from the *doubler*'s view, the player who may double or did; a take, drop or
beaver is judged on the same three figures):

- *ND*, *DT*, *DP*: the doubler's cubeful equity if they do not double, if they double and
  the opponent takes, if they double and the opponent passes (drops). EMG: normalised to
  the cube before the double, so DP is +1.0; in match play each also as MWC.
- *optimal*: what the doubler gets with the best play of both sides: ND when it beats the
  double (``ND > min(DT, DP)``: the opponent answers a double as best suits them), else
  ``min(DT, DP)``. A decision's error is measured from it, as GNU Backgammon's statistics do.
- *too good*: ND beats both double answers while the doubler can still win a gammon (ND
  above the cash at DP): playing on for the gammon is worth more than cashing the game.
  Without gammon chances GNU Backgammon calls the same figures a double, pass.
- *available*: the doubler may double now (GNU Backgammon's ``GetDPEq``): the cube is
  centred or theirs, and in match play it is not the Crawford game, the doubler is not
  1-away after it, and the doubled cube would not already win them the match (a *dead
  cube*).
- *beaver* (money play with beavers allowed): the doubled player takes and redoubles at
  once, keeping the cube. GNU Backgammon says to beaver when the take leaves the doubler at
  or below 0 (DT from -2 to 0), and then a double whose DT doubled is below ND is no double.
- *optional*: doubling costs or gains nothing (the two values within 1e-5, GNU Backgammon's
  tolerance).

The rule is GNU Backgammon's ``FindBestCubeDecision`` (``eval.c``) and its words those of
its ``GetCubeRecommendation``, the words eXtreme Gammon also prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from backgammon.matchid import MatchId

OPTIONAL = 1e-5
"""Two equities closer than this are the same (GNU Backgammon's ``isOptional``)."""
BEAVER_FLOOR = -2.0


class CubeVerdict(Enum):
    """The proper cube action, in GNU Backgammon's words."""

    DOUBLE_TAKE = "Double, take"
    DOUBLE_PASS = "Double, pass"
    NO_DOUBLE_TAKE = "No double, take"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    DOUBLE_BEAVER = "Double, beaver"
    NO_DOUBLE_BEAVER = "No double, beaver"
    REDOUBLE_TAKE = "Redouble, take"
    REDOUBLE_PASS = "Redouble, pass"
    NO_REDOUBLE_TAKE = "No redouble, take"
    TOO_GOOD_REDOUBLE_TAKE = "Too good to redouble, take"
    TOO_GOOD_REDOUBLE_PASS = "Too good to redouble, pass"
    NO_REDOUBLE_BEAVER = "No redouble, beaver"
    NEVER_DOUBLE = "Never double, take (dead cube)"
    NEVER_REDOUBLE = "Never redouble, take (dead cube)"
    OPTIONAL_DOUBLE_TAKE = "Optional double, take"
    OPTIONAL_REDOUBLE_TAKE = "Optional redouble, take"
    OPTIONAL_DOUBLE_BEAVER = "Optional double, beaver"
    OPTIONAL_DOUBLE_PASS = "Optional double, pass"
    OPTIONAL_REDOUBLE_PASS = "Optional redouble, pass"
    CUBE_UNAVAILABLE = "Cube not available"

    @property
    def too_good(self) -> bool:
        return self in _TOO_GOOD


_TOO_GOOD = frozenset(
    {
        CubeVerdict.TOO_GOOD_TAKE,
        CubeVerdict.TOO_GOOD_PASS,
        CubeVerdict.TOO_GOOD_REDOUBLE_TAKE,
        CubeVerdict.TOO_GOOD_REDOUBLE_PASS,
    }
)


@dataclass(frozen=True)
class CubeRules:
    """What the verdict depends on beside the three equities."""

    money: bool
    centred: bool
    available: bool = True
    gammon: bool = True
    """The doubler can still win a gammon (GNU Backgammon's gammon chance above 0)."""
    beavers: bool = False
    jacoby: bool = False


def _same(first: float, second: float) -> bool:
    return abs(first - second) <= OPTIONAL


def beaver_pays(double_take: float, rules: CubeRules) -> bool:
    """Whether the doubled player should beaver a double they take."""
    return rules.money and rules.beavers and BEAVER_FLOOR <= double_take <= 0.0


def cube_verdict(
    no_double: float, double_take: float, double_pass: float, rules: CubeRules
) -> CubeVerdict:
    """The proper cube action for the doubler's ND, DT and DP (EMG), as GNU Backgammon's
    ``FindBestCubeDecision`` finds it."""
    nd, dt, dp = no_double, double_take, double_pass
    centred = rules.centred

    def pick(first: CubeVerdict, redouble: CubeVerdict) -> CubeVerdict:
        return first if centred else redouble

    if not rules.available:
        if rules.money:
            return CubeVerdict.CUBE_UNAVAILABLE
        return pick(CubeVerdict.NEVER_DOUBLE, CubeVerdict.NEVER_REDOUBLE)
    if dt >= nd and dp >= nd:
        if dp > dt:
            optional = _same(dt, nd)
            if beaver_pays(dt, rules):
                # GNU Backgammon names these two alike whoever owns the cube.
                if 2 * dt < nd:
                    return CubeVerdict.NO_DOUBLE_BEAVER
                return CubeVerdict.OPTIONAL_DOUBLE_BEAVER if optional else CubeVerdict.DOUBLE_BEAVER
            if optional:
                return pick(CubeVerdict.OPTIONAL_DOUBLE_TAKE, CubeVerdict.OPTIONAL_REDOUBLE_TAKE)
            return pick(CubeVerdict.DOUBLE_TAKE, CubeVerdict.REDOUBLE_TAKE)
        # Cashing is optional only where playing on for the gammon is worth as much: not
        # under the Jacoby rule with the cube centred, where no gammon counts.
        if _same(nd, dp) and rules.gammon and (not rules.money or not centred or not rules.jacoby):
            return pick(CubeVerdict.OPTIONAL_DOUBLE_PASS, CubeVerdict.OPTIONAL_REDOUBLE_PASS)
        return pick(CubeVerdict.DOUBLE_PASS, CubeVerdict.REDOUBLE_PASS)
    if nd > dt and dp >= nd:
        if beaver_pays(dt, rules):
            return pick(CubeVerdict.NO_DOUBLE_BEAVER, CubeVerdict.NO_REDOUBLE_BEAVER)
        return pick(CubeVerdict.NO_DOUBLE_TAKE, CubeVerdict.NO_REDOUBLE_TAKE)
    # ND beats the double: too good, unless no gammon is left to play for.
    take = nd > dt and dt <= dp
    if not rules.gammon:
        if take:
            return pick(CubeVerdict.NO_DOUBLE_TAKE, CubeVerdict.NO_REDOUBLE_TAKE)
        return pick(CubeVerdict.DOUBLE_PASS, CubeVerdict.REDOUBLE_PASS)
    if take:
        return pick(CubeVerdict.TOO_GOOD_TAKE, CubeVerdict.TOO_GOOD_REDOUBLE_TAKE)
    return pick(CubeVerdict.TOO_GOOD_PASS, CubeVerdict.TOO_GOOD_REDOUBLE_PASS)


def cube_available(match_id: MatchId, doubler: int) -> bool:
    """Whether ``doubler`` may double in the state ``match_id`` gives (GNU Backgammon's
    ``GetDPEq``)."""
    if match_id.cube_owner not in (None, doubler):
        return False
    if match_id.length == 0:
        return True
    last = match_id.length - 1
    post_crawford = not match_id.crawford and last in match_id.score
    score = match_id.score[doubler]
    return (
        not match_id.crawford
        and score + match_id.cube_value < match_id.length
        and not (post_crawford and score == last)
    )


CUBE_OPTIONS = ("no double", "double, take", "double, pass")
"""The three rows of a cube decision's table, in the order GNU Backgammon's figures come."""
_PLAYED = {
    "no double": (True, False, False),
    "double": (False, True, True),
    "take": (False, True, False),
    "beaver": (False, True, False),
    "drop": (False, False, True),
}


@dataclass(frozen=True)
class CubeAnalysis:
    """ND, DT and DP for the doubler in EMG and, in match play, MWC (0 to 1); the proper
    action; whether the cube was centred (else the doubler's: a redouble)."""

    emg: tuple[float, float, float]
    mwc: tuple[float, float, float] | None
    verdict: CubeVerdict
    centred: bool

    @property
    def optimal(self) -> float:
        return optimal(self.emg)

    @property
    def optimal_mwc(self) -> float | None:
        return None if self.mwc is None else optimal(self.mwc)


def optimal(values: tuple[float, float, float]) -> float:
    """The doubler's value with the best play of both sides, from ND, DT and DP."""
    no_double, double_take, double_pass = values
    return max(no_double, min(double_take, double_pass))


def played_options(action: str) -> tuple[bool, bool, bool]:
    """Which rows of the table ``action`` chose: a double chose both answers' rows, the
    opponent's answer picks one of them."""
    return _PLAYED[action]
