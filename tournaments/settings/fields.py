"""Each setting an organizer chooses, declared once: its kind, its words, its limits, its
default and the formats that take it.

The organizer's form (``tournaments.forms``, ``tournaments.swing.form``) and the API's input
(``tournaments.serializers``, ``tournaments.swing.serializers``) build their fields from these
declarations (``tournaments.settings.build``), and the checks (``general``, ``by_format``,
``swing``) read their limits here, so a limit changed here changes the form, the API, its
schema and the check together.

A setting's *default* is what a tournament gets when the organizer says nothing (the API's
default); its *initial* value is what the blank form proposes, when that is something else
(a 10.00 buy-in rather than a free tournament). A setting that only some formats take is
shown on the form only while one of them is chosen, and left out by the checks for the
others (it then has its default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from accounts.models import MAX_AMOUNT_CENTS, Currency
from matches.clock import MAX_CORRESPONDENCE_SECONDS, MAX_RESERVE_SECONDS
from matches.creation import MAX_MATCH_LENGTH
from matches.models import DEFAULT_CLOCK, ClockKind
from tournaments import models
from tournaments.formats.prizes import WHOLE_POOL
from tournaments.formats.sit_and_go import MAX_SEATS, MIN_SEATS
from tournaments.models import (
    BRACKET_FORMATS,
    LastChanceEntry,
    Seeding,
    TournamentAbandonPolicy,
    TournamentFormat,
)
from tournaments.settings import entry_fields, swing_fields
from tournaments.settings.setting import (
    DOUBLE,
    ROUND_ROBIN,
    SWING,
    SWISS,
    TRIPLE,
    Kind,
    Setting,
    formats_but,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

MAX_ID = 2**63 - 1
# Where a side flight joins when the organizer switches it on without saying: the
# consolation takes the losers of main rounds 1 and 2; the last chance's winner comes back
# in the quarter-finals, as club nights run them.
DEFAULT_CONSOLATION_THROUGH = 2
DEFAULT_LAST_CHANCE_REENTRY = 8


def _filled(text: StrPromise, **values: Any) -> StrPromise:
    """A sentence with named blanks, translated and filled in when it is read, so the form
    and the API's refusal speak the reader's language."""
    return cast("StrPromise", lazy(lambda: str(text) % values, str)())


# ---------------------------------------------------------------- every tournament

NAME = Setting("name", Kind.TEXT, low=1, high=120, required=True, label=_("Name"))
FORMAT = Setting(
    "format",
    Kind.CHOICE,
    choices=tuple(TournamentFormat.choices),
    required=True,
    initial=TournamentFormat.KNOCKOUT,
    label=_("Format"),
    help=_(
        "Knockout: one loss and out. Double elimination: out at the second loss. Triple "
        "elimination: out at the third. Swiss: a set number of rounds, players with equal "
        "scores meet. Round robin: everyone meets everyone, or only the first rounds of the "
        "table. Swing: everyone starts with the same chips, the stakes rise, the last player "
        "holding chips wins."
    ),
)
SEATS = Setting(
    "seats",
    Kind.WHOLE,
    low=MIN_SEATS,
    high=MAX_SEATS,
    formats=(TournamentFormat.SIT_AND_GO, SWING),
    label=_("Seats"),
    help=_filled(
        _(
            "Sit & Go: %(low)s to %(high)s seats (8 if left empty). Swing: seats to start "
            "when full, or empty to start by hand."
        ),
        low=MIN_SEATS,
        high=MAX_SEATS,
    ),
    api_help="A Sit & Go's seats: it starts when they are all taken (8 if not given).",
)
MAX_ENTRANTS = Setting(
    "max_entrants",
    Kind.WHOLE,
    low=2,
    high=8192,
    formats=formats_but(TournamentFormat.SIT_AND_GO),
    label=_("Maximum players"),
    help=_("Leave empty for no limit."),
)
BUY_IN_CENTS = Setting(
    "buy_in_cents",
    Kind.MONEY,
    low=0,
    high=MAX_AMOUNT_CENTS,
    default=0,
    initial=1000,
    form_name="buy_in",
    label=_("Buy-in"),
    help=_("Goes to the prize pool."),
)
FEE_CENTS = Setting(
    "fee_cents",
    Kind.MONEY,
    low=0,
    high=MAX_AMOUNT_CENTS,
    default=0,
    initial=65,
    form_name="fee",
    label=_("Fee"),
    help=_("Kept by the house."),
)
CURRENCY = Setting(
    "currency",
    Kind.CHOICE,
    choices=tuple(Currency.choices),
    default=Currency.FUN,
    label=_("Currency"),
    refusal=_filled(_("Use one of %(currencies)s."), currencies=", ".join(Currency.values)),
)
SEEDING = Setting(
    "seeding",
    Kind.CHOICE,
    choices=tuple(Seeding.choices),
    default=Seeding.RATING,
    label=_("Seeding"),
)
ROUND_LENGTHS = Setting(
    "round_lengths",
    Kind.BY_FLIGHT,
    low=1,
    high=MAX_MATCH_LENGTH,
    items=16,
    formats=formats_but(SWING),
    label=_("Match length per round"),
)
CLOCK_KIND = Setting(
    "clock_kind",
    Kind.CHOICE,
    choices=tuple(ClockKind.choices),
    default=DEFAULT_CLOCK.kind,
    label=_("Clock"),
    in_api=False,  # the API takes the whole clock (``matches.api.ClockSerializer``)
)
MOVE_SECONDS = Setting(
    "move_seconds",
    Kind.WHOLE,
    low=1,
    high=MAX_CORRESPONDENCE_SECONDS,
    default=DEFAULT_CLOCK.move_seconds,
    label=_("Seconds per move"),
    help=_(
        "Per move: a delay clock's first seconds of every move cost nothing (a delay, not an "
        "increment); a move timer's are the move's own time; correspondence: 86400 a day."
    ),
    in_api=False,
)
RESERVE_SECONDS = Setting(
    "reserve_seconds",
    Kind.WHOLE,
    low=0,
    high=MAX_RESERVE_SECONDS,
    default=DEFAULT_CLOCK.reserve_seconds,
    label=_("Reserve seconds per point"),
    help=_(
        "Per point of the match with a delay clock (120 gives a 7-point match 14 minutes "
        "each); for the whole match with a move timer."
    ),
    in_api=False,
)
ABANDON_POLICY = Setting(
    "abandon_policy",
    Kind.CHOICE,
    choices=tuple(TournamentAbandonPolicy.choices),
    default=TournamentAbandonPolicy.ENGINE,
    label=_("When a player abandons"),
)
SHOW_UP_SECONDS = Setting(
    "show_up_seconds",
    Kind.WHOLE,
    low=30,
    high=3600,
    default=models.SHOW_UP_SECONDS,
    label=_("Show-up time (seconds)"),
    help=_("A player not at the board forfeits."),
    refusal=_("Give players 30 seconds to an hour to reach the board."),
)
ROUND_MINUTES = Setting(
    "round_minutes",
    Kind.WHOLE,
    low=1,
    high=14 * 24 * 60,
    label=_("Round deadline (minutes)"),
    help=_("Matches not finished this long after they start are marked late."),
    refusal=_("A round deadline is 1 minute to 14 days, or leave it empty."),
)
STARTS_AT = Setting(
    "starts_at",
    Kind.MOMENT,
    label=_("Starts at (UTC)"),
    help=_("Leave empty to start it by hand; a Sit & Go starts when full."),
)
CHECK_IN_MINUTES = Setting(
    "check_in_minutes",
    Kind.WHOLE,
    low=1,
    high=24 * 60,
    label=_("Check-in window (minutes)"),
    help=_("Entrants confirm in this window before the start; the others are refunded."),
    refusal=_("Check-in lasts 1 minute to 24 hours."),
)
TARGET = Setting(
    "target",
    Kind.TOURNAMENT,
    low=1,
    high=MAX_ID,
    formats=(TournamentFormat.SATELLITE,),
    label=_("Satellite target"),
    help=_("Satellite: the tournament whose seats are the prizes."),
    api_help="Satellite: the target tournament's id.",
)

# ---------------------------------------------------------------- some formats only

ROUNDS = Setting(
    "rounds",
    Kind.WHOLE,
    low=1,
    high=30,
    formats=(SWISS, ROUND_ROBIN),
    label=_("Rounds"),
    help=_(
        "Swiss: how many rounds. Round robin: play only the first rounds of the table, a "
        "truncated round robin; empty: everyone meets everyone."
    ),
    api_help="Swiss: the number of rounds. Round robin without groups: play only "
    "the first this many rounds of the Berger table (a truncated round robin, ranked by wins, "
    "head-to-head and tie-break matches); none: the whole table.",
)
TOP_CUT = Setting(
    "top_cut",
    Kind.POWER_OF_TWO,
    low=2,
    high=MAX_ENTRANTS.high,
    formats=(SWISS,),
    label=_("Top cut"),
    help=_("The best 2, 4, 8, ... play a knockout after the Swiss; empty: none."),
    api_help="Swiss: the best this many (2, 4, 8, ...) play a knockout after it "
    '(its lengths: round_lengths\' "final").',
)
GROUP_SIZE = Setting(
    "group_size",
    Kind.WHOLE,
    low=2,
    high=64,
    formats=(ROUND_ROBIN,),
    label=_("Players per group"),
    help=_("Empty: one table, everyone meets everyone."),
    api_help="Round robin: players per group; none: everyone meets everyone.",
)
ADVANCE_PER_GROUP = Setting(
    "advance_per_group",
    Kind.WHOLE,
    low=1,
    high=GROUP_SIZE.high,
    formats=(ROUND_ROBIN,),
    label=_("Through from each group"),
    help=_("The best of each group play a knockout."),
    api_help='Round robin with groups: the best this many of each play a knockout ("final").',
)
GRAND_FINAL_RESET = Setting(
    "grand_final_reset",
    Kind.FLAG,
    default=True,
    formats=(DOUBLE, TRIPLE),
    label=_("Reset final: a second final if the losers' flight winner wins the first"),
    help=_(
        "Triple elimination: each final is played again until a finalist has lost three "
        "times; without it, each final is one match."
    ),
    api_help="Double elimination: a second final when the losers' flight winner wins "
    "the first. Triple elimination: each final played again until a finalist has lost three "
    "times; false: one match each (default true).",
)
CONSOLATION = Setting(
    "consolation",
    Kind.FLAG,
    formats=BRACKET_FORMATS,
    label=_("Progressive consolation for those knocked out early"),
    in_api=False,  # the API's says "none" or "progressive" (``tournaments.serializers``)
)
CONSOLATION_THROUGH_ROUND = Setting(
    "consolation_through_round",
    Kind.WHOLE,
    low=1,
    high=16,
    initial=DEFAULT_CONSOLATION_THROUGH,
    formats=BRACKET_FORMATS,
    label=_("Consolation takes the losers of rounds 1 to"),
    help=_(
        "Beside a double elimination: those knocked out in losers' rounds 1 to this. Beside a "
        "last chance: those knocked out in its rounds 1 to this."
    ),
    api_help="The consolation takes those knocked out in rounds 1 to this one "
    f"(default {DEFAULT_CONSOLATION_THROUGH}).",
)
LAST_CHANCE = Setting(
    "last_chance",
    Kind.FLAG,
    formats=BRACKET_FORMATS,
    label=_("Last chance: its winner comes back into the main flight"),
    api_help="Knockout or double elimination: a one-loss flight for the players knocked out "
    "early whose winner comes back into the main flight (a double elimination's losers' "
    "flight, against its champion).",
)
LAST_CHANCE_REENTERS_AT = Setting(
    "last_chance_reenters_at",
    Kind.POWER_OF_TWO,
    low=2,
    high=MAX_ENTRANTS.high,
    initial=DEFAULT_LAST_CHANCE_REENTRY,
    formats=BRACKET_FORMATS,
    label=_("The last chance's winner comes back with this many left"),
    help=_(
        "2, 4, 8, ...: 8 is the quarter-finals. Beside a double elimination: it takes those "
        "knocked out while more than this many are left in the losers' flight."
    ),
    api_help="The last chance's winner comes back when this many (2, 4, 8, ...) are left "
    f"in the main flight (default {DEFAULT_LAST_CHANCE_REENTRY}); beside a double "
    "elimination, it takes those knocked out while more than this many are left in the "
    "losers' flight, and its winner meets the losers' flight champion for a place in the final.",
)
LAST_CHANCE_ENTRY = Setting(
    "last_chance_entry",
    Kind.CHOICE,
    choices=tuple(LastChanceEntry.choices),
    default=LastChanceEntry.PROGRESSIVE,
    formats=BRACKET_FORMATS,
    label=_("Players enter the last chance"),
    api_help="progressive (default): round by round, as they are knocked out; fresh: drawn "
    "at random into a new bracket once every player it takes is known.",
)
PRIZE_TABLE = Setting(
    "prize_table",
    Kind.BY_FLIGHT,
    low=1,
    high=WHOLE_POOL,
    items=256,
    formats=formats_but(TournamentFormat.SATELLITE),
    label=_("Prize shares (%)"),
)

# The settings only some formats take, which the others leave at their default.
FORMAT_ONLY = (
    GRAND_FINAL_RESET,
    ROUNDS,
    TOP_CUT,
    GROUP_SIZE,
    ADVANCE_PER_GROUP,
    CONSOLATION_THROUGH_ROUND,
    LAST_CHANCE_REENTERS_AT,
    LAST_CHANCE_ENTRY,
)

# The settings declared in this module, in order (a swing's own, and a division's and its
# entry limits, live in ``swing_fields`` and ``entry_fields``).
_HERE = tuple(value for value in tuple(globals().values()) if isinstance(value, Setting))

# Every setting, in the order declared: this module's, a swing's, a division's.
SETTINGS = (*_HERE, *swing_fields.SETTINGS, *entry_fields.SETTINGS)
