from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Sign-ups and log-ins keep their sightings (fair play's multiple-account checks).
        from accounts import device  # noqa: F401 - connects the user_logged_in receiver

        # Like Django's own permissions, the role groups are (re)made after every migrate
        # and after a test flush, so they always match accounts.roles.
        post_migrate.connect(_sync_roles, sender=self)


def _sync_roles(sender: AppConfig, apps: Any = None, **kwargs: Any) -> None:
    from django.apps import apps as global_apps

    from accounts.roles import sync_roles

    # A test flush sends the signal without the migration state's registry.
    sync_roles(apps or global_apps)
