from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "reviews"
    verbose_name = "Match analysis"

    def ready(self) -> None:
        from core import bus
        from matches.events import MatchFinished
        from reviews.services import on_match_finished

        bus.subscribe(MatchFinished, on_match_finished)
