"""A match analysed by GNU Backgammon, as frozen dataclasses: decisions and statistics.

Built by :func:`match_analysis` from the answer of the server's ``analyse_match`` request
(:mod:`analysis.gnubg_match_analysis`); every number is GNU Backgammon's own.

Terms:

- *decision*: one choice a player made: a *checker* play (a roll played) or a *cube* action
  (``no double`` when the player could double and did not, ``double``, ``take``, ``drop``,
  ``beaver``). A no-double is listed only when it was *close*: doubling would have cost less
  than 0.16 (GNU Backgammon's ``isCloseCubedecision``), or the player should have doubled.
  A cube decision carries its three equities and proper action
  (:mod:`analysis.cube_decisions`); its *best* is ``no double``, ``too good`` (not doubling,
  to play on for the gammon), ``double``, ``take``, ``beaver`` or ``drop``.
- *match cube* decision (match swing): a ``match double`` and its answer (``match take``,
  ``match drop``), judged on the doubler's MWC as :mod:`analysis.rules_as_played` says, its
  error in stakes; GNU Backgammon's statistics and the PR leave them out.
- *EMG*: equivalent to money game, equity normalised to a 1-cube; in match play GNU
  Backgammon turns MWC into EMG against the match equity table for the current cube.
- *error*: EMG the decision gave up against the best one (0 when it was the best), in match
  play also in MWC (``error_mwc``, a fraction: 0.01 is 1 %).
- *skill mark*: GNU Backgammon's marks for an error, with its default thresholds of 1.07:
  ``doubtful`` from 0.03 EMG, ``bad`` from 0.06, ``very bad`` from 0.12.
- *luck*: what the roll was worth against the average roll, EMG; marked ``lucky`` /
  ``very lucky`` from +0.3 / +0.6 and ``unlucky`` / ``very unlucky`` from -0.3 / -0.6.
- *unforced move*: a roll with more than one legal play; *close cube decision*: as above,
  plus every actual double, take or drop. The *decisions* of a player are both together.
- *error rate*: mEMG (thousandths of EMG) lost per decision: ``1000 * (checker + cube
  error) / (unforced moves + close cube decisions)``, GNU Backgammon's "Error rate mEMG";
  the checker and cube rates divide by their own count. *Luck rate*: mEMG per move played
  (GNU Backgammon's divisor, which can be one more than the rolls it marked).
- *PR* (performance rating of eXtreme Gammon): the average equity lost per non-obvious
  decision times 500 (eXtreme Gammon's definition, as the English Wikipedia's article on
  eXtreme Gammon gives it under "Performance rating"), i.e.
  ``PR = 500 * error EMG / decisions = error rate mEMG / 2``. GNU Backgammon's decision
  count (unforced moves, close cube decisions) stands in for XG's non-obvious decisions, so
  the figure is close to, not always equal to, the one XG would print for the same match.
- *ratings*: GNU Backgammon's words for an error rate (``gnubg.errorrating``: "Awful!" to
  "Supernatural") and for a luck rate (``gnubg.luckrating``: "Go to bed" to "Go to Las
  Vegas").
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from analysis.cube_decisions import (
    CubeAnalysis,
    CubeRules,
    beaver_pays,
    cube_available,
    cube_verdict,
)
from analysis.rules_as_played import judge_match_double, skill_mark
from backgammon.errors import NotationError
from backgammon.matchid import MatchId
from backgammon.notation import format_play, parse_moves

CLOSE_CUBE = 0.16
CANDIDATES = 5
ERROR_RATINGS = (
    "Awful!",
    "Beginner",
    "Casual player",
    "Intermediate",
    "Advanced",
    "Expert",
    "World class",
    "Supernatural",
)
LUCK_RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
_LUCK_MARKS = {
    "verygood": "very lucky",
    "good": "lucky",
    "bad": "unlucky",
    "verybad": "very unlucky",
}
_SIDES = ("X", "O")

DecisionKind = Literal["checker", "cube", "match cube"]


@dataclass(frozen=True)
class Candidate:
    """A play GNU Backgammon considered, with its equity (EMG) and MWC (match play)."""

    move: str
    equity: float
    mwc: float | None


@dataclass(frozen=True)
class Decision:
    """One decision of one player; ``game`` and ``number`` count from 1."""

    game: int
    number: int
    player: int
    kind: DecisionKind
    action: str
    dice: tuple[int, int] | None
    position_id: str
    match_id: str
    played: str
    best: str
    error: float
    error_mwc: float | None
    skill: str | None
    forced: bool = False
    candidates: tuple[Candidate, ...] = ()
    luck: float | None = None
    luck_mark: str | None = None
    cube: CubeAnalysis | None = None

    @property
    def gnubg_id(self) -> str:
        return f"{self.position_id}:{self.match_id}"


@dataclass(frozen=True)
class PlayerStatistics:
    """One player's figures for a game or the match, as GNU Backgammon's statistics page.

    Errors and luck are totals in EMG; the ``*_cost`` twins are GNU Backgammon's
    unnormalised figures: MWC (a fraction) in match play, points (times the cube) in money
    play. Rates are mEMG per decision (per move for luck), None when there was none.
    """

    moves: int
    unforced_moves: int
    cube_decisions: int
    close_cube_decisions: int
    checker_error: float
    checker_error_cost: float
    cube_error: float
    cube_error_cost: float
    marked_moves: Mapping[str, int]
    luck: float
    luck_cost: float
    checker_rating: str | None
    cube_rating: str | None
    overall_rating: str | None
    luck_rating: str | None

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube_decisions

    @property
    def error(self) -> float:
        return self.checker_error + self.cube_error

    @property
    def checker_error_rate(self) -> float | None:
        return _rate(self.checker_error, self.unforced_moves)

    @property
    def cube_error_rate(self) -> float | None:
        return _rate(self.cube_error, self.close_cube_decisions)

    @property
    def error_rate(self) -> float | None:
        return _rate(self.error, self.decisions)

    @property
    def pr(self) -> float | None:
        rate = self.error_rate
        return None if rate is None else rate / 2

    @property
    def luck_rate(self) -> float | None:
        return _rate(self.luck, self.moves)


@dataclass(frozen=True)
class GameAnalysis:
    number: int
    score: tuple[int, int]
    crawford: bool
    winner: int | None
    points: int
    resigned: bool
    decisions: tuple[Decision, ...]
    statistics: tuple[PlayerStatistics, PlayerStatistics] | None


@dataclass(frozen=True)
class MatchAnalysis:
    """The whole analysis; ``match_length`` 0 is money play. ``raw`` is gnubg's answer."""

    match_length: int
    players: tuple[str, str]
    rules: tuple[str, ...]
    plies: int
    games: tuple[GameAnalysis, ...]
    statistics: tuple[PlayerStatistics, PlayerStatistics]
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def money(self) -> bool:
        return self.match_length == 0

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(decision for game in self.games for decision in game.decisions)


