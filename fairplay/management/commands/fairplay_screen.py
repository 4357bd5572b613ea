"""python manage.py fairplay_screen [--json] FILES...: engine-fit figures of match files from
any site, per player, with the verdict the live engine-assistance detector would give."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import DomainError
from fairplay.screening import screen, screen_file


class Command(BaseCommand):
    help = (
        "Analyse .mat files at the server's depth and judge each player in them as the "
        "engine-assistance detector would."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path, help=".mat files, in playing order")
        parser.add_argument(
            "--json", action="store_true", help="One JSON object a line for each player."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        screened = []
        for path in options["files"]:
            try:
                content = path.read_bytes()
            except OSError as error:
                raise CommandError(f"{path}: {error.strerror}") from None
            try:
                found = screen_file(path.name, content)
            except DomainError as error:
                raise CommandError(str(error)) from None
            if found.refused:
                self.stderr.write(f"{path}: refused: {found.refused}")
            screened.append(found)
        players = screen(screened)
        for player in players:
            if options["json"]:
                self.stdout.write(json.dumps(player.to_dict(), ensure_ascii=False))
            else:
                self.stdout.write(_line(player.to_dict()))
        if not any(file.result for file in screened):
            raise CommandError("No file could be analysed.")


def _line(row: dict[str, Any]) -> str:
    agreement = "-" if row["agreement"] is None else f"{row['agreement']:.1%}"
    pr = "-" if row["pr"] is None else f"{row['pr']:.2f}"
    verdict = "FLAGGED: " + "; ".join(row["signs"]) if row["flagged"] else "not flagged"
    return (
        f"{row['player']}: {row['matches']} matches, {row['decisions']} decisions, "
        f"agreement {agreement} of {row['checker_plays']} unforced checker plays, PR {pr}; "
        f"{row['windows_assessed']} of {row['windows']} windows assessed; {verdict}"
    )
