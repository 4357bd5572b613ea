"""Writes for accounts: creating players, staff and organizers, and their profiles."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction

from accounts.models import STARTING_RATING, Profile, User
from accounts.roles import Role


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    email: str = "",
    display_name: str = "",
    country: str = "",
    role: Role = Role.PLAYER,
    rating: float = STARTING_RATING,
    experience: int = 0,
) -> User:
    """Create a user with a profile and a role; staff also get the admin site."""
    user = User.objects.create_user(
        username=username,
        password=password,
        email=email,
        is_staff=role is Role.STAFF,
    )
    Profile.objects.create(
        user=user,
        display_name=display_name or username,
        country=country,
        rating=rating,
        experience=experience,
    )
    user.groups.add(Group.objects.get(name=role.value))
    return user


def profile_update(*, profile: Profile, **changes: object) -> Profile:
    """Save the given profile fields; unknown names are a programming error."""
    editable = {
        "display_name",
        "country",
        "checker_colour",
        "highlight_legal_moves",
        "automatic_forced_moves",
        "use_doubling_cube",
    }
    unknown = set(changes) - editable
    if unknown:
        raise TypeError(f"not editable profile fields: {sorted(unknown)}")
    for name, value in changes.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save(update_fields=list(changes))
    return profile
