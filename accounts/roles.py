"""Roles are groups with permissions: player, organizer and staff.

A person's *role* is the highest group they belong to; it is what the navigation
shows. Views check permissions, never role names.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractUser, AnonymousUser

if TYPE_CHECKING:
    from django.apps.registry import Apps


class Role(StrEnum):
    GUEST = "guest"
    PLAYER = "player"
    ORGANIZER = "organizer"
    STAFF = "staff"


# "app_label.codename" for each role; ``sync_roles`` applies them after every migrate.
ROLE_PERMISSIONS: dict[Role, tuple[str, ...]] = {
    Role.PLAYER: ("accounts.play_games",),
    Role.ORGANIZER: ("accounts.play_games", "accounts.organize_tournaments"),
    Role.STAFF: (
        "accounts.play_games",
        "accounts.handle_disputes",
        "accounts.adjust_wallets",
        "accounts.view_user",
        "accounts.view_profile",
        "accounts.change_profile",
        "disputes.view_dispute",
        "disputes.view_auditentry",
    ),
}

ROLE_ORDER = (Role.STAFF, Role.ORGANIZER, Role.PLAYER)


def role_of(user: AbstractUser | AnonymousUser | None) -> Role:
    if user is None or not user.is_authenticated:
        return Role.GUEST
    if user.is_superuser:
        return Role.STAFF
    names = {group.name for group in user.groups.all()}
    for role in ROLE_ORDER:
        if role.value in names:
            return role
    return Role.GUEST


def sync_roles(apps: Apps) -> None:
    """Make each role's group hold exactly its permissions."""
    from django.contrib.auth.management import create_permissions

    # Permissions of apps migrated after accounts do not exist yet at this point.
    for app_config in apps.get_app_configs():
        app_config.models_module = True  # type: ignore[assignment]
        create_permissions(app_config, apps=apps, verbosity=0)
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for role, names in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=role.value)
        wanted = []
        for name in names:
            app_label, codename = name.split(".")
            wanted.extend(
                permission_model.objects.filter(
                    content_type__app_label=app_label, codename=codename
                )
            )
        group.permissions.set(wanted)
