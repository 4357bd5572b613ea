from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from core import bus
        from matches.events import MatchFinished
        from tournaments.tasks import on_match_finished

        bus.subscribe(MatchFinished, on_match_finished)
