"""A swing's own settings: chips, the CPP's levels and how it rises, the cube's rules.

Declared as ``tournaments.settings.fields`` declares every setting, and listed there in
this order with the rest (``fields.SETTINGS``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.creation import MAX_MATCH_LENGTH
from tournaments.formats.swing import MAX_CPP, MAX_LEVELS, CppRaise
from tournaments.settings.setting import SWING, Kind, Setting

STARTING_CHIPS = Setting(
    "starting_chips",
    Kind.WHOLE,
    low=1,
    high=1_000_000_000,
    initial=1000,
    formats=(SWING,),
    label=_("Starting chips"),
    api_help="Swing: the chips each player starts with.",
)
CPP_LEVELS = Setting(
    "cpp_levels",
    Kind.NUMBERS,
    low=1,
    high=MAX_CPP,
    items=MAX_LEVELS,
    initial=(10, 20, 30),
    formats=(SWING,),
    label=_("Chips per point (CPP) levels"),
    help=_(
        "Rising, e.g. 10, 20, 30; a game plays for points × cube × the CPP of the "
        "level when it starts."
    ),
    api_help="Swing: the chips per point (CPP) at each level, rising: [10, 15, 20, ...]. "
    "Or give cpp_start and cpp_step.",
)
CPP_START = Setting(
    "cpp_start",
    Kind.WHOLE,
    low=1,
    high=MAX_CPP,
    formats=(SWING,),
    on_form=False,  # the form lists the levels
    api_help="Swing: the first level's CPP, each next level cpp_step more.",
)
CPP_STEP = Setting(
    "cpp_step",
    Kind.WHOLE,
    low=0,
    high=MAX_CPP,
    initial=10,
    formats=(SWING,),
    label=_("Then each level adds"),
    help=_("After the listed levels; 0 keeps the last one."),
    api_help="Swing: how much each level after the listed ones (or after cpp_start) adds.",
)
CPP_RAISE = Setting(
    "cpp_raise",
    Kind.CHOICE,
    choices=(
        (CppRaise.GAME.value, _("After every game")),
        (CppRaise.MINUTES.value, _("Every N minutes")),
        (CppRaise.KNOCKOUT.value, _("At every knockout")),
    ),
    initial=CppRaise.GAME.value,
    formats=(SWING,),
    label=_("The CPP rises"),
    api_help="Swing: the CPP rises with every game each player plays (default: a game plays "
    "at the level of the more games either of its players has played), every "
    "cpp_raise_minutes, or every time a player is knocked out.",
)
CPP_RAISE_MINUTES = Setting(
    "cpp_raise_minutes",
    Kind.WHOLE,
    low=1,
    high=24 * 60,
    formats=(SWING,),
    label=_("Minutes per level"),
    help=_("When it rises every N minutes."),
)
JACOBY = Setting(
    "jacoby",
    Kind.FLAG,
    default=True,
    formats=(SWING,),
    label=_("Jacoby rule"),
    help=_("Gammons count only once the cube has been turned."),
    api_help="Swing: gammons count only once the cube is turned (default).",
)
BEAVERS = Setting(
    "beavers",
    Kind.FLAG,
    default=False,
    formats=(SWING,),
    label=_("Beavers"),
    api_help="Swing: beavers allowed.",
)
SWING_MATCH_LENGTH = Setting(
    "swing_match_length",
    Kind.WHOLE,
    low=0,
    high=MAX_MATCH_LENGTH,
    default=0,
    formats=(SWING,),
    label=_("Match swing: points per match"),
    help=_(
        "0 plays single games; N plays a match to N (no Crawford game) with a match "
        "cube beside the game cube."
    ),
    api_help="Match swing: each pairing plays a match to this many points, no Crawford "
    "game, with a match cube; 0 (default): single games.",
)

# This module's settings, in the order declared.
SETTINGS = tuple(value for value in tuple(globals().values()) if isinstance(value, Setting))
