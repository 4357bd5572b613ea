from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
    # The plumbing's rows (deferred tasks, beats) were made when this package was part of
    # ``config``: the label keeps their tables and migration history as every site has them.
    label = "config"
    verbose_name = "Plumbing"
