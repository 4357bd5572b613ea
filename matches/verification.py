"""Recompute every roll of a match from its seed and compare it with the log.

Anyone can check a finished match: the seed's SHA-256 must equal the commitment shown
when the match started, and every opening roll and roll in the action log must be the
dice the seed gives for that game and roll number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches import dice as fair_dice
from matches.models import Action, ActionKind, Match, MatchStatus


@dataclass(frozen=True)
class LoggedRoll:
    """One throw of the dice as the log has it: an opening throw or a roll of a game."""

    seq: int
    game: int
    number: int  # 0 for an opening throw, else the roll's number in its game
    opening: bool
    seat: int | None
    dice: str


@dataclass
class DiceReport:
    checked: int = 0
    commitment_ok: bool = False
    revealed: bool = False
    mismatches: list[str] = field(default_factory=list)
    rolls: list[LoggedRoll] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.revealed and self.commitment_ok and not self.mismatches

    @property
    def summary(self) -> str:
        if not self.revealed:
            return _("The seed is revealed when the match ends; the commitment is shown now.")
        if not self.commitment_ok:
            return _("The seed does not match the commitment shown at the start.")
        if self.mismatches:
            return ngettext(
                "%(wrong)s of %(checked)s roll does not match the seed.",
                "%(wrong)s of %(checked)s rolls do not match the seed.",
                self.checked,
            ) % {"wrong": len(self.mismatches), "checked": self.checked}
        return ngettext(
            "All rolls verified: %(checked)s roll matches the seed.",
            "All rolls verified: %(checked)s rolls match the seed.",
            self.checked,
        ) % {"checked": self.checked}


def logged_rolls(match: Match) -> list[LoggedRoll]:
    """Every throw of the dice in the log, in order, numbered per game as the seed numbers
    them (opening throws are roll 0 of their game)."""
    rolls: list[LoggedRoll] = []
    seen: dict[int, int] = {}
    actions = Action.objects.filter(
        match=match, kind__in=[ActionKind.OPENING, ActionKind.ROLL]
    ).order_by("seq")
    for action in actions:
        game = action.game_number
        assert game is not None
        opening = action.kind == ActionKind.OPENING
        number = 0 if opening else seen.get(game, 0) + 1
        if not opening:
            seen[game] = number
        rolls.append(LoggedRoll(action.seq, game, number, opening, action.seat, action.dice))
    return rolls


def verify_match_dice(match: Match, *, reveal: bool = False) -> DiceReport:
    """Check the log against the seed; ``reveal`` lets staff check a running match."""
    report = DiceReport(revealed=reveal or match.status == MatchStatus.FINISHED)
    report.rolls = logged_rolls(match)
    if not report.revealed:
        return report
    report.commitment_ok = fair_dice.commitment(match.dice_seed) == match.dice_commitment
    openings_seen: dict[int, int] = {}
    for roll in report.rolls:
        if roll.opening:
            index = openings_seen.get(roll.game, 0)
            openings_seen[roll.game] = index + 1
            throws = fair_dice.opening_throws(match.dice_seed, roll.game)
            expected = throws[index] if index < len(throws) else None
            label = _("game %(game)s opening throw %(throw)s") % {
                "game": roll.game,
                "throw": index + 1,
            }
        else:
            expected = fair_dice.turn_dice(match.dice_seed, roll.game, roll.number)
            label = _("game %(game)s roll %(roll)s") % {"game": roll.game, "roll": roll.number}
        report.checked += 1
        logged = (int(roll.dice[0]), int(roll.dice[1])) if len(roll.dice) == 2 else None
        if logged != expected:
            gives = f"{expected[0]}{expected[1]}" if expected else _("no such throw")
            report.mismatches.append(
                _("%(roll)s (action %(seq)s): the log says %(logged)s, the seed gives %(gives)s")
                % {
                    "roll": label,
                    "seq": roll.seq,
                    "logged": roll.dice or _("nothing"),
                    "gives": gives,
                }
            )
    return report
