"""A whole match analysed by GNU Backgammon's ``analyse match``, run inside the program.

Loaded by :mod:`analysis.gnubg_server` in the embedded Python of ``gnubg``; the ``gnubg``
module is passed in, so this file imports nothing of the program and nothing of Django.

:func:`analyse_match` imports a .mat text, gives the program the rules the match was
played by where the file loses them (:func:`play_rules`; :mod:`analysis.rules_as_played`),
sets the analysis depth, runs ``analyse match`` and answers with:

- ``raw``: ``gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)`` as the program
  gives it. Players are ``"X"`` (player 0, the .mat's left
  column) and ``"O"`` (player 1). Move ``score`` values and ``luck-value`` are normalised
  equity (EMG); a cube analysis's ``nd-cubeful-eq`` / ``dt-cubeful-eq`` are MWC in match
  play and money equity per unit cube in money play; ``*-match-eq`` is the cubeless equity.
- ``actions``: per game, per action of ``raw``, what the raw structure leaves out: the GNUBG
  ID before the action, the player's index, move texts, candidate equities in EMG and MWC,
  and the cube decision's three equities (no double, double/take, double/pass) in EMG and
  MWC from the doubler's view, with whether the doubler can still win a gammon.
- ``crawford_games``: whether each game is the Crawford game.
- ``beavers``: whether a money session allows beavers (the file's ``Beaver`` tag; allowed
  when there is none, as GNU Backgammon's own setting); always false in match play.
- ``ratings``: gnubg's rating numbers (``errorrating`` 0..7, ``luckrating`` 0..4) for each
  player's chequer, cube and overall error rate and luck rate, for the match and each game
  (see :func:`player_ratings` for a trap in ``gnubg.match``'s cube figures).
- ``settings``: the evaluation settings used and the program's own ``show analysis`` text.
- ``match_doubles``: the request's match doubles (match swing), each with the doubler's
  cubeful MWC in its position.
"""

import os
import re
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

