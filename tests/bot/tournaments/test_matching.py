"""Maximum matching (Edmonds' blossom algorithm) against brute force on small random graphs."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.matching import maximum_matching_size


def brute_force_size(vertices, neighbours):
    def best(remaining):
        if not remaining:
            return 0
        first, rest = remaining[0], remaining[1:]
        skip = best(rest)
        take = max((1 + best([v for v in rest if v != other]) for other in rest if other in neighbours[first]),
                   default=0)
        return max(skip, take)

    return best(list(vertices))


@st.composite
def graphs(draw):
    size = draw(st.integers(0, 11))
    vertices = draw(st.permutations([10 * i for i in range(size)]))
    edges = draw(st.sets(st.sampled_from(list(itertools.combinations(vertices, 2))) if size > 1 else st.nothing()))
    neighbours = {vertex: set() for vertex in vertices}
    for first, second in edges:
        neighbours[first].add(second)
        neighbours[second].add(first)
    return vertices, neighbours


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_size_is_exact(graph):
    vertices, neighbours = graph
    assert maximum_matching_size(vertices, neighbours) == brute_force_size(vertices, neighbours)


def test_an_odd_cycle_needs_the_blossom():
    # a triangle 1-2-3 with a tail 3-4 and 1-5: the greedy start 1-2 leaves 3, 4, 5; the answer is 2
    neighbours = {1: {2, 3, 5}, 2: {1, 3}, 3: {1, 2, 4}, 4: {3}, 5: {1}}
    assert maximum_matching_size([1, 2, 3, 4, 5], neighbours) == 2
    # two triangles joined by an edge through both of their free vertices: perfect matching of 6
    neighbours = {1: {2, 3}, 2: {1, 3}, 3: {1, 2, 4}, 4: {3, 5, 6}, 5: {4, 6}, 6: {4, 5}}
    assert maximum_matching_size([1, 2, 3, 4, 5, 6], neighbours) == 3
