"""Load the demo data: an organizer, a staff member and sixteen rated players.

Safe to run again: existing demo users are left as they are.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.roles import Role
from accounts.services import user_create

DEMO_PASSWORD = "crawford-demo"

# (username, display name, country, rating, experience): a spread from beginners to
# strong club players, so ratings lists and seeding look like a real room.
DEMO_PLAYERS = [
    ("alice", "Alice Marchetti", "IT", 1872.4, 2450),
    ("bruno", "Bruno Keller", "CH", 1811.9, 1980),
    ("chloe", "Chloé Durand", "FR", 1764.0, 1630),
    ("dmitri", "Dmitri Volkov", "EE", 1723.5, 1400),
    ("elif", "Elif Şahin", "TR", 1688.2, 1210),
    ("farid", "Farid Haddad", "LB", 1652.7, 990),
    ("greta", "Greta Lindqvist", "SE", 1611.3, 870),
    ("hiro", "Hiroshi Tanaka", "JP", 1587.6, 760),
    ("ines", "Inês Costa", "PT", 1549.1, 540),
    ("jonas", "Jonas Becker", "DE", 1522.8, 430),
    ("kate", "Kate O'Brien", "IE", 1500.0, 0),
    ("liam", "Liam Walsh", "GB", 1476.4, 210),
    ("maya", "Maya Cohen", "IL", 1453.9, 180),
    ("nikos", "Nikos Papadakis", "GR", 1421.2, 150),
    ("olga", "Olga Nowak", "PL", 1388.5, 95),
    ("pablo", "Pablo Ruiz", "ES", 1342.0, 60),
]

DEMO_ORGANIZER = ("orla", "Orla Byrne", "IE")
DEMO_STAFF = ("sam", "Sam Okafor", "NG")


class Command(BaseCommand):
    help = "Create the demo users (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        created = 0
        people = [
            (name, display, country, Role.PLAYER, rating, exp)
            for name, display, country, rating, exp in DEMO_PLAYERS
        ]
        people.append((*DEMO_ORGANIZER, Role.ORGANIZER, 1500.0, 0))
        people.append((*DEMO_STAFF, Role.STAFF, 1500.0, 0))
        for username, display_name, country, role, rating, experience in people:
            if User.objects.filter(username=username).exists():
                continue
            user_create(
                username=username,
                password=DEMO_PASSWORD,
                display_name=display_name,
                country=country,
                role=role,
                rating=rating,
                experience=experience,
            )
            created += 1
        self.stdout.write(
            f"Demo data: {created} users created, {len(people) - created} already there."
        )
        self.stdout.write(
            f"Log in as {DEMO_ORGANIZER[0]} (organizer), {DEMO_STAFF[0]} (staff) or any of "
            f"{', '.join(p[0] for p in DEMO_PLAYERS[:4])}, ... (players); "
            f"the password is {DEMO_PASSWORD!r}."
        )
