"""What a declared setting is (``Setting``) and the kinds of value one takes (``Kind``);
the settings themselves are declared in ``tournaments.settings.fields``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from tournaments.models import TournamentFormat

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Kind(StrEnum):
    """What a setting's value is, which decides the field the form and the API give it."""

    WHOLE = "whole"  # a whole number from low to high, or none when its default is none
    POWER_OF_TWO = "power_of_two"  # 2, 4, 8, ... from low to high
    CHOICE = "choice"  # one of ``choices``
    FLAG = "flag"  # on or off
    TEXT = "text"  # ``low`` to ``high`` characters
    MOMENT = "moment"  # a date and time
    MONEY = "money"  # cents from low to high; the form takes an amount such as 10.00
    NUMBERS = "numbers"  # at most ``items`` whole numbers from low to high; typed "10, 20"
    TOURNAMENT = "tournament"  # another tournament, by its id from low to high
    BY_FLIGHT = "by_flight"  # numbers as NUMBERS, for the main flight or for each flight


FORMATS = tuple(TournamentFormat.values)
KNOCKOUT, DOUBLE = TournamentFormat.KNOCKOUT, TournamentFormat.DOUBLE_ELIMINATION
TRIPLE = TournamentFormat.TRIPLE_ELIMINATION
SWISS, ROUND_ROBIN = TournamentFormat.SWISS, TournamentFormat.ROUND_ROBIN
SWING = TournamentFormat.SWING


def formats_but(left_out: str) -> tuple[str, ...]:
    return tuple(f for f in FORMATS if f != left_out)


@dataclass(frozen=True)
class Setting:
    """One setting: ``name`` as ``TournamentSettings`` and the API call it."""

    name: str
    kind: Kind
    label: StrOrPromise = ""  # the form's, in the reader's language
    help: StrOrPromise = ""  # the form's words beside the field
    api_help: str = ""  # the API's (and its schema's) words, said for every format
    low: int | None = None
    high: int | None = None
    items: int | None = None  # NUMBERS and BY_FLIGHT: how many at most
    choices: tuple[tuple[str, StrOrPromise], ...] = ()
    default: Any = None
    initial: Any = None  # the blank form's proposal; None: the default
    required: bool = False
    formats: tuple[str, ...] = FORMATS
    form_name: str = ""  # the form's field, where it is not ``name``
    on_form: bool = True
    in_api: bool = True
    # what the check says of a value outside the limits, where words say them ("an
    # hour"); a CHOICE's is the API's too (empty: DRF's words)
    refusal: StrOrPromise = ""

    @property
    def field(self) -> str:
        """The form field's name."""
        return self.form_name or self.name

    @property
    def proposed(self) -> Any:
        return self.default if self.initial is None else self.initial

    @property
    def limits(self) -> tuple[int, int]:
        """The lowest and highest value of a setting that has them."""
        if self.low is None or self.high is None:
            raise ValueError(f"{self.name} has no limits")
        return self.low, self.high

    def allows(self, value: int) -> bool:
        low, high = self.limits
        power_of_two = value > 0 and not value & (value - 1)
        return low <= value <= high and (self.kind != Kind.POWER_OF_TWO or power_of_two)

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)
