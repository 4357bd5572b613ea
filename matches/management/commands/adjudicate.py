"""python manage.py adjudicate <GNUBG-ID> [--stake-cents N | --pot-cents N] [--plies 2]
[--jacoby] [--beavers] [--rollout TRIALS [--rollout-plies P] [--seed S]] --json: how GNU
Backgammon would settle a position, and optionally its rollout beside the evaluation."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from analysis.cli import adjudicate_report
from analysis.engine import ALLOWED_PLIES, EngineError, InvalidPositionError
from analysis.rollout import ROLLOUT_PLIES, RolloutSettings, rollout
from matches.engine import engine


class Command(BaseCommand):
    help = "Evaluate a GNUBG ID (PositionID:MatchID) and print the adjudication."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("gnubg_id", help="PositionID:MatchID, as GNU Backgammon writes it")
        money = parser.add_mutually_exclusive_group()
        money.add_argument("--stake-cents", type=int, help="money play: cents per point")
        money.add_argument(
            "--pot-cents", type=int, help="a match played for a pot of this many cents"
        )
        parser.add_argument("--plies", type=int, default=2, choices=ALLOWED_PLIES)
        parser.add_argument(
            "--jacoby", action="store_true", help="money play under the Jacoby rule"
        )
        parser.add_argument("--beavers", action="store_true", help="money play with beavers")
        parser.add_argument(
            "--rollout", type=int, metavar="TRIALS", help="also roll the position out"
        )
        parser.add_argument("--rollout-plies", type=int, default=0, choices=ROLLOUT_PLIES)
        parser.add_argument("--seed", type=int, default=1, help="the rollout's dice seed")
        parser.add_argument("--json", action="store_true", help="one line of JSON for programs")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = adjudicate_report(
                options["gnubg_id"],
                stake_cents=options["stake_cents"],
                pot_cents=options["pot_cents"],
                plies=options["plies"],
                jacoby=options["jacoby"],
                beavers=options["beavers"],
                engine=engine(),
            )
            if options["rollout"] is not None:
                settings = RolloutSettings(
                    trials=options["rollout"], plies=options["rollout_plies"], seed=options["seed"]
                )
                report["rollout"] = rollout(options["gnubg_id"], settings).to_dict()
        except (InvalidPositionError, ValueError, EngineError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(report, indent=2 if not options["json"] else None))
