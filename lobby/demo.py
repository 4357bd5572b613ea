"""Demo data for ``load_demo``: a few finished matches for the home page's results, a
running knockout, an open Sit & Go, a main event and its satellite, and a few open seeks in
the play lobby. Made through the services, as players and an organizer would; safe to run
twice (nothing is made again for an organizer who has tournaments, or players who have
posted seeks or finished matches)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from accounts.models import User
from analysis.engine import Strength
from backgammon.moves import legal_plays
from backgammon.notation import format_play
from backgammon.turns import Phase
from lobby.models import Seek
from lobby.seeks import SeekTerms, seek_post
from matches.actions import PlayerAction
from matches.creation import match_accept, match_challenge
from matches.models import ClockKind, ClockSettings, Match, MatchKind, MatchStatus
from matches.play import action_submit
from matches.state import current_game, game_state
from tournaments import scheduler, services
from tournaments.models import Tournament
from tournaments.settings.general import TournamentSettings

# The computer's strength for a demo player of at least this rating, strongest first.
DEMO_STRENGTHS = [
    (1750.0, Strength.ADVANCED),
    (1550.0, Strength.INTERMEDIATE),
    (1420.0, Strength.CASUAL),
    (0.0, Strength.BEGINNER),
]


def demo_strength(rating: float) -> str:
    """The strength the computer plays a demo player of ``rating`` at."""
    return next(strength.value for floor, strength in DEMO_STRENGTHS if rating >= floor)


# A club evening's time control: 15 seconds a move and two minutes in reserve.
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

    def started(tournament: Tournament, entrants: Sequence[User]) -> None:
        for player in entrants:
            services.entry_register(tournament_id=tournament.pk, user=player)
        services.tournament_start(tournament_id=tournament.pk, user=organizer)
        scheduler.matches_start(tournament_id=tournament.pk)

    weekly = opened(
        name="Crawford Weekly Knockout",
        format="knockout",
        max_entrants=32,
        buy_in_cents=1000,
        fee_cents=65,
        round_lengths=(3, 5, 7),
        show_up_seconds=3600,
    )
    started(weekly, players[:12])

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

    # A club night's 5/3/3: main matches to 5, the losers' flight, consolation and final to 3.
    club_night = opened(
        name="Tuesday Club Night 5/3/3",
        format="double_elimination",
        max_entrants=32,
        buy_in_cents=500,
        fee_cents=35,
        round_lengths=(5,),
        flight_lengths={"losers": (3,), "consolation": (3,), "final": (3,)},
        consolation_through_round=2,
        prize_table={"main": (5000, 2500, 1000), "consolation": (1000, 500)},
        show_up_seconds=3600,
    )
    started(club_night, players[12:18])

    league = opened(
        name="Winter League Swiss",
        format="swiss",
        rounds=5,
        top_cut=4,
        buy_in_cents=0,
        fee_cents=0,
        round_lengths=(7,),
        flight_lengths={"final": (9, 11)},
    )
    for player in players[:5]:
        services.entry_register(tournament_id=league.pk, user=player)

    # A swing: the CPP rises with every game each player plays; the last holding chips wins.
    swing = opened(
        name="Thursday Swing",
        format="swing",
        starting_chips=1000,
        cpp_levels=(10, 20, 30),
        cpp_step=10,
        buy_in_cents=500,
        fee_cents=35,
        prize_table={"main": (6000, 3000, 1000)},
        show_up_seconds=3600,
    )
    started(swing, players[5:10])
    return 7


# (challenger, opponent, points): short matches played out so the home page has results.
DEMO_MATCHES = [(0, 5, 1), (2, 7, 3), (9, 1, 1), (4, 11, 3)]
DEMO_DICE_SEED = "c0ffee" * 10 + "c0de"


def load_demo_results(*, players: Sequence[User]) -> int:
    """Play the demo matches out, each player taking the first legal play; returns how many.

    Safe to run twice: nothing is played while a demo player has a finished match.
    """
    if Match.objects.filter(
        status=MatchStatus.FINISHED, player_0__in=players, tournament_id__isnull=True
    ).exists():
        return 0
    for first, second, points in DEMO_MATCHES:
        challenger, opponent = players[first], players[second]
        match = match_challenge(challenger=challenger, opponent=opponent, length=points)
        Match.objects.filter(pk=match.pk).update(dice_seed=DEMO_DICE_SEED)
        match_accept(match_id=match.pk, user=opponent)
        _play_out(match.pk)
    return len(DEMO_MATCHES)


def _play_out(match_id: int) -> None:
    """Both players act until the match ends: roll, the first legal play, take doubles."""
    while True:
        match = Match.objects.get(pk=match_id)
        if match.status != MatchStatus.PLAYING:
            return
        state = game_state(current_game(match))
        seat = state.to_act
        assert seat is not None
        play = None
        if state.phase is Phase.MOVE:
            assert state.dice is not None
            play = format_play(legal_plays(state.board, state.dice)[0], state.board)
        action = {
            Phase.ROLL: PlayerAction.ROLL,
            Phase.MOVE: PlayerAction.PLAY,
            Phase.DOUBLED: PlayerAction.TAKE,
            Phase.RESIGNATION: PlayerAction.ACCEPT_RESIGN,
        }[state.phase]
        action_submit(match_id=match_id, user=match.player(seat), action=action, play=play)


# Players of the demo who are in no running match: (username, what they offer).
DEMO_SEEKS = [
    ("nikos", SeekTerms(length=5)),
    ("olga", SeekTerms(kind=MatchKind.MONEY, length=0, stake_cents=50)),
    (
        "pablo",
        SeekTerms(
            length=3,
            stake_cents=500,
            clock=ClockSettings(kind=ClockKind.MOVE, move_seconds=20, reserve_seconds=180),
            min_rating=1300,
            max_rating=1600,
        ),
    ),
]


@transaction.atomic
def load_demo_seeks(*, players: Sequence[User]) -> int:
    """Post the demo seeks unless their players have posted any; returns how many."""
    by_name = {player.username: player for player in players}
    seekers = [by_name[name] for name, _ in DEMO_SEEKS if name in by_name]
    if Seek.objects.filter(creator__in=seekers).exists():
        return 0
    for name, terms in DEMO_SEEKS:
        if name in by_name:
            seek_post(user=by_name[name], terms=terms)
    return len(seekers)
