"""python manage.py engine: which GNU Backgammon this site runs, or plainly that there is
none and why (``make run`` prints it before serving)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.engine import analysis_status, engine_status


class Command(BaseCommand):
    help = "Say which GNU Backgammon practice, adjudication and analysis use, or why none."

    def handle(self, *args: Any, **options: Any) -> None:
        play, analysis = engine_status(), analysis_status()
        if play.command is None:
            self.stdout.write(
                f"No GNU Backgammon: {play.reason}.\n"
                "Practice against the computer, adjudication and match analysis are "
                "unavailable; everything else works."
            )
            return
        self.stdout.write(f"GNU Backgammon: {play.command.described}.")
        if not analysis.available:
            self.stdout.write(f"Match analysis is unavailable: {analysis.reason}.")
