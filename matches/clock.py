"""Clocks and the match's next deadline, as arithmetic on the match row.

Time controls (``matches.models.ClockSettings``): a *move timer* gives ``move_seconds``
afresh each turn, and time beyond it comes off a reserve of ``reserve_seconds`` for the
whole match or session; a *delay* clock leaves each move free for ``delay_seconds`` (a
delay, not an increment: a move made within it costs nothing, and unused seconds are not
kept), then a reserve of ``reserve_seconds`` per point of the match runs down; in a money
session, where there are no points, each game adds ``reserve_seconds`` to what is left
(``add_game_reserve``);
*correspondence* gives ``move_seconds`` (days of them) for each move and no reserve, and as
players come and go, leaving the board starts no reconnection grace.

Terms:

* *reserve*: each player's time bank in milliseconds (``reserve_ms_0/1``). With the move
  timer, the first ``move_seconds`` of every turn are free and only the excess comes off the
  reserve; with the delay clock, ``move_seconds`` holds the delay.
* *turn start*: when the player to act was asked to (``turn_started_at``).
* *running clock*: the clock of the seat the match waits for, while a timed match is
  played past its show-up time and no resignation waits for an answer
  (``running_seat``, the one home of that rule: charging, the deadline and the snapshot
  ask it, and the browser only draws what the snapshot says).
* *clock deadline*: turn start + the free seconds + the player's reserve; past it, the
  player has run out of time.
* *resignation answer*: a player offered a resignation has ``RESIGNATION_ANSWER`` to
  answer it, off the clock; an unanswered offer is declined (``matches.deadlines``) rather
  than costing the match on time.
* *show-up*: a new match between two people waits until ``show_up_by`` for both to come
  to the board and (outside tournaments) for the first move; no clock runs meanwhile.
* *deadline*: the earliest moment the sweeper (``matches.deadlines``) must look at the
  match again: a clock deadline (or a resignation's answer time), a reconnection grace's
  end or the show-up time, whichever comes first. It is a column, indexed, recomputed
  after every change.

Every function expects the match row locked (``matches.state.lock_match``) or new, and
changes only the match object; the caller saves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_stubs_ext import StrOrPromise

from backgammon.turns import GameState, Phase
from core.errors import DomainError
from matches.models import (
    DEFAULT_CLOCK,
    ClockKind,
    ClockSettings,
    Match,
    MatchStatus,
    TimeoutLoses,
)
from matches.state import seat_to_act

DAY = 24 * 3600
# Named time controls offered when challenging; "standard", live tournament play's, is the
# default.
CLOCK_PRESETS: dict[str, tuple[StrOrPromise, ClockSettings]] = {
    "blitz": (
        gettext_lazy("Blitz: 8 s a move, 30 s a point"),
        ClockSettings(kind=ClockKind.DELAY, delay_seconds=8, move_seconds=8, reserve_seconds=30),
    ),
    "standard": (gettext_lazy("Standard: 12 s a move, 2 min a point"), DEFAULT_CLOCK),
    "relaxed": (
        gettext_lazy("Relaxed: 30 s a move, 3 min a point"),
        ClockSettings(kind=ClockKind.DELAY, delay_seconds=30, move_seconds=30, reserve_seconds=180),
    ),
    "correspondence": (
        gettext_lazy("Correspondence: 2 days a move"),
        ClockSettings(kind=ClockKind.CORRESPONDENCE, move_seconds=2 * DAY, reserve_seconds=0),
    ),
}
MAX_MOVE_SECONDS = 600
MAX_RESERVE_SECONDS = 24 * 3600
MIN_CORRESPONDENCE_SECONDS = 3600
MAX_CORRESPONDENCE_SECONDS = 14 * 24 * 3600
RESIGNATION_ANSWER = timedelta(seconds=60)
# Each choice type's values, listed once: a round's start checks its clock for every match.
_CLOCK_KINDS = frozenset(ClockKind.values)
_TIMEOUTS_LOSE = frozenset(TimeoutLoses.values)


def clock_words(settings: ClockSettings, *, money: bool = False) -> str:
    """The time control in players' words: "12 s a move, 2 min a point" (a delay clock; "2
    min a game" in money play, where each game adds the reserve), "12 s a move + 1 min
    reserve" (a move timer), "Correspondence: 2 days a move" or "No clock"."""
    if settings.kind == ClockKind.NONE:
        return _("No clock")
    if settings.kind == ClockKind.CORRESPONDENCE:
        days, rest = divmod(settings.move_seconds, DAY)
        if days and not rest:
            return ngettext(
                "Correspondence: %(days)s day a move", "Correspondence: %(days)s days a move", days
            ) % {"days": days}
        return _("Correspondence: %(time)s a move") % {"time": _duration(settings.move_seconds)}
    values = {
        "move": settings.delay_seconds,
        "reserve": _duration(settings.reserve_seconds),
    }
    if settings.kind == ClockKind.DELAY:
        if money:
            return _("%(move)s s a move, %(reserve)s a game") % values
        return _("%(move)s s a move, %(reserve)s a point") % values
    values["move"] = settings.move_seconds
    return _("%(move)s s a move + %(reserve)s reserve") % values


