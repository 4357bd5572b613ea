"""A whole match analysed by GNU Backgammon's ``analyse match``, run inside the program.

Loaded by :mod:`analysis.gnubg_server` in the embedded Python of ``gnubg``; the ``gnubg``
module is passed in, so this file imports nothing of the program and nothing of Django.

:func:`analyse_match` imports a .mat text, sets the analysis depth, runs ``analyse match``
and answers with:

- ``raw``: ``gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)`` as the program
  gives it (tuples become JSON lists). Players are ``"X"`` (player 0, the .mat's left
  column) and ``"O"`` (player 1). Move ``score`` values and ``luck-value`` are normalised
  equity (EMG); a cube analysis's ``nd-cubeful-eq`` / ``dt-cubeful-eq`` are MWC in match
  play and money equity per unit cube in money play; ``*-match-eq`` is the cubeless equity.
- ``actions``: per game, per action of ``raw``, what the raw structure leaves out: the GNUBG
  ID before the action, the player's index, move texts, candidate equities in EMG and MWC,
  and the cube decision's three equities (no double, double/take, double/pass) in EMG and
  MWC from the doubler's view.
- ``crawford_games``: whether each game is the Crawford game.
- ``ratings``: gnubg's rating numbers (``errorrating`` 0..7, ``luckrating`` 0..4) for each
  player's chequer, cube and overall error rate and luck rate, for the match and each game
  (see :func:`player_ratings` for a trap in ``gnubg.match``'s cube figures).
- ``settings``: the evaluation settings used and the program's own ``show analysis`` text.
"""

import os
import re
import tempfile
from collections.abc import Callable
from typing import Any

PLAYERS = ("X", "O")
GAME_PLAYING = 1


class InvalidMatch(ValueError):
    """The .mat text is not a match GNU Backgammon can import."""

    kind = "invalid_match"


def eval_settings(plies: int) -> dict[str, Any]:
    return {"plies": plies, "cubeful": True, "prune": True, "deterministic": True, "noise": 0.0}


def configure(gnubg: Any, plies: int) -> dict[str, Any]:
    for decision in ("chequerplay", "cubedecision"):
        prefix = f"set analysis {decision} evaluation"
        gnubg.command(f"{prefix} plies {plies}")
        gnubg.command(f"{prefix} cubeful on")
        gnubg.command(f"{prefix} prune on")
        gnubg.command(f"{prefix} deterministic on")
        gnubg.command(f"{prefix} noise 0")
    return {
        "chequerplay": eval_settings(plies),
        "cubedecision": eval_settings(plies),
        "show_analysis": gnubg.show("analysis"),
    }