PLAYERS = ("X", "O")
CRAWFORD_OFF = re.compile(r'^;\s*\[\s*Crawford\s+"Off"\s*\]', re.IGNORECASE | re.MULTILINE)
SGF_PROPERTY = re.compile(r"([A-Z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.DOTALL)
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


def import_mat(gnubg: Any, mat_text: str, initial_cubes: Sequence[int] = ()) -> None:
    """Import ``mat_text``; a file the program refuses raises :class:`InvalidMatch`.

    A failed ``import mat`` leaves the previous match in place, so the imported match is
    checked against the file's length line and number of games. A match whose file says
    ``Crawford "Off"``, or ``initial_cubes`` (one per game) above 1, is then given those
    rules (:func:`play_rules`).
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
    initial_cubes = tuple(int(value) for value in initial_cubes)
    if len(initial_cubes) not in (0, games) or any(
        value < 1 or value & (value - 1) for value in initial_cubes
    ):
        raise InvalidMatch("initial cubes: one power of two per game of the match")
    crawford_off = length > 1 and CRAWFORD_OFF.search(mat_text) is not None
    if crawford_off or any(value > 1 for value in initial_cubes):
        play_rules(gnubg, crawford_rule=not crawford_off, initial_cubes=initial_cubes)
        _check_imported(gnubg, length, games)


def _check_imported(gnubg: Any, length: int, games: int) -> None:
    try:
        imported = gnubg.match(analysis=0, statistics=0)
    except Exception:
        raise InvalidMatch("GNU Backgammon could not import the match") from None
    if imported["match-info"]["match-length"] != length or len(imported["games"]) != games:
        raise InvalidMatch("GNU Backgammon could not import the match")


def play_rules(gnubg: Any, *, crawford_rule: bool, initial_cubes: tuple[int, ...]) -> None:
    """Tell the program the rules the match was played by, which ``import mat`` loses.

    The importer gives every match the Crawford rule and every game a cube of 1 (gnubg's
    ``ImportMat``). The program keeps both in each game's first record, which no command
    changes, and writes them in its own SGF: the match is saved as SGF, each game's root
    node given the rules as played (``RU`` without ``Crawford`` / ``CrawfordGame``, ``CV``
    the cube the automatic doubles left), and loaded back.

    The ``gnubg`` Python package (it has no ``cfevaluate``) crashes loading any SGF, so
    there such a match is refused with the reason rather than analysed under rules it was
    not played by.
    """
    if not hasattr(gnubg, "cfevaluate"):
        raise InvalidMatch(
            "the gnubg Python package cannot be given the rules this match was played by "
            "(no Crawford rule, automatic doubles); Debian's gnubg program can"
        )
    handle, path = tempfile.mkstemp(suffix=".sgf", prefix="crawford-")
    os.close(handle)
    try:
        gnubg.command(f'save match "{path}"')
        # The program writes names as the .mat gave them: any bytes go back as they came.
        with open(path, encoding="utf-8", errors="surrogateescape") as file:
            sgf = file.read()
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as file:
            file.write(with_rules(sgf, crawford_rule=crawford_rule, initial_cubes=initial_cubes))
        gnubg.command(f'load match "{path}"')
    finally:
        os.unlink(path)


def with_rules(sgf: str, *, crawford_rule: bool, initial_cubes: tuple[int, ...]) -> str:
    """``sgf`` (the program's SGF of a match) with each game's root node set to the rules.

    A game's root node is the first node of each top-level ``(;`` tree; its properties are
    rewritten, nothing else is touched (values may hold any character, so the text is
    scanned with property values skipped, never searched).
    """
    out: list[str] = []
    game, last = 0, 0
    for start, end in root_nodes(sgf):
        node = sgf[start:end]
        properties = [(name, values) for name, values in SGF_PROPERTY.findall(node)]
        cube = initial_cubes[game] if game < len(initial_cubes) else 1
        spacing = node[len(node.rstrip()) :]
        out += [sgf[last:start], root_node(properties, crawford_rule, cube), spacing]
        game, last = game + 1, end
    out.append(sgf[last:])
    return "".join(out)


def root_node(properties: list[tuple[str, str]], crawford_rule: bool, cube: int) -> str:
    kept = []
    for name, values in properties:
        if name == "CV":
            continue
        if name == "RU" and not crawford_rule:
            rules = [
                r for r in values.strip()[1:-1].split(":") if r not in ("Crawford", "CrawfordGame")
            ]
            if not rules:
                continue
            values = "[" + ":".join(rules) + "]"
        kept.append(name + values)
    if cube > 1:
        kept.append(f"CV[{cube}]")
    return "".join(kept)


def root_nodes(sgf: str) -> list[tuple[int, int]]:
    """The spans of the properties of each game's root node (after its ``(;``)."""
    spans: list[tuple[int, int]] = []
    depth, index, start = 0, 0, None
    while index < len(sgf):
        char = sgf[index]
        if char == "[":
            index = value_end(sgf, index)
            continue
        if start is not None and char in ";()":
            spans.append((start, index))
            start = None
        if char == "(":
            depth += 1
            if depth == 1 and sgf.startswith("(;", index):
                start = index + 2
                index += 1
        elif char == ")":
            depth -= 1
        index += 1
    return spans


def value_end(sgf: str, index: int) -> int:
    """The index after the property value opening at ``index`` (``\\`` escapes a char)."""
    index += 1
    while index < len(sgf) and sgf[index] != "]":
        index += 2 if sgf[index] == "\\" else 1
    return index + 1


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
    gnubg: Any,
    request: dict[str, Any],
    progress: Callable[[int, int], None] = lambda d, t: None,
    *,
    evaluate: Callable[[dict[str, Any]], dict[str, Any]],
) -> dict[str, Any]:
    """``analyse match``, done a game at a time (``analyse game`` on each game gives the
    same figures as ``analyse match``) so that ``progress(actions done, actions in all)``
    can be told after each game.

    The request's ``initial_cubes`` and the .mat's Crawford tag set the rules as played
    (:func:`import_mat`); each of its ``match_doubles`` is answered with the doubler's
    cubeful MWC in its position, from ``evaluate`` (the server's ``evaluate`` request),
    last, as setting a position replaces the match in the program."""
    plies = int(request["plies"])
    if not 0 <= plies <= 4:
        raise InvalidMatch(f"analysis depth must be 0 to 4 plies, not {plies}")
    import_mat(gnubg, request["mat"], request.get("initial_cubes", ()))
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
    answer = {
        "raw": raw,
        "settings": settings,
        "actions": [
            game_actions(gnubg, info, raw["games"], index) for index in range(len(raw["games"]))
        ],
        "crawford_games": [
            crawford_game(info, raw["games"], index) for index in range(len(raw["games"]))
        ],
        "beavers": beavers_allowed(request["mat"], info["match-length"]),
        "ratings": {
            "match": stats_ratings(gnubg, raw.get("stats")),
            "games": [stats_ratings(gnubg, game.get("stats")) for game in raw["games"]],
        },
    }
    answer["match_doubles"] = [
        {**double, "mwc": match_winning_chance(evaluate, double, plies)}
        for double in request.get("match_doubles", ())
    ]
    return answer


def match_winning_chance(
    evaluate: Callable[[dict[str, Any]], dict[str, Any]], double: dict[str, Any], plies: int
) -> float:
    """The doubler's cubeful MWC in the position of his match double (he is on roll)."""
    evaluated = evaluate({"gnubg_id": double["gnubg_id"], "plies": plies})
    if evaluated["mwc"] is None or evaluated["player_on_roll"] != double["player"]:
        raise InvalidMatch(f"{double['gnubg_id']!r} is not a match double's position")
    return float(evaluated["mwc"])


def beavers_allowed(mat_text: str, length: int) -> bool:
    """Whether the money session in ``mat_text`` allows beavers: unless its ``Beaver`` tag
    says "Off" (GNU Backgammon allows them by default)."""
    off = re.search(r'\[\s*Beavers?\s+"Off"', mat_text, re.IGNORECASE)
    return length == 0 and off is None


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
        "cube": game["info"].get("initial-cube", 1),
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
    offers = 0  # the open double, then its beaver, then the raccoon
    enriched = []
    # The cube info changes only with a take: priced once per cube and doubler.
    prices: dict[tuple[int, int, int], dict[str, Any]] = {}
    last_mover: int | None = None
    for action in game["game"]:
        player = PLAYERS.index(action["player"])
        kind = action["action"]
        if kind == "double" and offers:
            # GNU Backgammon records a beaver (and a raccoon) as a double of the doubled
            # player, which its analysis leaves alone (not a normal double).
            kind = "beaver" if offers == 1 else "raccoon"
        # Neither the raccoon nor the take that settles a beaver is a decision it analyses.
        analysed = kind != "raccoon" and not (kind == "take" and offers > 1)
        responding = kind in ("take", "drop", "beaver")
        doubler = 1 - player if responding else player
        state = (base["cube"], base["cubeowner"], doubler)
        if state not in prices:
            prices[state] = priced(gnubg, {**base, "move": doubler})
        cube_info = prices[state]
        analysis = (doubled or {}).get("analysis", {}) if responding else action.get("analysis", {})
        board_id = (doubled or {}).get("board") if responding else action.get("board")
        if kind == "move":
            if player == last_mover and board_id is not None:
                board_id = other_side(gnubg, board_id)
            last_mover = player
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
        if "nd-cubeful-eq" in analysis and analysed:
            entry["cube"] = cube_equities(gnubg, analysis, cube_info)
        if kind == "move":
            entry.update(checker_play(gnubg, action, board_id, cube_info))
        enriched.append(entry)
        if kind == "double":
            doubled = action
        if kind in ("double", "beaver", "raccoon"):
            offers += 1
        elif kind == "take":
            # A double is the taker's cube; a beaver or raccoon stays with the last doubler.
            owner = player if offers == 1 else 1 - player
            base.update(cube=base["cube"] * 2**offers, cubeowner=owner)
            doubled, offers = None, 0
    return enriched


def other_side(gnubg: Any, board_id: str) -> str:
    """The Position ID of ``board_id``'s board seen by the other player.

    ``gnubg.match`` gives each move the board as the player the previous move passed the
    turn to sees it. Where the import gives one player two rolls in a row (a file's last
    row read twice, as after Backgammon Galaxy's ``Losses`` row), the second one's board is
    the opponent's view; the program's analysis and export replay it from the mover's.
    """
    opponent, mover = gnubg.positionfromid(board_id)
    return str(gnubg.positionid((mover, opponent)))


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
    """No double, double/take and double/pass for the doubler, in EMG and (match play) MWC,
    and ``gammon``: whether the doubler can still win a gammon (the no-double evaluation's
    gammon chance above 0), which tells "too good" from "double, pass".

    As in GNU Backgammon's ``FindCubeDecision``: double/pass is +1.0 normalised equity,
    the match play values are the analysis's MWC turned into equity for the current cube.
    """
    no_double, double_take = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"]
    gammon = analysis["probs"][1] > 0.0
    if cube_info["matchto"] == 0:
        return {"emg": [no_double, double_take, 1.0], "mwc": None, "gammon": gammon}
    return {
        "emg": [
            gnubg.mwc2eq(no_double, cube_info),
            gnubg.mwc2eq(double_take, cube_info),
            1.0,
        ],
        "mwc": [no_double, double_take, gnubg.eq2mwc(1.0, cube_info)],
        "gammon": gammon,
    }


def checker_play(
    gnubg: Any, action: dict[str, Any], board_id: str | None, cube_info: dict[str, Any]
) -> dict[str, Any]:
    board = gnubg.positionfromid(board_id) if board_id else None
    move = action.get("move") or ()
    played = gnubg.movetupletostring(move, board) if move and board else ""
    moves = action.get("analysis", {}).get("moves", ())
    # A roll can have hundreds of candidates: the program's functions are looked up once.
    written = gnubg.movetupletostring if board else lambda _move, _board: ""
    to_mwc = gnubg.eq2mwc if cube_info["matchto"] > 0 else lambda _equity, _info: None
    candidates = [
        {
            "move": written(candidate["move"], board),
            "emg": candidate["score"],
            "mwc": to_mwc(candidate["score"], cube_info),
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
