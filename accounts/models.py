"""Users and player profiles.

A *profile* holds what backgammon players know each other by: the display name,
country, FIBS-style rating (everyone starts at 1500.0) and experience (the sum of
the lengths of the rated matches played), plus the board preferences every match
page follows.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django_countries.fields import CountryField

from accounts.roles import role_of

STARTING_RATING = 1500.0


class User(AbstractUser):
    """Crawford's own user model, so accounts can grow without a painful swap later."""

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
        swappable = "AUTH_USER_MODEL"

    @property
    def role(self) -> str:
        """The highest role held: "staff", "organizer", "player" or "guest"."""
        return role_of(self).value


class CheckerColour(models.TextChoices):
    WHITE = "white", "White"
    BLACK = "black", "Black"
    RED = "red", "Red"
    BLUE = "blue", "Blue"


class Profile(models.Model):
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=40)
    country = CountryField(blank=True)
    rating = models.FloatField(default=STARTING_RATING)
    experience = models.PositiveIntegerField(
        default=0, help_text="Sum of the lengths of the rated matches played."
    )
    checker_colour = models.CharField(
        max_length=8, choices=CheckerColour.choices, default=CheckerColour.WHITE
    )
    highlight_legal_moves = models.BooleanField(
        default=True, help_text="Show where a checker may go when you pick it up."
    )
    automatic_forced_moves = models.BooleanField(
        default=False, help_text="Play a move for me when it is the only legal one."
    )
    use_doubling_cube = models.BooleanField(
        default=True, help_text="Play with the doubling cube in money sessions I start."
    )

    class Meta:
        permissions = [
            ("play_games", "Can play matches and enter tournaments"),
            ("organize_tournaments", "Can create and run tournaments"),
            ("handle_disputes", "Can handle disputes"),
            ("adjust_wallets", "Can see any wallet and adjust it"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rating__gte=0), name="profile_rating_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name