def match_time_words(
    settings: ClockSettings, *, lengths: Sequence[int], money: bool = False
) -> str:
    """What a time control gives each player in matches of ``lengths`` points (or a money
    session), as the forms' live sentence (``static/js/lib/clock-words.js``) says it: "A
    7-point match: 14 minutes each. The first 12 seconds of every move are free." """
    if settings.kind == ClockKind.NONE:
        return _("No clock: take your time.")
    if settings.kind == ClockKind.CORRESPONDENCE:
        return _("%(move)s for every move.") % {"move": _spelled(settings.move_seconds)}
    if settings.kind == ClockKind.MOVE:
        words = (
            _("%(move)s for every move, then %(reserve)s each in reserve for the whole session.")
            if money
            else _("%(move)s for every move, then %(reserve)s each in reserve for the whole match.")
        )
        return words % {
            "move": _spelled(settings.move_seconds),
            "reserve": _spelled(settings.reserve_seconds),
        }
    if money:
        reserve = _("A money session: %(reserve)s more each game.") % {
            "reserve": _spelled(settings.reserve_seconds)
        }
    else:
        each = [
            (
                ngettext(
                    "an %(length)s-point match: %(reserve)s each",
                    "an %(length)s-point match: %(reserve)s each",
                    length,
                )
                if _said_with_a_vowel(length)
                else ngettext(
                    "a %(length)s-point match: %(reserve)s each",
                    "a %(length)s-point match: %(reserve)s each",
                    length,
                )
            )
            % {"length": length, "reserve": _spelled(settings.reserve_seconds * length)}
            for length in sorted(set(lengths))[:4]
        ]
        reserve = _first_up("; ".join(each)) + "." if each else ""
    free = _("The first %(delay)s of every move are free.") % {
        "delay": _spelled(settings.delay_seconds)
    }
    return f"{reserve} {free}".strip()


def _said_with_a_vowel(number: int) -> bool:
    """Whether the number is spoken from a vowel ("an 8-point match", "an 11-point match"):
    eight, eleven, eighteen, eighty-..., eight hundred ... (Italian elides its article
    before the same numbers: "agli 11 punti")."""
    return number in (11, 18) or str(number).startswith("8")


def _first_up(words: str) -> str:
    return words[:1].upper() + words[1:]


def _spelled(seconds: int) -> str:
    """A duration in whole words: "14 minutes", "1 hour 30 minutes", "2 days"."""
    parts = []
    for size in (DAY, 3600, 60, 1):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(_spelled_unit(size, count))
    return " ".join(parts) or _spelled_unit(1, 0)


def _spelled_unit(size: int, count: int) -> str:
    if size == DAY:
        words = ngettext("%(count)s day", "%(count)s days", count)
    elif size == 3600:
        words = ngettext("%(count)s hour", "%(count)s hours", count)
    elif size == 60:
        words = ngettext("%(count)s minute", "%(count)s minutes", count)
    else:
        words = ngettext("%(count)s second", "%(count)s seconds", count)
    return words % {"count": count}


