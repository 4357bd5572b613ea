"""Demo tournaments for ``load_demo``: a running knockout, an open Sit & Go, a main event
and its satellite. Made through the services, like an organizer would; safe to run twice
(a tournament of the same name by the same organizer is left as it is)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from accounts.models import User
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import TournamentSettings

QUICK_CLOCK = {"kind": "move", "move_seconds": 15, "reserve_seconds": 120}


@transaction.atomic
def load_demo_tournaments(*, organizer: User, players: Sequence[User]) -> int:
    """Create the demo tournaments that are missing; returns how many were created."""
    if Tournament.objects.filter(organizer=organizer).exists():
        return 0

    def opened(**settings: object) -> Tournament:
        created = services.tournament_create(
            organizer=organizer,
            settings=TournamentSettings(clock=QUICK_CLOCK, **settings),  # type: ignore[arg-type]
        )
        return services.tournament_open(tournament_id=created.pk, user=organizer)

    weekly = opened(
        name="Crawford Weekly Knockout",
        format="knockout",
        max_entrants=32,
        buy_in_cents=1000,
        fee_cents=65,
        round_lengths=(3, 5, 7),
        show_up_seconds=3600,
    )
    for player in players[:12]:
        services.entry_register(tournament_id=weekly.pk, user=player)
    services.tournament_start(tournament_id=weekly.pk, user=organizer)
    services.matches_start(tournament_id=weekly.pk)

    sit_and_go = opened(
        name="Friday Sit & Go",
        format="sit_and_go",
        seats=8,
        buy_in_cents=500,
        fee_cents=35,
        round_lengths=(3, 5),
        seeding="random",
    )
    for player in players[12:15]:
        services.entry_register(tournament_id=sit_and_go.pk, user=player)

    main_event = opened(
        name="Sunday Main Event",
        format="knockout",
        max_entrants=64,
        buy_in_cents=5000,
        fee_cents=250,
        round_lengths=(5, 7, 9, 11),
    )
    services.entry_register(tournament_id=main_event.pk, user=players[0])
    opened(
        name="Sunday Main Event satellite",
        format="satellite",
        target_id=main_event.pk,
        max_entrants=16,
        buy_in_cents=1000,
        fee_cents=65,
        round_lengths=(3,),
    )
    return 4
