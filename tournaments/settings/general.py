"""An organizer's settings for a tournament, checked as a whole.

``TournamentSettings`` is everything an organizer chooses; ``check_settings`` turns it into
the model's fields or raises ``TournamentInvalid`` naming every field that is wrong, each
with its own sentence, so the form can show all of them beside their fields at once. The
format itself is asked (``tournaments.formats``) whether it can be run as set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import DomainError
from matches.clock import check_clock
from matches.models import ClockSettings
from tournaments.errors import TournamentInvalid, format_refused
from tournaments.formats.base import FormatError
from tournaments.formats.satellite import TargetTournament, plan_satellite
from tournaments.models import Tournament, TournamentFormat, TournamentState
from tournaments.selectors import seated_count
from tournaments.settings import fields, swing_fields
from tournaments.settings.by_format import format_values
from tournaments.settings.entry_limits import limit_values
from tournaments.settings.pure import tournament_format
from tournaments.settings.refusals import Refusals, Refuse

# A Sit & Go created without a number of seats starts when eight have sat down.
DEFAULT_SIT_AND_GO_SEATS = 8
EDITABLE_STATES = (TournamentState.DRAFT, TournamentState.REGISTRATION)


@dataclass(frozen=True)
class TournamentSettings:
    """Everything an organizer chooses, each declared in ``tournaments.settings.fields``;
    checked as a whole by ``check_settings``."""

    name: str
    format: str
    seats: int | None = None
    max_entrants: int | None = None
    buy_in_cents: int = fields.BUY_IN_CENTS.default
    fee_cents: int = fields.FEE_CENTS.default
    currency: str = fields.CURRENCY.default
    seeding: str = fields.SEEDING.default
    round_lengths: tuple[int, ...] = (5,)
    clock: dict[str, Any] | None = None
    target_id: int | None = None
    abandon_policy: str = fields.ABANDON_POLICY.default
    show_up_seconds: int = fields.SHOW_UP_SECONDS.default
    round_minutes: int | None = None
    starts_at: datetime | None = None
    check_in_minutes: int | None = None
    # the formats' own settings (``tournaments.settings.by_format``)
    flight_lengths: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    flight_clocks: Mapping[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    grand_final_reset: bool = fields.GRAND_FINAL_RESET.default
    rounds: int | None = None
    top_cut: int | None = None
    group_size: int | None = None
    advance_per_group: int | None = None
    consolation_through_round: int | None = None
    last_chance_reenters_at: int | None = None
    last_chance_entry: str = fields.LAST_CHANCE_ENTRY.default
    prize_table: Mapping[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    # swing (``tournaments.settings.swing``)
    starting_chips: int | None = None
    cpp_levels: tuple[int, ...] = ()
    cpp_start: int | None = None
    cpp_step: int | None = None
    cpp_raise: str = ""
    cpp_raise_minutes: int | None = None
    jacoby: bool = swing_fields.JACOBY.default
    beavers: bool = swing_fields.BEAVERS.default
    swing_match_length: int = swing_fields.SWING_MATCH_LENGTH.default
    # divisions and entry limits (``tournaments.settings.entry_limits``)
    division: str = ""
    min_rating: int | None = None
    max_rating: int | None = None
    max_rated_matches: int | None = None


SETTING_FIELDS = tuple(TournamentSettings.__dataclass_fields__)


def settings_of(tournament: Tournament) -> TournamentSettings:
    return TournamentSettings(
        name=tournament.name,
        format=tournament.format,
        seats=tournament.seats,
        max_entrants=tournament.max_entrants,
        buy_in_cents=tournament.buy_in_cents,
        fee_cents=tournament.fee_cents,
        currency=tournament.currency,
        seeding=tournament.seeding,
        round_lengths=tuple(tournament.round_lengths),
        clock=dict(tournament.clock) or None,
        target_id=tournament.target_id,
        abandon_policy=tournament.abandon_policy,
        show_up_seconds=tournament.show_up_seconds,
        round_minutes=tournament.round_minutes,
        starts_at=tournament.starts_at,
        check_in_minutes=tournament.check_in_minutes,
        flight_lengths={name: tuple(v) for name, v in tournament.flight_lengths.items()},
        flight_clocks=dict(tournament.flight_clocks),
        grand_final_reset=tournament.grand_final_reset,
        rounds=tournament.rounds,
        top_cut=tournament.top_cut,
        group_size=tournament.group_size,
        advance_per_group=tournament.advance_per_group,
        consolation_through_round=(
            None if (through := tournament.consolation_through_round) is None else through + 1
        ),
        last_chance_reenters_at=tournament.last_chance_reenters_at,
        last_chance_entry=tournament.last_chance_entry,
        prize_table={name: tuple(v) for name, v in tournament.prize_table.items()},
        starting_chips=tournament.starting_chips,
        cpp_levels=tuple(tournament.cpp_levels),
        cpp_step=tournament.cpp_step,
        cpp_raise=tournament.cpp_raise,
        cpp_raise_minutes=tournament.cpp_raise_minutes,
        jacoby=tournament.jacoby,
        beavers=tournament.beavers,
        swing_match_length=tournament.swing_match_length,
        division=tournament.division,
        min_rating=tournament.min_rating,
        max_rating=tournament.max_rating,
        max_rated_matches=tournament.max_rated_matches,
    )


def check_settings(
    settings: TournamentSettings, *, organizer: User, tournament: Tournament | None
) -> dict[str, Any]:
    """The model fields for ``settings`` of ``organizer``'s tournament, or TournamentInvalid
    with every field's problem."""
    refuse = Refusals()
    if settings.format == TournamentFormat.SIT_AND_GO and settings.seats is None:
        settings = dataclasses.replace(settings, seats=DEFAULT_SIT_AND_GO_SEATS)
    name = settings.name.strip()
    if not name:
        refuse("name", _("Give the tournament a name."))
    _check_choices(settings, refuse)
    _check_money(settings, refuse)
    _check_lengths(settings.round_lengths, refuse)
    seats, max_entrants = _check_field(settings, refuse)
    clock = _check_clock(settings.clock, refuse)
    _check_times(settings, tournament, refuse)
    target_id = settings.target_id
    if settings.format == TournamentFormat.SATELLITE:
        _check_target(settings, max_entrants, organizer, tournament, refuse)
    else:
        target_id = None
    if tournament is not None and tournament.pk is not None:
        _check_paid(settings, tournament, max_entrants, refuse)
    formats_own = format_values(settings, max_entrants, refuse, _check_clock)
    limits = limit_values(settings, refuse)
    if not refuse.errors:
        _check_format(settings, formats_own, refuse)
    if refuse.errors:
        raise TournamentInvalid(refuse.errors)
    return {
        **formats_own,
        **limits,
        "name": name,
        "format": settings.format,
        "seats": seats,
        "max_entrants": max_entrants,
        "buy_in_cents": settings.buy_in_cents,
        "fee_cents": settings.fee_cents,
        "currency": settings.currency,
        "seeding": settings.seeding,
        "round_lengths": list(settings.round_lengths),
        "clock": clock,
        "target_id": target_id,
        "abandon_policy": settings.abandon_policy,
        "show_up_seconds": settings.show_up_seconds,
        "round_minutes": settings.round_minutes,
        "starts_at": settings.starts_at,
        "check_in_minutes": settings.check_in_minutes,
    }