def _duration(seconds: int) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return _("%(count)s h") % {"count": seconds // 3600}
    if seconds and seconds % 60 == 0:
        return _("%(count)s min") % {"count": seconds // 60}
    return _("%(count)s s") % {"count": seconds}


def check_clock(settings: ClockSettings) -> None:
    """Refuse a time control that cannot be played, saying why."""
    if settings.kind not in _CLOCK_KINDS:
        raise DomainError(
            _("The clock must be one of %(kinds)s") % {"kinds": ", ".join(ClockKind.values)}
        )
    if settings.timeout_loses not in _TIMEOUTS_LOSE:
        raise DomainError(_('A timeout loses "match" or "game"'))
    if settings.kind == ClockKind.NONE:
        return
    if settings.kind == ClockKind.CORRESPONDENCE:
        if not MIN_CORRESPONDENCE_SECONDS <= settings.move_seconds <= MAX_CORRESPONDENCE_SECONDS:
            raise DomainError(_("A correspondence move takes from an hour to 14 days"))
        return
    for seconds in (settings.move_seconds, settings.delay_seconds):
        if not 1 <= seconds <= MAX_MOVE_SECONDS:
            raise DomainError(
                _("The move timer or delay must be 1 to %(most)s seconds")
                % {"most": MAX_MOVE_SECONDS}
            )
    if not 0 <= settings.reserve_seconds <= MAX_RESERVE_SECONDS:
        raise DomainError(
            _("The reserve must be 0 to %(most)s seconds") % {"most": f"{MAX_RESERVE_SECONDS:,}"}
        )


def set_clock(match: Match, settings: ClockSettings) -> None:
    """Give a new match its time control (checked)."""
    check_clock(settings)
    match.clock = settings.kind
    delay = settings.kind == ClockKind.DELAY
    correspondence = settings.kind == ClockKind.CORRESPONDENCE
    match.move_seconds = settings.delay_seconds if delay else settings.move_seconds
    match.reserve_seconds = 0 if correspondence else settings.reserve_seconds
    match.delay_seconds = settings.delay_seconds
    match.timeout_loses = settings.timeout_loses


def clock_of(match: Match) -> ClockSettings:
    """The time control ``match`` was created with."""
    return ClockSettings(
        kind=match.clock,
        move_seconds=match.move_seconds,
        reserve_seconds=match.reserve_seconds,
        delay_seconds=match.delay_seconds,
        timeout_loses=match.timeout_loses,
    )


def initial_reserve_ms(match: Match) -> int:
    if match.clock == ClockKind.NONE:
        return 0
    if match.clock == ClockKind.DELAY and not match.is_money:
        return match.reserve_seconds * match.length * 1000
    return match.reserve_seconds * 1000


def add_game_reserve(match: Match) -> None:
    """A new game of a money session with a delay clock gives each player
    ``reserve_seconds`` more on top of what they have left: a session has no points to
    count the reserve by, and a long one must not run its players out of time."""
    if match.clock != ClockKind.DELAY or not match.is_money:
        return
    for seat in (0, 1):
        match.set_reserve_ms(seat, match.reserve_ms(seat) + match.reserve_seconds * 1000)


def is_correspondence(match: Match) -> bool:
    """Played a few moves a day: players are not expected to stay at the board."""
    return match.clock == ClockKind.CORRESPONDENCE


def runs(match: Match) -> bool:
    """Whether the clock counts: a timed match under way (not waiting for its players to
    show up, see ``end_show_up``)."""
    return (
        match.clock != ClockKind.NONE
        and match.turn_started_at is not None
        and match.show_up_by is None
    )


def end_show_up(match: Match, *, moved: bool) -> bool:
    """End the show-up period once both players have come to the board and, outside a
    tournament, one of them has made a move (``moved``); True if it ended now, and the
    caller then starts the turn (``restart``) so the clocks count from this moment.

    Until then no clock runs: a match nobody starts is aborted (or, in a tournament, the
    absent player forfeits) at ``show_up_by``, never decided by the clock.
    """
    if match.show_up_by is None or not (match.seen(0) and match.seen(1)):
        return False
    if match.tournament_id is None and not moved:
        return False
    match.show_up_by = None
    return True


def clock_deadline(match: Match, seat: int) -> datetime:
    """When ``seat``, asked at the turn start, runs out of time."""
    assert match.turn_started_at is not None
    return match.turn_started_at + timedelta(
        seconds=match.move_seconds, milliseconds=match.reserve_ms(seat)
    )


def running_seat(match: Match, state: GameState | None) -> int | None:
    """The seat whose clock counts down in the game state ``state``, or None when no clock
    does: the match is not being played (suspended, over), it has no clock, its players
    have not both shown up (``runs``), or a resignation waits for its answer, which has
    its own time (``resignation_deadline``) off the clock."""
    if match.status != MatchStatus.PLAYING or not runs(match):
        return None
    if state is None or state.phase is Phase.RESIGNATION:
        return None
    return seat_to_act(match, state)


@dataclass(frozen=True)
class ClockReading:
    """A player's clock at a moment: whether it runs, what is left of the turn's free
    seconds (None for a clock that is not running) and of the reserve."""

    running: bool
    move_ms: int | None
    reserve_ms: int


def readings(
    match: Match, state: GameState | None, moment: datetime
) -> tuple[ClockReading, ClockReading]:
    """Both players' clocks at ``moment``, as the sweeper would judge them."""
    seat = running_seat(match, state)
    return (_reading(match, 0, seat, moment), _reading(match, 1, seat, moment))


def _reading(match: Match, seat: int, running: int | None, moment: datetime) -> ClockReading:
    if seat != running:
        return ClockReading(running=False, move_ms=None, reserve_ms=match.reserve_ms(seat))
    move_left = match.move_seconds * 1000 - _used_ms(match, moment)
    return ClockReading(
        running=True,
        move_ms=max(0, move_left),
        reserve_ms=max(0, match.reserve_ms(seat) + min(0, move_left)),
    )


def _used_ms(match: Match, moment: datetime) -> int:
    """The time taken so far in this turn (none before its start, which a pause given back
    may have moved a little past ``moment``)."""
    assert match.turn_started_at is not None
    return max(0, int((moment - match.turn_started_at).total_seconds() * 1000))


def charge(match: Match, state: GameState, moment: datetime) -> None:
    """Charge the player whose clock runs in ``state`` (``running_seat``: the answer to a
    match double is on the clock, the answer to a resignation is not) with the time used
    beyond the free seconds."""
    seat = running_seat(match, state)
    if seat is None:
        return
    match.set_reserve_ms(seat, _reading(match, seat, seat, moment).reserve_ms)


def resignation_deadline(match: Match) -> datetime:
    """When an offered resignation nobody answered is declined."""
    assert match.turn_started_at is not None
    return match.turn_started_at + RESIGNATION_ANSWER


def restart(match: Match, moment: datetime, waiting: GameState | None) -> None:
    """A new turn starts at ``moment`` in the game state ``waiting`` (None: the match is
    not being played); the deadline follows."""
    match.turn_started_at = moment if match.status == MatchStatus.PLAYING else None
    refresh_deadline(match, waiting)


def refresh_deadline(match: Match, waiting: GameState | None) -> None:
    """The earliest moment the sweeper must look at this match again (None: never)."""
    if match.status != MatchStatus.PLAYING:
        match.deadline = None
        return
    candidates = [ends for seat in (0, 1) if (ends := match.grace_ends(seat)) is not None]
    if match.show_up_by is not None:
        candidates.append(match.show_up_by)
    running = running_seat(match, waiting)
    if running is not None:
        candidates.append(clock_deadline(match, running))
    elif runs(match) and waiting is not None and waiting.phase is Phase.RESIGNATION:
        candidates.append(resignation_deadline(match))
    match.deadline = min(candidates) if candidates else None
