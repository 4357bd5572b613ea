"""The bracket: its reads (``reads``: every slot in three queries), laid out as the page
draws it (``layout``), a slot's markup (``html``), the page of a big field (``page``: the
viewer's own path and the current round, the rest a round at a time) and the live frames
(``live``)."""

from tournaments.bracket.layout import (
    Cell,
    Column,
    FlightLayout,
    SideSource,
    flights,
    match_words,
)
from tournaments.bracket.reads import (
    FLIGHT_ORDER,
    BracketRound,
    BracketSide,
    BracketSlot,
    bracket,
    bracket_data,
)
from tournaments.reads.rounds import ROUND_BY_ROUND

__all__ = [
    "FLIGHT_ORDER",
    "ROUND_BY_ROUND",
    "BracketRound",
    "BracketSide",
    "BracketSlot",
    "Cell",
    "Column",
    "FlightLayout",
    "SideSource",
    "bracket",
    "bracket_data",
    "flights",
    "match_words",
]
