"""Load the demo data: an organizer, a staff member and sixteen rated players.

The sixteen are played by the computer at a strength that follows their rating
(``lobby.demo.demo_strength``): they accept challenges and their seeks are taken at once,
so a newcomer always has someone to play. Every account made here is marked as the demo
loader's, which the shared-accounts detector passes over (one machine tries them all).

Each player has the play-money grant, a rating history of a few dozen rated results
between the demo players, and a few money games and a real-money deposit in the wallet.

Safe to run again: existing demo users are left as they are, every ledger movement has
a fixed key, and the rated results are played only while no demo result exists.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from accounts import ledger
from accounts.models import MadeBy, Profile, RatingChange, User
from accounts.money import winner_commission_cents
from accounts.ratings import upset_probability
from accounts.roles import Role
from accounts.services import rating_record_match, user_create
from lobby.demo import (
    demo_strength,
    load_demo_results,
    load_demo_seeks,
    load_demo_tournaments,
)
from tournaments.models import Tournament, TournamentState

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

DEMO_RATED_RESULTS = 60
DEMO_SEED = 20241122
# (loser, winner, stake per point in cents, points won): FUN money games already settled.
DEMO_MONEY_GAMES = [
    ("bruno", "alice", 500, 2),
    ("alice", "chloe", 500, 1),
    ("dmitri", "alice", 1000, 4),
    ("kate", "liam", 200, 1),
    ("liam", "kate", 200, 2),
]
DEMO_DEPOSITS = [("alice", 5000, "Demo deposit: bank transfer"), ("bruno", 2500, "Demo deposit")]


class Command(BaseCommand):
    help = "Create the demo users (safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        # The demo's scripted matches are not sent to GNU Backgammon: on the embedded
        # set-up each analysis would run in a thread of this command, keep it from ending
        # for minutes and write beside it. A player asks for one on the match's page.
        with override_settings(ANALYSE_FINISHED_MATCHES=False):
            self._load()

    def _load(self) -> None:
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
                made_by=MadeBy.DEMO,
                bot_strength=demo_strength(rating) if role is Role.PLAYER else "",
            )
            created += 1
        self._marked(people)
        self.stdout.write(
            f"Demo data: {created} users created, {len(people) - created} already there."
        )
        users = {
            user.username: user for user in User.objects.filter(username__in=[p[0] for p in people])
        }
        self._wallets(users)
        played = self._rated_results([users[p[0]] for p in DEMO_PLAYERS])
        if played:
            self.stdout.write(f"Demo data: {played} rated results played for the rating charts.")
        played = load_demo_results(players=[users[p[0]] for p in DEMO_PLAYERS])
        if played:
            self.stdout.write(f"Demo data: {played} matches played out for the recent results.")
        created_tournaments = load_demo_tournaments(
            organizer=users[DEMO_ORGANIZER[0]], players=[users[p[0]] for p in DEMO_PLAYERS]
        )
        if created_tournaments:
            running = Tournament.objects.filter(state=TournamentState.RUNNING).count()
            self.stdout.write(
                f"Demo data: {created_tournaments} tournaments, {running} of them running."
            )
        posted = load_demo_seeks(players=[users[p[0]] for p in DEMO_PLAYERS])
        if posted:
            self.stdout.write(f"Demo data: {posted} open seeks in the play lobby.")
        self.stdout.write(
            f"Log in with the password {DEMO_PASSWORD!r} as {DEMO_ORGANIZER[0]} (organizer), "
            f"{DEMO_STAFF[0]} (staff) or one of the {len(DEMO_PLAYERS)} players:\n  "
            + " ".join(p[0] for p in DEMO_PLAYERS)
        )

    @transaction.atomic
    def _marked(self, people: list[tuple[str, str, str, Role, float, int]]) -> None:
        """Demo users made before the marks existed get them too."""
        Profile.objects.filter(user__username__in=[p[0] for p in people]).update(
            made_by=MadeBy.DEMO
        )
        for username, _, _, role, rating, _ in people:
            if role is Role.PLAYER:
                Profile.objects.filter(user__username=username, bot_strength="").update(
                    bot_strength=demo_strength(rating)
                )

    @transaction.atomic
    def _wallets(self, users: dict[str, User]) -> None:
        """Grants for demo users made before wallets existed, then a little history."""
        if settings.CRAWFORD_FUN_GRANT_CENTS > 0:
            for user in users.values():
                ledger.grant(user=user, key=f"grant:{user.pk}")
        staff = users[DEMO_STAFF[0]]
        for username, cents, reason in DEMO_DEPOSITS:
            ledger.deposit(
                user=users[username],
                currency="REAL",
                amount_cents=cents,
                reason=reason,
                staff=staff,
                key=f"demo:deposit:{username}",
            )
        for number, (loser, winner, stake, points) in enumerate(DEMO_MONEY_GAMES):
            won = stake * points
            ledger.transfer_between_players(
                payer=users[loser],
                payee=users[winner],
                currency="FUN",
                amount_cents=won,
                commission_cents=winner_commission_cents(won),
                key=f"demo:money-game:{number}",
            )

    @transaction.atomic
    def _rated_results(self, players: list[User]) -> int:
        """Rated matches between demo players over the last weeks, favourites winning more."""
        if RatingChange.objects.filter(user__in=players).exists():
            return 0
        rng = random.Random(DEMO_SEED)
        start = timezone.now() - timedelta(days=DEMO_RATED_RESULTS)
        for number in range(DEMO_RATED_RESULTS):
            first, second = rng.sample(players, 2)
            first.profile.refresh_from_db()
            second.profile.refresh_from_db()
            length = rng.choice([3, 5, 5, 7, 9, 11])
            gap = first.profile.rating - second.profile.rating
            upset = upset_probability(gap, length)
            favourite, underdog = (first, second) if gap >= 0 else (second, first)
            winner, loser = (underdog, favourite) if rng.random() < upset else (favourite, underdog)
            rating_record_match(
                winner=winner,
                loser=loser,
                match_length=length,
                match_id=None,
                played_at=start + timedelta(days=number, hours=rng.randint(9, 22)),
            )
        return DEMO_RATED_RESULTS