def import_mat(gnubg: Any, mat_text: str) -> None:
    """Import ``mat_text``; a file the program refuses raises :class:`InvalidMatch`.

    A failed ``import mat`` leaves the previous match in place, so the imported match is
    checked against the file's length line and number of games.
    """
    length, games = mat_shape(mat_text)
    handle, path = tempfile.mkstemp(suffix=".mat", prefix="crawford-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(mat_text)
        gnubg.command("set confirm new off")
        # The program takes a money session's Jacoby rule from its own setting, not from
        # the file's tag: set it from the tag first (on when there is none, as gnubg's own).
        jacoby = "off" if re.search(r'\[\s*Jacoby\s+"Off"', mat_text, re.IGNORECASE) else "on"
        gnubg.command(f"set jacoby {jacoby}")
        gnubg.command(f'import mat "{path}"')
    finally:
        os.unlink(path)
    _check_imported(gnubg, length, games)
    if length and re.search(r'\[\s*Crawford\s+"Off"', mat_text, re.IGNORECASE):
        without_crawford_rule(gnubg)
        _check_imported(gnubg, length, games)


def _check_imported(gnubg: Any, length: int, games: int) -> None:
    try:
        imported = gnubg.match(analysis=0, statistics=0)
    except Exception:
        raise InvalidMatch("GNU Backgammon could not import the match") from None
    if imported["match-info"]["match-length"] != length or len(imported["games"]) != games:
        raise InvalidMatch("GNU Backgammon could not import the match")


def without_crawford_rule(gnubg: Any) -> None:
    """The match held, played without the Crawford rule.

    The program's ``import mat`` (1.07) takes every match as played with the rule, whatever
    the file's ``Crawford`` tag says, and no command turns it off afterwards; its own .sgf
    keeps the rule per game (``RU[Crawford]``), so the match goes out as .sgf, loses those,
    and comes back."""
    handle, path = tempfile.mkstemp(suffix=".sgf", prefix="crawford-")
    os.close(handle)
    try:
        gnubg.command(f'save match "{path}"')
        with open(path, encoding="utf-8") as file:
            sgf = file.read()
        with open(path, "w", encoding="utf-8") as file:
            file.write(re.sub(r"RU\[Crawford[^\]]*\]", "", sgf))
        gnubg.command(f'load match "{path}"')
    finally:
        os.unlink(path)


def mat_shape(mat_text: str) -> tuple[int, int]:
    """The match length and the number of games a .mat text announces."""
    length = None
    games = 0
    for line in mat_text.splitlines():
        words = line.split()
        if len(words) == 3 and words[1:] == ["point", "match"] and words[0].isdigit():
            length = int(words[0])
        elif len(words) >= 2 and words[0] == "Game" and words[1].isdigit():
            games += 1
    if length is None or games == 0:
        raise InvalidMatch("this is not a .mat match: no 'N point match' line or no game")
    return length, games


def analyse_match(
    gnubg: Any, request: dict[str, Any], progress: Callable[[int, int], None] = lambda d, t: None
) -> dict[str, Any]:
    """``analyse match``, done a game at a time (``analyse game`` on each game gives the
    same figures as ``analyse match``) so that ``progress(actions done, actions in all)``
    can be told after each game."""
    plies = int(request["plies"])
    if not 0 <= plies <= 4:
        raise InvalidMatch(f"analysis depth must be 0 to 4 plies, not {plies}")
    import_mat(gnubg, request["mat"])
    settings = configure(gnubg, plies)
    sizes = [len(game["game"]) for game in gnubg.match(analysis=0, statistics=0)["games"]]
    total, done = sum(sizes), 0
    progress(done, total)
    gnubg.command("first game")
    for index, size in enumerate(sizes):
        gnubg.command("analyse game")
        done += size
        progress(done, total)
        if index + 1 < len(sizes):
            gnubg.command("next game")
    raw = gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)
    info = raw["match-info"]
    return {
        "raw": raw,
        "settings": settings,
        "actions": [
            game_actions(gnubg, info, raw["games"], index) for index in range(len(raw["games"]))
        ],
        "crawford_games": [
            crawford_game(info, raw["games"], index) for index in range(len(raw["games"]))
        ],
        "ratings": {
            "match": stats_ratings(gnubg, raw.get("stats")),
            "games": [stats_ratings(gnubg, game.get("stats")) for game in raw["games"]],
        },
    }


def crawford_game(info: dict[str, Any], games: list[dict[str, Any]], index: int) -> bool:
    """Whether game ``index`` is the Crawford game: the first one a player starts 1-away."""
    length = info["match-length"]
    if length <= 1 or "Crawford" not in info.get("rules", ()):
        return False

    def one_away(game: dict[str, Any]) -> bool:
        return length - 1 in (game["info"]["score-X"], game["info"]["score-O"])

    return one_away(games[index]) and (index == 0 or not one_away(games[index - 1]))


def game_actions(
    gnubg: Any, info: dict[str, Any], games: list[dict[str, Any]], index: int
) -> list[dict[str, Any]]:
    """What each action of game ``index`` leaves out of ``gnubg.match``, in the same order."""
    game = games[index]
    base: dict[str, Any] = {
        "cube": 1,
        "cubeowner": -1,
        "move": 0,
        "matchto": info["match-length"],
        "score": (game["info"]["score-X"], game["info"]["score-O"]),
        "crawford": int(crawford_game(info, games, index)),
        "jacoby": int("Jacoby" in info.get("rules", ())),
        "beavers": 0,
        "gammonprice": ((0.0, 0.0), (0.0, 0.0)),
        "bgv": 0,
    }
    doubled: dict[str, Any] | None = None
    enriched = []
    for action in game["game"]:
        player = PLAYERS.index(action["player"])
        kind = action["action"]
        responding = kind in ("take", "drop", "beaver")
        doubler = 1 - player if responding else player
        cube_info = priced(gnubg, {**base, "move": doubler})
        analysis = (doubled or {}).get("analysis", {}) if responding else action.get("analysis", {})
        board_id = (doubled or {}).get("board") if responding else action.get("board")
        entry: dict[str, Any] = {"player": player, "kind": kind}
        if board_id is not None:
            position = {
                "dice": tuple(action.get("dice") or (0, 0)),
                "turn": player,
                "resigned": 0,
                "doubled": int(responding),
                "gamestate": GAME_PLAYING,
            }
            entry["gnubg_id"] = f"{board_id}:{gnubg.matchid(cube_info, position)}"
        if "nd-cubeful-eq" in analysis:
            entry["cube"] = cube_equities(gnubg, analysis, cube_info)
        if kind == "move":
            entry.update(checker_play(gnubg, action, board_id, cube_info))
        enriched.append(entry)
        if kind == "double":
            doubled = action
        elif kind in ("take", "beaver"):
            base.update(cube=base["cube"] * (4 if kind == "beaver" else 2), cubeowner=player)
            doubled = None
    return enriched


