"""Recompute every roll of a match from its seed and compare it with the log.

Anyone can check a finished match: the seed's SHA-256 must equal the commitment shown
when the match started, and every opening roll and roll in the action log must be the
dice the seed gives for that game and roll number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matches import dice as fair_dice
from matches.models import Action, ActionKind, Match, MatchStatus


@dataclass
class DiceReport:
    checked: int = 0
    commitment_ok: bool = False
    revealed: bool = False
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.revealed and self.commitment_ok and not self.mismatches

    @property
    def summary(self) -> str:
        if not self.revealed:
            return "The seed is revealed when the match ends; the commitment is shown now."
        if not self.commitment_ok:
            return "The seed does not match the commitment shown at the start."
        if self.mismatches:
            return f"{len(self.mismatches)} of {self.checked} rolls do not match the seed."
        return f"All rolls verified: {self.checked} rolls match the seed."


def verify_match_dice(match: Match, *, reveal: bool = False) -> DiceReport:
    """Check the log against the seed; ``reveal`` lets staff check a running match."""
    report = DiceReport(revealed=reveal or match.status == MatchStatus.FINISHED)
    if not report.revealed:
        return report
    report.commitment_ok = fair_dice.commitment(match.dice_seed) == match.dice_commitment
    opening_throws: dict[int, list[tuple[int, int]]] = {}
    openings_seen: dict[int, int] = {}
    rolls_seen: dict[int, int] = {}
    actions = Action.objects.filter(
        match=match, kind__in=[ActionKind.OPENING, ActionKind.ROLL]
    ).order_by("seq")
    for action in actions:
        game_number = action.game_number
        assert game_number is not None
        if action.kind == ActionKind.OPENING:
            throws = opening_throws.setdefault(
                game_number, fair_dice.opening_throws(match.dice_seed, game_number)
            )
            index = openings_seen.get(game_number, 0)
            openings_seen[game_number] = index + 1
            expected = throws[index] if index < len(throws) else None
            label = f"game {game_number} opening throw {index + 1}"
        else:
            number = rolls_seen.get(game_number, 0) + 1
            rolls_seen[game_number] = number
            expected = fair_dice.turn_dice(match.dice_seed, game_number, number)
            label = f"game {game_number} roll {number}"
        report.checked += 1
        logged = (int(action.dice[0]), int(action.dice[1])) if len(action.dice) == 2 else None
        if logged != expected:
            gives = f"{expected[0]}{expected[1]}" if expected else "no such throw"
            report.mismatches.append(
                f"{label} (action {action.seq}): the log says {action.dice or 'nothing'}, "
                f"the seed gives {gives}"
            )
    return report
