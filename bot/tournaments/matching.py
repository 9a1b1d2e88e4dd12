"""Maximum matching in a general graph (Edmonds' blossom algorithm), for the exact Swiss pairing check.

Swiss pairing asks whether the players still to pair can all be paired without a rematch, i.e. whether the graph
of "has not met yet" has a perfect matching; more generally the fewest rematches a pairing needs is the number of
pairs minus the size of a maximum matching of that graph. Written for clarity over speed: O(V^3) per call, used
only when the plain backtracking search of :mod:`.swiss` gives up (fields where most pairs have met already).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence, Set


def maximum_matching_size(vertices: Sequence[int], neighbours: Mapping[int, Set[int]]) -> int:
    """The size of a maximum matching of the graph on ``vertices`` (edges: ``neighbours``, restricted to them)."""
    inside = set(vertices)
    adjacent = {v: [u for u in neighbours.get(v, ()) if u in inside and u != v] for v in vertices}
    mate: dict[int, int | None] = dict.fromkeys(vertices)
    for v in vertices:  # a greedy start leaves few augmenting paths to find
        if mate[v] is None:
            for u in adjacent[v]:
                if mate[u] is None:
                    mate[v], mate[u] = u, v
                    break
    for root in vertices:
        if mate[root] is None:
            _augment_from(root, vertices, adjacent, mate)
    return sum(partner is not None for partner in mate.values()) // 2


def _augment_from(root: int, vertices: Sequence[int], adjacent: Mapping[int, list[int]],
                  mate: dict[int, int | None]) -> bool:
    """Grow an alternating tree from the free vertex ``root``, shrinking odd cycles (blossoms) into their base;
    on reaching a free vertex, flip the path to it. Returns whether the matching grew."""
    parent: dict[int, int] = {}  # odd vertex -> the even vertex it was reached from
    base = {v: v for v in vertices}
    even = {root}
    queue = deque([root])

    def tree_parent_of_even(v: int) -> int | None:
        partner = mate[v]
        return None if partner is None else parent[partner]

    def common_base(a: int, b: int) -> int:
        seen: set[int] = set()
        while True:
            a = base[a]
            seen.add(a)
            step = tree_parent_of_even(a)
            if step is None:
                break
            a = step
        while True:
            b = base[b]
            if b in seen:
                return b
            b = tree_parent_of_even(b)  # type: ignore[assignment]

    def mark_cycle(v: int, stop: int, child: int, in_blossom: set[int]) -> None:
        # walk from v down to the blossom base, re-pointing odd vertices so paths through the blossom still work
        while base[v] != stop:
            partner = mate[v]
            assert partner is not None
            in_blossom.add(base[v])
            in_blossom.add(base[partner])
            parent[v] = child
            child = partner
            v = parent[partner]

    while queue:
        v = queue.popleft()
        for u in adjacent[v]:
            if base[v] == base[u] or mate[v] == u:
                continue
            if u == root or (mate[u] is not None and mate[u] in parent):
                # u is even as well: the edge closes an odd cycle, shrink it
                stop = common_base(v, u)
                in_blossom: set[int] = set()
                mark_cycle(v, stop, u, in_blossom)
                mark_cycle(u, stop, v, in_blossom)
                for w in vertices:
                    if base[w] in in_blossom:
                        base[w] = stop
                        if w not in even:
                            even.add(w)
                            queue.append(w)
            elif u not in parent:
                parent[u] = v
                partner = mate[u]
                if partner is None:
                    while u is not None:  # flip the alternating path back to the root
                        previous = parent[u]
                        following = mate[previous]
                        mate[u], mate[previous] = previous, u
                        u = following  # type: ignore[assignment]
                    return True
                even.add(partner)
                queue.append(partner)
    return False