def priced(gnubg: Any, info: dict[str, Any]) -> dict[str, Any]:
    """``info`` with its gammon prices, as the program's ``calcgammonprice`` gives them.

    The ``gnubg`` Python package has no such function: its ``cubeinfo`` works them out
    from the match equity table for match play; money play's are one more point for a
    gammon and for a backgammon, none while the cube is centred under the Jacoby rule.
    """
    if hasattr(gnubg, "calcgammonprice"):
        return dict(gnubg.calcgammonprice(info))
    made = dict(
        gnubg.cubeinfo(
            info["cube"],
            info["cubeowner"],
            info["move"],
            info["matchto"],
            tuple(info["score"]),
            info["crawford"],
            info["bgv"],
        )
    )
    made["jacoby"], made["beavers"] = info["jacoby"], info["beavers"]
    if info["matchto"] == 0:
        price = 0.0 if info["jacoby"] and info["cubeowner"] == -1 else 1.0
        made["gammonprice"] = ((price, price), (price, price))
    return made


def cube_equities(
    gnubg: Any, analysis: dict[str, Any], cube_info: dict[str, Any]
) -> dict[str, Any]:
    """No double, double/take and double/pass for the doubler, in EMG and (match play) MWC.

    As in GNU Backgammon's ``FindCubeDecision``: double/pass is +1.0 normalised equity,
    the match play values are the analysis's MWC turned into equity for the current cube.
    """
    no_double, double_take = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"]
    if cube_info["matchto"] == 0:
        return {"emg": [no_double, double_take, 1.0], "mwc": None}
    return {
        "emg": [
            gnubg.mwc2eq(no_double, cube_info),
            gnubg.mwc2eq(double_take, cube_info),
            1.0,
        ],
        "mwc": [no_double, double_take, gnubg.eq2mwc(1.0, cube_info)],
    }


def checker_play(
    gnubg: Any, action: dict[str, Any], board_id: str | None, cube_info: dict[str, Any]
) -> dict[str, Any]:
    board = gnubg.positionfromid(board_id) if board_id else None
    move = action.get("move") or ()
    played = gnubg.movetupletostring(move, board) if move and board else ""
    moves = action.get("analysis", {}).get("moves", ())
    match_play = cube_info["matchto"] > 0
    candidates = [
        {
            "move": gnubg.movetupletostring(candidate["move"], board) if board else "",
            "emg": candidate["score"],
            "mwc": gnubg.eq2mwc(candidate["score"], cube_info) if match_play else None,
        }
        for candidate in moves
    ]
    return {"played": played, "candidates": candidates}


def stats_ratings(gnubg: Any, stats: dict[str, Any] | None) -> dict[str, Any] | None:
    """gnubg's rating numbers for each player, from the rates its statistics page prints."""
    if not stats:
        return None
    return {side: player_ratings(gnubg, stats[side]) for side in PLAYERS if side in stats}


def player_ratings(gnubg: Any, player: dict[str, Any]) -> dict[str, int | None]:
    """Ratings of the rates per decision; the cube's ``error-skill`` is already one.

    ``gnubg.match`` gives the chequer play's errors as totals but the cube's as a rate per
    close cube decision (1.07), so the cube total is that rate times their number.
    """
    moves, cube, dice = player["moves"], player["cube"], player["dice"]
    unforced, close = moves["unforced-moves"], cube["close-cube"]
    cube_error = cube["error-skill"] * close

    def rating(error: float, count: int) -> int | None:
        return int(gnubg.errorrating(error / count)) if count else None

    # The statistics page divides luck by the moves played, not by the rolls it marked.
    rolls = moves["total-moves"]
    return {
        "chequerplay": rating(moves["error-skill"], unforced),
        "cube": rating(cube_error, close),
        "overall": rating(moves["error-skill"] + cube_error, unforced + close),
        "luck": int(gnubg.luckrating(dice["luck"] / rolls)) if rolls else None,
    }
