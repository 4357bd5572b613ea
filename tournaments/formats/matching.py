"""Pairing entrants for a Swiss round (``tournaments.formats.pairing``): a maximum matching
of those who have not met, by Edmonds' blossom algorithm (1965), kept perfect as pairs are
taken out of it; and, when every pairing has a rematch, the cheapest perfect matching of the
whole field by rematch cost, by Edmonds' weighted blossom algorithm (networkx's
``max_weight_matching``, exact in integers)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from itertools import combinations

import networkx as nx

from tournaments.formats.base import DrawInvariantError


class NotMetMatching:
    """A maximum matching of entrants who have not met, by Edmonds' blossom algorithm.

    Kept perfect while ``take`` removes pairs: a removed pair that was not matched together
    leaves their two partners unmatched, and one augmenting path between them restores it.
    """

    def __init__(self, entrants: Sequence[int], met: Mapping[int, Collection[int]]) -> None:
        self.index = {entrant: i for i, entrant in enumerate(entrants)}
        count = len(entrants)
        self.free = [True] * count
        self.adjacent = [
            [j for j, other in enumerate(entrants) if j != i and other not in met[entrant]]
            for i, entrant in enumerate(entrants)
        ]
        self.mate = [-1] * count
        # The search tree of the current ``_augment``: parents, blossom bases, reached, to visit.
        self._parent: list[int] = []
        self._base: list[int] = []
        self._in_tree: list[bool] = []
        self._queue: deque[int] = deque()
        for i in range(count):
            if self.mate[i] == -1:
                partner = next((j for j in self.adjacent[i] if self.mate[j] == -1), None)
                if partner is not None:
                    self.mate[i], self.mate[partner] = partner, i
        self.is_perfect = all(self.mate[i] != -1 or self._augment(i) for i in range(count))

    def take(self, first: int, second: int) -> bool:
        """Remove the pair if the others can still all be paired; False changes nothing."""
        a, b = self.index[first], self.index[second]
        mate = self.mate
        a_mate, b_mate = mate[a], mate[b]
        self.free[a] = self.free[b] = False
        if a_mate == b:
            return True
        mate[a] = mate[b] = mate[a_mate] = mate[b_mate] = -1
        if self._augment(a_mate):
            return True
        self.free[a] = self.free[b] = True
        mate[a], mate[a_mate], mate[b], mate[b_mate] = a_mate, a, b_mate, b
        return False

    def _augment(self, root: int) -> bool:
        """Look for an augmenting path from the unmatched ``root``; flip it if found.

        A breadth-first search of alternating paths; an odd cycle (a blossom) is shrunk to its
        base so the search can go on through it (the classic form of Edmonds' algorithm).
        """
        count = len(self.mate)
        mate, free = self.mate, self.free
        self._parent = [-1] * count
        self._base = list(range(count))
        self._in_tree = [False] * count
        self._in_tree[root] = True
        self._queue = deque([root])
        parent, base = self._parent, self._base
        while self._queue:
            v = self._queue.popleft()
            for to in self.adjacent[v]:
                if not free[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    self._shrink_blossom(v, to)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        self._flip(to)
                        return True
                    self._in_tree[mate[to]] = True
                    self._queue.append(mate[to])
        return False

    def _shrink_blossom(self, v: int, to: int) -> None:
        stop = self._common_base(v, to)
        blossom = [False] * len(self.mate)
        self._mark(v, stop, to, blossom)
        self._mark(to, stop, v, blossom)
        for i, i_base in enumerate(self._base):
            if blossom[i_base]:
                self._base[i] = stop
                if not self._in_tree[i]:
                    self._in_tree[i] = True
                    self._queue.append(i)

    def _common_base(self, a: int, b: int) -> int:
        mate, parent, base = self.mate, self._parent, self._base
        seen = [False] * len(mate)
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while not seen[base[b]]:
            b = parent[mate[base[b]]]
        return base[b]

    def _mark(self, v: int, stop: int, child: int, blossom: list[bool]) -> None:
        mate, parent, base = self.mate, self._parent, self._base
        while base[v] != stop:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def _flip(self, end: int) -> None:
        """Swap matched and unmatched edges along the path from ``end`` back to the root."""
        mate, parent = self.mate, self._parent
        while end != -1:
            before = mate[parent[end]]
            mate[end], mate[parent[end]] = parent[end], end
            end = before


def cheapest_pairing(
    entrants: Sequence[int], cost: Callable[[int, int], int], limit: int | None = None
) -> tuple[int, set[frozenset[int]]] | None:
    """The least total ``cost`` of pairing all of ``entrants`` (an even number), anyone with
    anyone, and one pairing that costs it: a minimum-cost perfect matching of the complete
    graph. With a ``limit``, pairs costing more are left out (no pairing of a total within
    the limit could hold one), and None means no pairing costs at most the limit.

    Found as a maximum-weight matching of the largest size, each pair weighing ``ceiling`` less
    its cost, ``ceiling`` above every cost so that no pair weighs nothing.
    """
    if not entrants:
        return 0, set()
    costs = {(a, b): cost(a, b) for a, b in combinations(entrants, 2)}
    if limit is not None:
        costs = {pair: c for pair, c in costs.items() if c <= limit}
    if not costs:
        return None
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, ceiling - c) for (a, b), c in costs.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    total = sum(cost(a, b) for a, b in matched)
    if 2 * len(matched) == len(entrants) and (limit is None or total <= limit):
        return total, {frozenset(pair) for pair in matched}
    if limit is None:
        raise DrawInvariantError("An odd number of entrants cannot all be paired")
    return None
