"""The text of a .mat file read into entries: the layer under `backgammon.matfile.parse_mat`.

It reads lines and columns and knows nothing of the rules: whether a play is legal, whose
turn it is or what the cube is worth is `backgammon.matfile`'s to judge. What it forgives is
what the programs that write .mat files do differently, as GNU Backgammon's ``import mat``
forgives it:

* a UTF-8 byte order mark, Windows line ends, tabs (stops every 8 columns), blank lines
  anywhere, trailing spaces or none;
* before the `` N point match`` line (``0 point match``: a money session), header tags
  ``; [Key "Value"]`` in any order, other comment lines (``;`` or ``#``) and anything else;
* a `` Game n`` line with more after it (Backgammon Studio writes some), and any number
  there: games are numbered again when written;
* rows numbered or not, a number with nothing after it (``24)``, or ``24`` alone, which
  GNU Backgammon passes over), one column or two;
* a roll with nothing after it, or ``Cannot Move``, ``Can't move`` or ``????`` (eXtreme
  Gammon's mark for a roll its player resigned after) where the play would be;
* ``Doubles => n`` (the value may be left out), ``Beavers => n``, ``Raccoons => n``,
  ``Takes``, ``Drops``;
* ``Wins n point``, ``Wins n points``, ``Wins n point(s)``, each maybe followed by ``and the
  match``, and Backgammon Galaxy's ``Losses n points`` in the loser's column (n is read as
  written; `backgammon.matfile` scores a resigned game as GNU Backgammon does, at the
  level resigned times the cube, which is not n when no resignation at the cube scores n);
* an empty player's name on a score line (Backgammon Galaxy writes one for a closed
  account): it becomes ``Player 0`` or ``Player 1`` by its column.

It refuses, naming the line, a number no analysis can take: a match longer than
``MAX_LENGTH`` (64 points, the longest GNU Backgammon analyses), a score of a match that
was already over, and a score, cube or result larger than a GNU Backgammon Match ID holds.
Digits past those are never turned into a number.

Terms:

* *row*: a line of a game after its score line; it holds up to two *entries*.
* *entry*: what one player did, in their column: player 0's on the left, player 1's on the
  right. Of two entries on a row the first is player 0's; a lone entry is player 1's when it
  starts past column 15, as GNU Backgammon splits a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from backgammon.errors import BackgammonError
from backgammon.match import MAX_MATCH_LENGTH
from backgammon.notation import MOVE_TOKEN

MAX_LENGTH = 64
"""The longest match read. GNU Backgammon analyses none longer (``MAXSCORE`` in its
matchequity.h; a 65-point file fails its analysis), though a Match ID and the models would
hold a match of ``MAX_MATCH_LENGTH`` points."""
MAX_SCORE = MAX_MATCH_LENGTH
"""The largest score a Match ID holds (15 bits): a money session's running total too."""
MAX_CUBE = 1 << 15
"""The largest cube a Match ID holds (its logarithm in 4 bits)."""
MAX_POINTS = 3 * MAX_CUBE
"""The most a game scores: a backgammon at the largest cube."""
_SHOWN_DIGITS = 12

_TAB_STOP = 8
_RIGHT_COLUMN_FROM = 15
"""A lone entry starting further right than this is in player 1's column."""

