"""Swiss pairing of one round.

Choices:

* players are ranked for pairing by score (a win, a forfeit win and a bye are 1, a draw 0.5), then by seed;
  tie-breaks are for the standings, not for pairing;
* within a score group the top half meets the bottom half in order (1 v 4, 2 v 5, 3 v 6 in a group of six,
  as the Dutch system does); a player left over floats down to the nearest score group;
* no rematch while one is avoidable: the search is exact, so if any pairing of the round without a rematch
  exists, one is found; otherwise the fewest rematches are allowed. Among the pairings with the fewest rematches
  the first in the preference order above is taken. A backtracking search (failed sub-fields remembered) finds it
  quickly while most pairs have not met; past a fixed number of steps a greedy search guided by maximum matchings
  (:mod:`.matching`, polynomial) takes over and makes the very same choice;
* with an odd field the bye goes to the lowest-ranked player who has not had one, unless only another bye makes
  a pairing with fewer rematches possible (then the lowest-ranked such player). Nobody gets a second bye: if every
  player has had one, there is no pairing (:func:`pair_round` returns ``None``).

The number of rounds is capped at what a round robin would need (see :func:`max_rounds`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

from bot.tournaments.matching import maximum_matching_size


def default_rounds(players: int) -> int:
    """ceil(log2 players), at least 1: enough rounds for a single unbeaten player in a field of that size."""
    return max(1, math.ceil(math.log2(max(players, 2))))


def max_rounds(players: int) -> int:
    """The most rounds a Swiss of this size may have: ``n - 1`` (``n`` for an odd field, so the byes never run
    out without disqualifications)."""
    return players if players % 2 else players - 1


@dataclass(frozen=True)
class Pairing:
    pairs: list[tuple[int, int]]
    bye: int | None
    rematches: int


#: Positions the backtracking search may visit before the exact matching-guided search takes over.
SEARCH_BUDGET = 20_000


def pair_round(ranked: Sequence[int], scores: Mapping[int, float], met: Set[frozenset[int]],
               had_bye: Set[int], budget: int = SEARCH_BUDGET) -> Pairing | None:
    """Pair ``ranked`` (best first). ``met`` holds the pairs who have met, ``had_bye`` who has had a bye.
    ``None`` when no pairing exists (fewer than two players, or an odd field where everyone has had a bye).

    Both searches return the same pairing: the first in preference order (see :class:`_Search`) among those with
    the fewest rematches, the bye going to the first candidate (lowest-ranked first) that allows that fewest. The
    backtracking search is quick where most pairs have not met; where it runs out of ``budget`` the guided one,
    polynomial, takes over."""
    if len(ranked) < 2:
        return None
    if len(ranked) % 2:
        bye_candidates: list[int | None] = [player for player in reversed(ranked) if player not in had_bye]
        if not bye_candidates:
            return None
    else:
        bye_candidates = [None]
    search = _Search(scores, met, budget)
    try:
        return search.backtracking(ranked, bye_candidates)
    except _OverBudget:
        return search.guided(ranked, bye_candidates)


class _OverBudget(Exception):
    pass


class _Search:
    def __init__(self, scores: Mapping[int, float], met: Set[frozenset[int]], budget: int) -> None:
        self.scores = scores
        self.met = met
        self.budget = budget
        self.failed: set[tuple[tuple[int, ...], int]] = set()

    def backtracking(self, ranked: Sequence[int], bye_candidates: Sequence[int | None]) -> Pairing:
        for allowed in range(len(ranked) // 2 + 1):
            for bye in bye_candidates:
                field = tuple(player for player in ranked if player != bye)
                pairs = self.pair(field, allowed)
                if pairs is not None:
                    return Pairing(pairs, bye, sum(frozenset(pair) in self.met for pair in pairs))
        raise AssertionError("a field of an even size can always be paired when rematches are allowed")

    def pair(self, field: tuple[int, ...], allowed: int) -> list[tuple[int, int]] | None:
        """Pairs for ``field`` (ranked) with at most ``allowed`` rematches; ``None`` if there are none."""
        if not field:
            return []
        if (field, allowed) in self.failed:
            return None
        self.budget -= 1
        if self.budget < 0:
            raise _OverBudget
        top, others = field[0], field[1:]
        for opponent in self.preferences(top, others):
            rematch = frozenset((top, opponent)) in self.met
            if rematch and not allowed:
                continue
            rest = tuple(player for player in others if player != opponent)
            found = self.pair(rest, allowed - rematch)
            if found is not None:
                return [(top, opponent), *found]
        self.failed.add((field, allowed))
        return None

    def guided(self, ranked: Sequence[int], bye_candidates: Sequence[int | None]) -> Pairing:
        """The same choice as :meth:`backtracking`, made greedily: an opponent is taken only if a maximum matching
        shows the rest can still be paired within the rematches left."""
        fresh = {player: {other for other in ranked if other != player and frozenset((player, other)) not in self.met}
                 for player in ranked}

        def fewest_rematches(field: Sequence[int]) -> int:
            return len(field) // 2 - maximum_matching_size(field, fresh)

        fields = [[player for player in ranked if player != bye] for bye in bye_candidates]
        needed = [fewest_rematches(field) for field in fields]
        choice = needed.index(min(needed))
        remaining, allowance, bye = fields[choice], needed[choice], bye_candidates[choice]
        pairs: list[tuple[int, int]] = []
        while remaining:
            top, others = remaining[0], tuple(remaining[1:])
            for opponent in self.preferences(top, others):
                rematch = frozenset((top, opponent)) in self.met
                rest = [player for player in others if player != opponent]
                if rematch <= allowance and fewest_rematches(rest) <= allowance - rematch:
                    pairs.append((top, opponent))
                    allowance -= rematch
                    remaining = rest
                    break
            else:
                raise AssertionError("the maximum matching promised a pairing")
        return Pairing(pairs, bye, min(needed))

    def preferences(self, top: int, others: tuple[int, ...]) -> list[int]:
        """``top``'s opponents, most wanted first: its score group top-half-against-bottom-half, then the other
        players by how far their score is from ``top``'s (nearer first, then by rank)."""
        score = self.scores[top]
        same = [player for player in others if self.scores[player] == score]
        group_size = len(same) + 1
        if same:
            partner = group_size // 2 - 1  # top's Dutch partner in ``same``
            preferred = same[partner:] + same[:partner][::-1]
        else:
            preferred = []
        rest = sorted((player for player in others if self.scores[player] != score),
                      key=lambda player: abs(self.scores[player] - score))  # stable: rank breaks ties
        return preferred + rest
