"""The pure format (``tournaments.formats``) a tournament's settings make: what the scheduler
draws and advances with, what the reads rank with, and what the settings' checks ask
whether it can be run as set."""

from __future__ import annotations

from tournaments.formats.base import (
    Flight,
    Format,
)
from tournaments.formats.double_elimination import FLIGHT_NAMES as DOUBLE_FLIGHT_NAMES
from tournaments.formats.double_elimination import DoubleElimination, DoubleEliminationOptions
from tournaments.formats.knockout import Knockout, KnockoutOptions, Seeding
from tournaments.formats.last_chance import LastChanceEntry
from tournaments.formats.round_robin import RoundRobin, RoundRobinOptions
from tournaments.formats.satellite import Satellite, SatelliteOptions, TargetTournament
from tournaments.formats.side_flights import (
    SIDE_FLIGHT_NAMES,
    SideFlightOptions,
    WithSideFlights,
)
from tournaments.formats.sit_and_go import SitAndGo, SitAndGoOptions
from tournaments.formats.swiss import Swiss, SwissOptions
from tournaments.formats.triple_elimination import FLIGHT_NAMES as TRIPLE_FLIGHT_NAMES
from tournaments.formats.triple_elimination import TripleElimination, TripleEliminationOptions
from tournaments.models import (
    Tournament,
    TournamentFormat,
)


def tournament_format(tournament: Tournament, *, pool_cents: int) -> Format:
    """The pure format for the tournament's settings; FormatError says what is wrong."""
    lengths = tuple(tournament.round_lengths)
    seeding = Seeding(tournament.seeding)
    if tournament.format == TournamentFormat.SIT_AND_GO:
        assert tournament.seats is not None
        return SitAndGo(SitAndGoOptions(tournament.seats, lengths, seating=seeding))
    if tournament.format == TournamentFormat.SATELLITE:
        target = tournament.target
        assert target is not None
        return Satellite(
            SatelliteOptions(
                lengths,
                TargetTournament(target.name, target.buy_in_cents),
                prize_pool_cents=pool_cents,
                seeding=seeding,
            )
        )
    by_flight = {Flight(name): tuple(values) for name, values in tournament.flight_lengths.items()}
    if tournament.format == TournamentFormat.DOUBLE_ELIMINATION:
        main_lengths = {
            flight: values for flight, values in by_flight.items() if flight in DOUBLE_FLIGHT_NAMES
        }
        return _with_side_flights(
            tournament,
            DoubleElimination(
                DoubleEliminationOptions(
                    {Flight.MAIN: lengths, **main_lengths},
                    seeding,
                    grand_final_reset=tournament.grand_final_reset,
                )
            ),
            by_flight,
        )
    if tournament.format == TournamentFormat.TRIPLE_ELIMINATION:
        flights = {
            flight: values for flight, values in by_flight.items() if flight in TRIPLE_FLIGHT_NAMES
        }
        return TripleElimination(
            TripleEliminationOptions(
                {Flight.MAIN: lengths, **flights},
                seeding,
                grand_final_reset=tournament.grand_final_reset,
            )
        )
    if tournament.format == TournamentFormat.SWISS:
        assert tournament.rounds is not None
        return Swiss(
            SwissOptions(
                tournament.rounds,
                lengths,
                top_cut=tournament.top_cut,
                top_cut_match_lengths=by_flight.get(Flight.FINAL, ()),
            )
        )
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        return RoundRobin(
            RoundRobinOptions(
                lengths,
                group_size=tournament.group_size,
                advance_per_group=tournament.advance_per_group,
                knockout_match_lengths=by_flight.get(Flight.FINAL, ()),
                rounds=tournament.rounds,
                prize_places=_prize_places(tournament, pool_cents),
                ties_shared=tournament.ties_shared,
            )
        )
    return _with_side_flights(tournament, Knockout(KnockoutOptions(lengths, seeding)), by_flight)


def _prize_places(tournament: Tournament, pool_cents: int) -> int | None:
    """The places a truncated round robin's tie waits at: those the main flight pays (None:
    those the published default table pays for the field), or first alone when nothing is
    paid."""
    if pool_cents == 0:
        return 1
    main = tournament.prize_table.get(Flight.MAIN.value)
    return len(main) if main else None


def _with_side_flights(
    tournament: Tournament,
    main: Knockout | DoubleElimination,
    by_flight: dict[Flight, tuple[int, ...]],
) -> Format:
    """``main`` with the consolation and last chance the tournament runs beside it, if any."""
    through = tournament.consolation_through_round
    reenters_at = tournament.last_chance_reenters_at
    if through is None and reenters_at is None:
        return main
    side_lengths = {
        flight: values for flight, values in by_flight.items() if flight in SIDE_FLIGHT_NAMES
    }
    return WithSideFlights(
        main,
        SideFlightOptions(
            through,
            reenters_at,
            side_lengths,
            last_chance_entry=LastChanceEntry(tournament.last_chance_entry),
            draw_seed=tournament.draw_seed,
        ),
    )


# ---------------------------------------------------------------- the draw
