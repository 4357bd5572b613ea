from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        from fairplay import subscribers

        subscribers.connect()