_TAG = re.compile(r'^\s*;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_COMMENT = re.compile(r"^\s*[;#]")
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\b", re.IGNORECASE)
_SCORE = re.compile(r"^\s*([^:]*?)\s*:\s*(\d+)\s+([^:]*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*\d+(?:\)|\s*$)")
_ENTRY = re.compile(
    r"(?P<dice>[1-6]{2}):"
    r"(?:[ \t]*(?P<none>Cannot[ \t]+Move|Can[’']?t[ \t]+Move|\?+)"
    r"|(?P<play>(?:[ \t]+" + MOVE_TOKEN.pattern + r")*))"
    r"|\b(?P<cube>Doubles?|Beavers?|Raccoons?)\b(?:[ \t]*=>[ \t]*(?P<value>\d+))?"
    r"|\b(?P<answer>Takes?|Drops?)\b"
    r"|\b(?P<result>Wins?|Losses|Loses)[ \t]+(?P<points>\d+)[ \t]+points?\b(?:\(s\))?"
    r"(?:[ \t]+and[ \t]+the[ \t]+match\b)?",
    re.IGNORECASE,
)


class EntryKind(Enum):
    ROLL = "roll"
    DOUBLE = "double"
    BEAVER = "beaver"
    RACCOON = "raccoon"
    TAKE = "take"
    DROP = "drop"
    WIN = "win"
    LOSS = "loss"
    """Backgammon Galaxy's: the player of this column lost ``number`` points."""


_WORDS = (
    ("doubl", EntryKind.DOUBLE),
    ("beaver", EntryKind.BEAVER),
    ("raccoon", EntryKind.RACCOON),
    ("take", EntryKind.TAKE),
    ("drop", EntryKind.DROP),
    ("win", EntryKind.WIN),
    ("los", EntryKind.LOSS),
)


@dataclass(frozen=True, slots=True)
class Entry:
    """What ``player`` did, as written on line ``line`` (counted from 1).

    ``dice`` and ``play`` for a roll (``play`` is "" when none is written); ``number`` is the
    cube value offered (None when left out), or the points won or lost.
    """

    line: int
    player: int
    kind: EntryKind
    dice: tuple[int, int] | None = None
    play: str = ""
    number: int | None = None


@dataclass(frozen=True, slots=True)
class GameText:
    """One game as written: the names and score of its score line, and its entries."""

    names: tuple[str, str]
    score: tuple[int, int]
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class MatText:
    """A whole file as written: the header's tags in order, the match length, the games."""

    tags: tuple[tuple[str, str], ...]
    length: int
    games: tuple[GameText, ...]


def read_mat_text(text: str) -> MatText:
    """The entries of a .mat file; `BackgammonError` names the line that cannot be read."""
    lines = [line.expandtabs(_TAB_STOP) for line in text.removeprefix("\ufeff").splitlines()]
    tags, length, index = _header(lines)
    games: list[GameText] = []
    while index < len(lines):
        if _GAME.match(lines[index]):
            game, index = _game(lines, index, length)
            games.append(game)
        else:
            index += 1  # text between the header and the first game is nobody's business
    if not games:
        raise BackgammonError("no game in the file")
    return MatText(tuple(tags), length, tuple(games))


def _header(lines: list[str]) -> tuple[list[tuple[str, str]], int, int]:
    """The tags, the match length and the index of the line after the length."""
    tags: list[tuple[str, str]] = []
    for index, line in enumerate(lines):
        if tag := _TAG.match(line):
            tags.append((tag.group(1), tag.group(2)))
        elif length := _LENGTH.match(line):
            most = f"a match is {MAX_LENGTH} points at most (the longest GNU Backgammon analyses)"
            return tags, _number(length.group(1), index + 1, most, MAX_LENGTH), index + 1
        elif _GAME.match(line):
            raise _refused(index + 1, 'no "N point match" line before the first game')
    raise BackgammonError('no "N point match" line: this is not a .mat file')


def _game(lines: list[str], start: int, length: int) -> tuple[GameText, int]:
    """The game whose ``Game n`` line is at index ``start``, and the index after it."""
    index = start + 1
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines) or _GAME.match(lines[index]):
        raise _refused(start + 1, "the game has no score line, like 'Alice : 0   Bob : 0'")
    names, score = _score(lines[index], index + 1, length)
    entries: list[Entry] = []
    index += 1
    while index < len(lines) and not _GAME.match(lines[index]):
        entries += _row(lines[index], index + 1)
        index += 1
    return GameText(names, score, tuple(entries)), index


def _score(line: str, number: int, length: int) -> tuple[tuple[str, str], tuple[int, int]]:
    found = _SCORE.match(line)
    if not found:
        raise _refused(number, f"{line.strip()!r} is not a score line, like 'Alice : 0   Bob : 0'")
    left, left_digits, right, right_digits = found.groups()
    left, right = left or _placeholder(0, right), right or _placeholder(1, left)
    most = f"a score is {MAX_SCORE} at most (what a GNU Backgammon Match ID holds)"
    score = (
        _number(left_digits, number, most, MAX_SCORE),
        _number(right_digits, number, most, MAX_SCORE),
    )
    for name, points in zip((left, right), score, strict=True):
        if length and points >= length:
            raise _refused(
                number,
                f"{name} has {points} points of the {length}-point match:"
                " it was over before this game",
            )
    return (left, right), score


def _placeholder(player: int, other: str) -> str:
    """The name of a player written with none: GNU Backgammon's ``Player 0`` or ``Player 1``
    (what its Snowie import gives a nameless player), told apart from the other's name."""
    name = f"Player {player}"
    return f"{name} (2)" if name == other else name


def _row(line: str, number: int) -> list[Entry]:
    if _COMMENT.match(line):
        return []
    numbered = _NUMBERED.match(line)
    start = numbered.end() if numbered else 0
    found = list(_ENTRY.finditer(line, start))
    unread = _ENTRY.sub(" ", line[start:]).strip()
    if unread:
        raise _refused(number, f"{unread!r} is not a roll, a cube action or a result")
    if len(found) > 2:
        raise _refused(number, "a row holds two entries at most, one for each player")
    return [
        _entry(
            match,
            number,
            position if len(found) == 2 else int(match.start() > _RIGHT_COLUMN_FROM),
        )
        for position, match in enumerate(found)
    ]


def _entry(match: re.Match[str], line: int, player: int) -> Entry:
    if dice := match.group("dice"):
        play = "" if match.group("none") else " ".join(match.group("play").split())
        return Entry(line, player, EntryKind.ROLL, (int(dice[0]), int(dice[1])), play)
    word = (match.group("cube") or match.group("answer") or match.group("result")).lower()
    kind = next(kind for start, kind in _WORDS if word.startswith(start))
    if value := match.group("value"):
        most = f"a cube is {MAX_CUBE} at most (what a GNU Backgammon Match ID holds)"
        return Entry(line, player, kind, number=_number(value, line, most, MAX_CUBE))
    if points := match.group("points"):
        most = f"a game scores {MAX_POINTS} points at most (a backgammon at the largest cube)"
        return Entry(line, player, kind, number=_number(points, line, most, MAX_POINTS))
    return Entry(line, player, kind)


def _number(digits: str, line: int, most_in_words: str, most: int) -> int:
    """``digits`` as a number of at most ``most``; too many digits are refused unread."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(most)) or int(significant) > most:
        shown = significant[:_SHOWN_DIGITS] + ("…" if len(significant) > _SHOWN_DIGITS else "")
        raise _refused(line, f"{most_in_words}, not {shown}")
    return int(significant)


def _refused(line: int, reason: str) -> BackgammonError:
    return BackgammonError(f"line {line}: {reason}")