def _rate(total: float, count: int) -> float | None:
    return 1000 * total / count if count else None


def match_analysis(answer: Mapping[str, Any]) -> MatchAnalysis:
    """The clean form of the server's ``analyse_match`` answer."""
    raw = answer["raw"]
    info = raw["match-info"]
    ratings = answer["ratings"]
    rules = CubeRules(
        money=int(info["match-length"]) == 0, centred=True, beavers=bool(answer["beavers"])
    )
    match_doubles = answer.get("match_doubles") or ()
    games = tuple(
        _game(
            number,
            game,
            actions,
            game_ratings,
            crawford,
            rules,
            [double for double in match_doubles if double["game"] == number],
        )
        for number, (game, actions, game_ratings, crawford) in enumerate(
            zip(
                raw["games"],
                answer["actions"],
                ratings["games"],
                answer["crawford_games"],
                strict=True,
            ),
            start=1,
        )
    )
    statistics = _statistics(raw.get("stats"), ratings["match"])
    assert statistics is not None, "GNU Backgammon gave no match statistics"
    return MatchAnalysis(
        match_length=int(info["match-length"]),
        players=(info["X"]["name"], info["O"]["name"]),
        rules=tuple(info.get("rules") or ()),
        plies=int(answer["settings"]["chequerplay"]["plies"]),
        games=games,
        statistics=statistics,
        raw=raw,
    )