def _check_choices(settings: TournamentSettings, refuse: Refuse) -> None:
    if settings.format not in fields.FORMAT.values:
        named = ", ".join(str(label) for _value, label in fields.FORMAT.choices)
        refuse("format", _("Choose one of: %(formats)s.") % {"formats": named})
    if settings.currency not in fields.CURRENCY.values:
        refuse("currency", str(fields.CURRENCY.refusal))
    if settings.seeding not in fields.SEEDING.values:
        refuse("seeding", _("Seed by rating or by a random draw."))
    if settings.abandon_policy not in fields.ABANDON_POLICY.values:
        refuse("abandon_policy", _("Choose the engine or a forfeit."))


def _check_money(settings: TournamentSettings, refuse: Refuse) -> None:
    if settings.buy_in_cents < 0:
        refuse("buy_in_cents", _("The buy-in cannot be negative."))
    if settings.fee_cents < 0:
        refuse("fee_cents", _("The fee cannot be negative."))
    if settings.buy_in_cents == 0 and settings.fee_cents > 0:
        refuse("fee_cents", _("A free tournament cannot charge a fee."))


def _check_lengths(lengths: tuple[int, ...], refuse: Refuse) -> None:
    if not lengths:
        refuse("round_lengths", _("Give at least one match length: the length of the final."))
    low, high = fields.ROUND_LENGTHS.limits
    wrong = next((n for n in lengths if not fields.ROUND_LENGTHS.allows(n)), None)
    if wrong is not None:
        refuse(
            "round_lengths",
            _("Each match is %(low)s to %(high)s points, not %(wrong)s.")
            % {"low": low, "high": high, "wrong": wrong},
        )


def _check_field(settings: TournamentSettings, refuse: Refuse) -> tuple[int | None, int | None]:
    """The seats (Sit & Go only) and the most players the tournament takes."""
    if _takes_seats(settings):
        seats = settings.seats
        if seats is None or not fields.SEATS.allows(seats):
            low, high = fields.SEATS.limits
            refuse(
                "seats",
                (
                    _("A Sit & Go that starts when full has %(low)s to %(high)s seats.")
                    if settings.format == TournamentFormat.SIT_AND_GO
                    else _("A swing that starts when full has %(low)s to %(high)s seats.")
                )
                % {"low": low, "high": high},
            )
        return seats, seats
    max_entrants = settings.max_entrants
    if max_entrants is not None and not fields.MAX_ENTRANTS.allows(max_entrants):
        low, high = fields.MAX_ENTRANTS.limits
        refuse(
            "max_entrants",
            _("Allow %(low)s to %(high)s players, or leave it empty.")
            % {"low": low, "high": number_format(high, force_grouping=True)},
        )
    return None, max_entrants


