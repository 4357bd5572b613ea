"""Engine assistance over a set of analysed match files: each player's figures and the
verdict the live detector would have given had those matches been played here.

Plain values in, frozen dataclasses out, no database. The judgement itself is passed in
(``judge``): :func:`fairplay.detectors.engine_use.judged_window`, the live detector's.

Terms (others as in :mod:`fairplay.detectors.engine_fit`):

* *player*: a name as the files write it, compared without regard to case; a file whose
  player has no name gives that seat a player of its own.
* *windows*: after each of a player's matches, in the order the files are given, the last
  ``size`` of them: what the live detector reads after each analysis. A player is
  *flagged* when any of their windows is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairplay.detectors.engine_fit import MatchFigures, Window, figures_of

Judge = Callable[[Sequence[MatchFigures]], Window]


@dataclass(frozen=True)
class PlayerScreen:
    player: str
    files: tuple[str, ...]
    matches: tuple[MatchFigures, ...]
    windows: tuple[Window, ...]

    @property
    def decisions(self) -> int:
        return sum(match.decisions for match in self.matches)

    @property
    def checker_plays(self) -> int:
        return sum(match.checker_plays for match in self.matches)

    @property
    def agreement(self) -> float | None:
        plays = self.checker_plays
        return sum(m.checker_best for m in self.matches) / plays if plays else None

    @property
    def pr(self) -> float | None:
        decisions = self.decisions
        return 500 * sum(m.error for m in self.matches) / decisions if decisions else None

    @property
    def flagged_windows(self) -> tuple[Window, ...]:
        return tuple(window for window in self.windows if window.flagged)

    @property
    def flagged(self) -> bool:
        return bool(self.flagged_windows)

    @property
    def lowest_z(self) -> float | None:
        found = [w.z for w in self.windows if w.assessed and w.z is not None]
        return min(found) if found else None

    def to_dict(self) -> dict[str, Any]:
        assessed = [window for window in self.windows if window.assessed]
        flagged = self.flagged_windows
        last = self.windows[-1]
        return {
            "player": self.player,
            "matches": len(self.matches),
            "files": list(self.files),
            "decisions": self.decisions,
            "checker_plays": self.checker_plays,
            "agreement": _rounded(self.agreement, 4),
            "pr": _rounded(self.pr, 2),
            "flagged": self.flagged,
            "windows": len(self.windows),
            "windows_assessed": len(assessed),
            "windows_flagged": len(flagged),
            "lowest_z": _rounded(self.lowest_z, 2),
            "signs": flagged[0].signs() if flagged else [],
            "rating": round(last.rating, 1),
            "fit": last.fit.to_dict(),
            "thresholds": last.thresholds.to_dict(),
        }


def screen_players(
    results: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    judge: Judge,
    size: int,
    plies: int,
) -> list[PlayerScreen]:
    """Each player of ``results`` (file name, analysis result as :mod:`reviews.results`
    gives it), in the order first met, with every window ``judge`` judged."""
    names: dict[str, str] = {}
    files: dict[str, list[str]] = {}
    matches: dict[str, list[MatchFigures]] = {}
    for number, (filename, result) in enumerate(results, start=1):
        written = [str(name) for name in result["match"]["players"]]
        keys = [
            name.casefold() if name.strip() else f"\x00{number}:{seat}"
            for seat, name in enumerate(written)
        ]
        for seat, key in enumerate(keys):
            names.setdefault(key, written[seat] or f"(no name, seat {seat + 1} of {filename})")
            files.setdefault(key, []).append(filename)
            matches.setdefault(key, []).append(
                figures_of(
                    result,
                    seat,
                    match_id=number,
                    finished_at="",
                    opponent=written[1 - seat],
                    plies=plies,
                )
            )
    return [
        PlayerScreen(
            player=names[key],
            files=tuple(files[key]),
            matches=tuple(played),
            windows=tuple(
                judge(played[max(0, end - size) : end]) for end in range(1, len(played) + 1)
            ),
        )
        for key, played in matches.items()
    ]


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