def _game(
    number: int,
    game: Mapping[str, Any],
    actions: Sequence[Mapping[str, Any]],
    ratings: Mapping[str, Any] | None,
    crawford: bool,
    rules: CubeRules,
    match_doubles: Sequence[Mapping[str, Any]] = (),
) -> GameAnalysis:
    """One game's figures; its ``match_doubles`` (the server's, with the doubler's MWC)
    are listed where they were offered: before the first action after ``rolls`` rolls."""
    result = game["info"]
    decisions: list[Decision] = []
    waiting = list(match_doubles)
    rolls = 0
    for record, extra in zip(game["game"], actions, strict=True):
        while waiting and waiting[0]["rolls"] <= rolls:
            decisions += _match_cube(number, waiting.pop(0), len(decisions))
        for decision in _decisions(number, record, extra, rules):
            decisions.append(replace(decision, number=len(decisions) + 1))
        rolls += record["action"] == "move"
    for double in waiting:
        decisions += _match_cube(number, double, len(decisions))
    winner = result.get("winner")
    return GameAnalysis(
        number=number,
        score=(int(result["score-X"]), int(result["score-O"])),
        crawford=crawford,
        winner=_SIDES.index(winner) if winner in _SIDES else None,
        points=int(result.get("points-won") or 0),
        resigned=bool(result.get("resigned")),
        decisions=tuple(decisions),
        statistics=_statistics(game.get("stats"), ratings),
    )


def _decisions(
    game: int, record: Mapping[str, Any], extra: Mapping[str, Any], rules: CubeRules
) -> list[Decision]:
    """The decisions of one gnubg action: a roll may carry a no-double before the play."""
    kind = extra["kind"]
    analysis = record.get("analysis") or {}
    if "gnubg_id" not in extra:
        return []
    position_id, _, match_id = str(extra["gnubg_id"]).partition(":")
    base = {
        "game": game,
        "number": 0,
        "player": int(extra["player"]),
        "position_id": position_id,
        "match_id": match_id,
    }
    decisions = []
    cube = extra.get("cube")
    if kind == "move":
        if cube is not None and _close_no_double(cube["emg"]):
            decisions.append(_cube(base, "no double", cube, analysis.get("cube-skill"), rules))
        decisions.append(_checker(base, record, extra))
    elif kind in ("double", "take", "drop", "beaver") and cube is not None:
        decisions.append(_cube(base, kind, cube, analysis.get("skill"), rules))
    return decisions


def _match_cube(game: int, double: Mapping[str, Any], before: int) -> list[Decision]:
    """A match double and its answer, judged as :mod:`analysis.rules_as_played` says;
    errors in stakes, numbered after the ``before`` decisions already listed."""
    judged = judge_match_double(float(double["mwc"]), taken=bool(double["taken"]))
    position_id, _, match_id = str(double["gnubg_id"]).partition(":")
    doubler = int(double["player"])
    answer = "match take" if double["taken"] else "match drop"
    made = (
        (
            doubler,
            "match double",
            "match double" if judged.should_double else "no match double",
            judged.double_error,
        ),
        (
            1 - doubler,
            answer,
            "match take" if judged.should_take else "match drop",
            judged.answer_error,
        ),
    )
    return [
        Decision(
            game=game,
            number=before + index,
            player=player,
            kind="match cube",
            action=action,
            dice=None,
            position_id=position_id,
            match_id=match_id,
            played=action,
            best=best,
            error=error,
            error_mwc=None,
            skill=skill_mark(error),
        )
        for index, (player, action, best, error) in enumerate(made, 1)
    ]


@functools.lru_cache(maxsize=4096)
def _written(play: str) -> str:
    """A play GNU Backgammon wrote, as the move list writes it (``backgammon.notation``, the
    one home for writing a play), so both name the same play alike; text that is not a play
    (a dance) as it came. Remembered: a played move is one of its roll's candidates, and the
    same plays come back from match to match."""
    try:
        return format_play(parse_moves(play))
    except NotationError:
        return play


def _close_no_double(emg: Sequence[float]) -> bool:
    no_double, double_take, double_pass = emg
    return min(double_take, double_pass) - no_double > -CLOSE_CUBE


def _cube_error(action: str, values: Sequence[float]) -> float:
    """What ``action`` gave up, from the doubler's three values (GNU Backgammon's measure:
    the doubler's from the optimal value, the answer's from the better answer). A tie goes
    to the double and to the pass, as in GNU Backgammon's ``FindBestCubeDecision``."""
    no_double, double_take, double_pass = values
    doubled = min(double_take, double_pass)
    if action in ("no double", "double"):
        chosen = no_double if action == "no double" else doubled
        return max(no_double, doubled) - chosen
    chosen = double_take if action in ("take", "beaver") else double_pass
    return chosen - doubled


def _best_cube_action(action: str, cube: CubeAnalysis, rules: CubeRules) -> str:
    no_double, double_take, double_pass = cube.emg
    if action in ("no double", "double"):
        if min(double_take, double_pass) >= no_double:
            return "double"
        return "too good" if cube.verdict.too_good else "no double"
    if double_take >= double_pass:
        return "drop"
    return "beaver" if beaver_pays(double_take, rules) else "take"