def _takes_seats(settings: TournamentSettings) -> bool:
    """A Sit & Go, or a swing given seats: it starts when they are all taken."""
    return settings.format == TournamentFormat.SIT_AND_GO or (
        settings.format == TournamentFormat.SWING and settings.seats is not None
    )


def _check_times(
    settings: TournamentSettings, tournament: Tournament | None, refuse: Refuse
) -> None:
    if not fields.SHOW_UP_SECONDS.allows(settings.show_up_seconds):
        refuse("show_up_seconds", str(fields.SHOW_UP_SECONDS.refusal))
    if settings.round_minutes is not None and not fields.ROUND_MINUTES.allows(
        settings.round_minutes
    ):
        refuse("round_minutes", str(fields.ROUND_MINUTES.refusal))
    if settings.check_in_minutes is not None:
        if settings.starts_at is None:
            refuse("check_in_minutes", _("A check-in needs a start time."))
        elif not fields.CHECK_IN_MINUTES.allows(settings.check_in_minutes):
            refuse("check_in_minutes", str(fields.CHECK_IN_MINUTES.refusal))
    moved_start = tournament is None or tournament.starts_at != settings.starts_at
    if settings.starts_at is not None and settings.starts_at <= timezone.now() and moved_start:
        refuse("starts_at", _("Pick a start time in the future."))


def _check_paid(
    settings: TournamentSettings,
    tournament: Tournament,
    max_entrants: int | None,
    refuse: Refuse,
) -> None:
    """Once players have paid, what they paid for cannot change under them."""
    seated = seated_count(tournament)
    if not seated:
        return
    for field in ("format", "currency", "buy_in_cents", "fee_cents"):
        if getattr(settings, field) != getattr(tournament, field):
            refuse(field, _("Players have paid already: this cannot change now."))
    if max_entrants is not None and max_entrants < seated:
        field = "seats" if _takes_seats(settings) else "max_entrants"
        refuse(field, _("%(seated)s players are entered already.") % {"seated": seated})


def _check_clock(clock: dict[str, Any] | None, refuse: Refuse) -> dict[str, Any]:
    """The time control as stored; the rules of clocks are ``matches.clock``'s."""
    try:
        settings = ClockSettings.from_json(clock)
        check_clock(settings)
    except (DomainError, TypeError) as refusal:
        refuse("clock", str(refusal) if isinstance(refusal, DomainError) else _("Unknown setting."))
        return dict(clock or {})
    return dataclasses.asdict(settings)


def _check_target(
    settings: TournamentSettings,
    max_entrants: int | None,
    organizer: User,
    tournament: Tournament | None,
    refuse: Refuse,
) -> None:
    if settings.target_id is None:
        refuse("target", _("Choose the tournament whose seats this satellite gives away."))
        return
    target = Tournament.objects.filter(pk=settings.target_id).first()
    if target is None or (tournament is not None and target.pk == tournament.pk):
        refuse("target", _("There is no such tournament to win seats in."))
        return
    if target.organizer_id != organizer.pk and not organizer.is_superuser:
        refuse(
            "target",
            _("%(name)s is not yours: a satellite gives seats in your own.")
            % {"name": target.name},
        )
        return
    if target.state not in EDITABLE_STATES:
        refuse(
            "target",
            _("%(name)s is %(state)s.")
            % {"name": target.name, "state": target.get_state_display().lower()},
        )
    if target.format == TournamentFormat.SATELLITE:
        refuse("target", _("A satellite cannot give seats in another satellite."))
    if target.currency != settings.currency:
        refuse(
            "currency",
            _("%(name)s is played in %(currency)s; use the same currency.")
            % {"name": target.name, "currency": target.currency},
        )
    if max_entrants is None:
        refuse("max_entrants", _("A satellite needs a maximum number of players."))
        return
    try:
        plan_satellite(
            prize_pool_cents=max_entrants * settings.buy_in_cents,
            target=TargetTournament(target.name, target.buy_in_cents),
        )
    except FormatError as refusal:
        refuse("buy_in_cents", format_refused(refusal))


# Where the pure format's refusal is shown, by format.
FORMAT_FIELD: dict[str, str] = {
    TournamentFormat.SIT_AND_GO: "seats",
    TournamentFormat.SWISS: "rounds",
    TournamentFormat.ROUND_ROBIN: "group_size",
}


def _check_format(
    settings: TournamentSettings, formats_own: dict[str, Any], refuse: Refuse
) -> None:
    """Ask the pure format whether it can be run as set (prize table, lengths)."""
    if settings.format in (TournamentFormat.SATELLITE, TournamentFormat.SWING):
        return
    probe = Tournament(
        format=settings.format,
        seats=settings.seats,
        round_lengths=list(settings.round_lengths),
        seeding=settings.seeding,
        **formats_own,
    )
    try:
        tournament_format(probe, pool_cents=0)
    except FormatError as refusal:
        refuse(FORMAT_FIELD.get(settings.format, "round_lengths"), format_refused(refusal))
