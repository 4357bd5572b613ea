"""Pairing one Swiss round from the standings (``tournaments.formats.swiss`` plays the rounds).

Terms (points, score groups, floats and byes are defined in ``tournaments.formats.swiss``):

- **History**: for every two entrants who have met, how many times and the last round they
  met in (rounds counted from 0).
- **Rematch cost** of pairing two entrants: 0 if they have not met; otherwise ``weight``
  for each earlier meeting plus 1 + the last round they met in, ``weight`` being more than
  the recency part of a whole round can add up to. So a round's cost orders pairings by the
  number of rematches first, and among as many rematches prefers those whose players met
  longest ago.
- **Eligible for the bye**: whoever has not had one; once everybody has, everybody.

The rules, in order (README.md, "Swiss pairing", gives them with their sources):

1. Every entrant is paired once, or has the bye.
2. The bye goes to an eligible entrant: the lowest-ranked one whose absence lets the rest be
   paired at the least rematch cost any eligible choice allows.
3. The round's rematch cost is the least the field allows; it is 0 whenever a pairing without
   rematches exists.
4. Within that, the top-ranked entrant still unpaired takes the first opponent, in this order
   of preference, that keeps the round at that least cost: in their own score group the one
   half-way down (top half against bottom half), then on down the group, then back up it;
   then the lower score groups, each from its top, so a floater drops as few groups as the
   pairings above allow.

"Keeps the round at that least cost" is decided exactly, so the search never takes a step it
must undo. Without rematches, the entrants still to pair can always be paired while at least
2m + 2 are left, m being the most opponents anyone has had: each can still meet at least
half of the others, and by Dirac's theorem (1952) they then have a perfect matching. Below
that bound (for the bye's candidates too) Edmonds' blossom algorithm decides
(``tournaments.formats.matching.NotMetMatching``, kept up to date pair by pair). When no
pairing avoids a rematch (six entrants after three rounds can be left with two triangles of
unplayed pairs), each candidate pair is checked by a minimum-cost perfect matching of those
left (``tournaments.formats.matching.cheapest_pairing``) until the rematches are placed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.base import DrawInvariantError
from tournaments.formats.matching import NotMetMatching, cheapest_pairing

# For each entrant, the entrants they have met and (times met, last round met in).
History = Mapping[int, Mapping[int, tuple[int, int]]]


@dataclass(frozen=True)
class RoundPairing:
    """A round's pairings, best-ranked first (each with the better-ranked entrant first), its
    bye, and its rematch cost."""

    pairs: list[tuple[int, int]]
    bye: int | None
    cost: int


@dataclass(frozen=True)
class RematchCost:
    """The rematch cost of two entrants (see the module docstring)."""

    history: History
    weight: int

    @classmethod
    def of(cls, history: History, rounds_played: int) -> RematchCost:
        return cls(history, (rounds_played + 1) * (len(history) // 2 + 1))

    def __call__(self, first: int, second: int) -> int:
        meetings = self.history[first].get(second)
        if meetings is None:
            return 0
        times, last_round = meetings
        return times * self.weight + last_round + 1


def pair_round(
    ranked: Sequence[int],
    points: Mapping[int, int],
    history: History,
    had_bye: set[int],
    rounds_played: int,
) -> RoundPairing:
    """The round's pairing by the rules of the module docstring.

    ``ranked`` is the field best first (points, then seed order); ``history`` holds every
    entrant of the field.
    """
    cost = RematchCost.of(history, rounds_played)
    remaining = list(ranked)
    bye = None
    if len(remaining) % 2:
        bye = _bye(remaining, history, had_bye, cost)
        remaining.remove(bye)
    most_met = max((len(opponents) for opponents in history.values()), default=0)
    need, cheapest = 0, set[frozenset[int]]()
    if not _pairable(remaining, history, most_met):
        need, cheapest = _cheapest(remaining, cost)
    total = need
    matching: NotMetMatching | None = None
    pairs = []
    while remaining:
        leader = remaining.pop(0)
        for opponent in _by_preference(leader, remaining, points):
            if need:
                if _keeps_cheapest((leader, opponent), remaining, need, cheapest, cost):
                    need -= cost(leader, opponent)
                    break
                continue
            if opponent in history[leader]:
                continue
            if matching is None and _many_enough(len(remaining) - 1, most_met):
                break
            if matching is None:
                matching = NotMetMatching([leader, *remaining], history)
            if matching.take(leader, opponent):
                break
        else:
            raise DrawInvariantError(f"{leader} has no opponent left, though a pairing existed")
        remaining.remove(opponent)
        pairs.append((leader, opponent))
    return RoundPairing(pairs, bye, total)


def _bye(ranked: Sequence[int], history: History, had_bye: set[int], cost: RematchCost) -> int:
    """The bye: the lowest-ranked eligible entrant whose absence costs the rest least."""
    eligible = [entrant for entrant in reversed(ranked) if entrant not in had_bye] or list(
        reversed(ranked)
    )
    most_met = max((len(opponents) for opponents in history.values()), default=0)
    for candidate in eligible:
        if _pairable(_without(ranked, candidate), history, most_met):
            return candidate

    best, best_cost = eligible[0], _cheapest(_without(ranked, eligible[0]), cost)[0]
    for candidate in eligible[1:]:
        found = cheapest_pairing(_without(ranked, candidate), cost, limit=best_cost - 1)
        if found is not None:
            best, best_cost = candidate, found[0]
    return best


def _without(entrants: Sequence[int], one: int) -> list[int]:
    return [entrant for entrant in entrants if entrant != one]


def _cheapest(entrants: Sequence[int], cost: RematchCost) -> tuple[int, set[frozenset[int]]]:
    found = cheapest_pairing(entrants, cost)
    if found is None:
        raise DrawInvariantError("An even field can always be paired, rematches and all")
    return found


def _keeps_cheapest(
    pair: tuple[int, int],
    remaining: list[int],
    need: int,
    cheapest: set[frozenset[int]],
    cost: RematchCost,
) -> bool:
    """Whether ``pair`` leaves the rest of ``remaining`` (its first entrant, the leader,
    already out of it) pairable for what ``need`` leaves; ``cheapest``, a pairing of them all
    at ``need``, is updated to one with this pair when there is one.

    A positive rematch cost is more than ``cost.weight``, so what is left to pay must be 0
    (paired without a rematch, which the caller's matching then keeps) or above that.
    """
    leader, opponent = pair
    if frozenset(pair) in cheapest:
        return True
    rest_need = need - cost(leader, opponent)
    if rest_need < 0 or 0 < rest_need <= cost.weight:
        return False
    rest = [entrant for entrant in remaining if entrant != opponent]
    if rest_need == 0:
        return NotMetMatching(rest, cost.history).is_perfect
    # ``need`` is the least the round allows, so the rest can cost no less than what is left.
    found = cheapest_pairing(rest, cost, limit=rest_need)
    if found is None:
        return False
    cheapest.clear()
    cheapest.update(found[1] | {frozenset(pair)})
    return True


def _by_preference(
    leader: int, remaining: Sequence[int], points: Mapping[int, int]
) -> Iterator[int]:
    """The leader's possible opponents, most wanted first: half-way down the leader's score
    group, then on down it, then back up it, then the lower groups from the top."""
    group = 0
    while group < len(remaining) and points[remaining[group]] == points[leader]:
        group += 1
    half_way = max((group + 1) // 2 - 1, 0)
    for i in (*range(half_way, group), *range(half_way - 1, -1, -1)):
        yield remaining[i]
    for i in range(group, len(remaining)):
        yield remaining[i]


def _many_enough(count: int, most_met: int) -> bool:
    """Whether ``count`` entrants can be paired whoever has met whom (Dirac's bound)."""
    return count == 0 or most_met <= count // 2 - 1


def _pairable(entrants: Sequence[int], history: History, most_met: int) -> bool:
    """Whether ``entrants`` can all be paired without a rematch."""
    return _many_enough(len(entrants), most_met) or NotMetMatching(entrants, history).is_perfect