def _cube(
    base: Mapping[str, Any],
    action: str,
    cube: Mapping[str, Any],
    skill: str | None,
    rules: CubeRules,
) -> Decision:
    emg = _triple(cube["emg"])
    mwc = None if cube.get("mwc") is None else _triple(cube["mwc"])
    state = MatchId.decode(str(base["match_id"]))
    doubler = 1 - int(base["player"]) if action in ("take", "drop", "beaver") else base["player"]
    rules = replace(
        rules,
        centred=state.cube_owner is None,
        available=cube_available(state, doubler),
        gammon=bool(cube["gammon"]),
        jacoby=state.jacoby,
    )
    analysis = CubeAnalysis(
        emg=emg, mwc=mwc, verdict=cube_verdict(*emg, rules), centred=rules.centred
    )
    return Decision(
        **base,
        kind="cube",
        action=action,
        dice=None,
        played=action,
        best=_best_cube_action(action, analysis, rules),
        error=max(_cube_error(action, emg), 0.0),
        error_mwc=None if mwc is None else max(_cube_error(action, mwc), 0.0),
        skill=skill,
        cube=analysis,
    )


def _triple(values: Sequence[float]) -> tuple[float, float, float]:
    no_double, double_take, double_pass = (float(value) for value in values)
    return no_double, double_take, double_pass


def _checker(
    base: Mapping[str, Any], record: Mapping[str, Any], extra: Mapping[str, Any]
) -> Decision:
    analysis = record.get("analysis") or {}
    considered = extra.get("candidates", ())
    # Only the candidates kept are written anew: a roll can have hundreds of plays.
    candidates = tuple(
        Candidate(move=_written(c["move"]), equity=float(c["emg"]), mwc=c["mwc"])
        for c in considered[:CANDIDATES]
    )
    chosen_index = analysis.get("imove")
    played = _written(extra.get("played", ""))
    error, error_mwc = 0.0, None
    if considered and chosen_index is not None:
        chosen, best = considered[chosen_index], considered[0]
        error = max(float(best["emg"]) - float(chosen["emg"]), 0.0)
        if best["mwc"] is not None and chosen["mwc"] is not None:
            error_mwc = max(best["mwc"] - chosen["mwc"], 0.0)
    elif considered:
        error_mwc = 0.0 if considered[0]["mwc"] is not None else None
    dice = record.get("dice")
    luck_mark = analysis.get("luck")
    return Decision(
        **base,
        kind="checker",
        action="move",
        dice=(int(dice[0]), int(dice[1])) if dice else None,
        played=played,
        best=candidates[0].move if candidates else played,
        error=error,
        error_mwc=error_mwc,
        skill=analysis.get("skill"),
        forced=len(considered) <= 1,
        candidates=candidates,
        luck=analysis.get("luck-value"),
        luck_mark=_LUCK_MARKS.get(luck_mark) if luck_mark else None,
    )


def _statistics(
    stats: Mapping[str, Any] | None, ratings: Mapping[str, Any] | None
) -> tuple[PlayerStatistics, PlayerStatistics] | None:
    if not stats or not ratings:
        return None
    first, second = (_player(stats[side], ratings[side]) for side in _SIDES)
    return first, second


def _word(words: Sequence[str], index: int | None) -> str | None:
    return None if index is None else words[min(max(index, 0), len(words) - 1)]


def _player(stats: Mapping[str, Any], ratings: Mapping[str, Any]) -> PlayerStatistics:
    moves, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    return PlayerStatistics(
        moves=int(moves["total-moves"]),
        unforced_moves=int(moves["unforced-moves"]),
        cube_decisions=int(cube["total-cube"]),
        close_cube_decisions=int(cube["close-cube"]),
        checker_error=float(moves["error-skill"]),
        checker_error_cost=float(moves["error-cost"]),
        # gnubg.match gives the cube's errors per close decision, the chequer play's as totals.
        cube_error=float(cube["error-skill"]) * int(cube["close-cube"]),
        cube_error_cost=float(cube["error-cost"]) * int(cube["close-cube"]),
        marked_moves=dict(moves["marked"]),
        luck=float(dice["luck"]),
        luck_cost=float(dice["luck-cost"]),
        checker_rating=_word(ERROR_RATINGS, ratings["chequerplay"]),
        cube_rating=_word(ERROR_RATINGS, ratings["cube"]),
        overall_rating=_word(ERROR_RATINGS, ratings["overall"]),
        luck_rating=_word(LUCK_RATINGS, ratings["luck"]),
    )
