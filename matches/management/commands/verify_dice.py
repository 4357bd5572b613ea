"""python manage.py verify_dice <match id>: recompute every roll and compare with the log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Match
from matches.verification import verify_match_dice


class Command(BaseCommand):
    help = "Check a match's dice against its revealed seed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument(
            "--reveal", action="store_true", help="Check a match that has not ended (staff only)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"There is no match {options['match_id']}")
        report = verify_match_dice(match, reveal=options["reveal"])
        for line in report.mismatches:
            self.stdout.write(line)
        if not report.ok:
            raise CommandError(report.summary)
        self.stdout.write(self.style.SUCCESS(report.summary))
