"""Seeding: the order of the players (seed 1 first) and where each seed starts in an elimination bracket.

Choices:

* players are seeded by rating, highest first; players without a rating come after every rated player;
* players the ratings do not separate (equal ratings, or no rating) are put in a random order by the
  ``random.Random`` the caller passes. Each such group is sorted by player id before it is shuffled, so the seeding
  depends on the players, their ratings and the rng, never on the order the players were listed in;
* a bracket has a power-of-two number of slots; the empty slots are byes and go to the top seeds;
* seeds are placed the standard way (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight): in every round the best remaining seed
  meets the worst one if all favourites win, so seeds 1 and 2 are in opposite halves and can only meet in the final.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from itertools import groupby

from bot.i18n import N_
from bot.tournaments.errors import InvalidTournament

Rating = float | int


def seed_order(players: Sequence[int], ratings: Mapping[int, Rating | None] | None = None,
               rng: random.Random | None = None) -> list[int]:
    """The players in seed order (seed 1 first). ``rng`` is needed only when some players are not separated by
    their ratings; without it such a field raises :class:`InvalidTournament`."""
    ratings = ratings or {}
    rated = sorted((p for p in players if ratings.get(p) is not None), key=lambda p: (-ratings[p], p))
    unrated = sorted(p for p in players if ratings.get(p) is None)
    groups = [list(group) for _, group in groupby(rated, key=lambda p: ratings[p])]
    if unrated:
        groups.append(unrated)
    order: list[int] = []
    for group in groups:
        if len(group) > 1:
            if rng is None:
                raise InvalidTournament(
                    N_("some players are not separated by a rating; seeding them needs a random order"))
            rng.shuffle(group)
        order.extend(group)
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds every player (at least 2)."""
    return max(2, 1 << math.ceil(math.log2(max(players, 1))))


def bracket_positions(size: int) -> list[int]:
    """The seeds (1-based) in slot order of a bracket of ``size`` slots; slots ``2i`` and ``2i+1`` meet first.

    Built by doubling: every seed ``s`` of the bracket of half the size is followed by its mirror ``2*half+1-s``,
    so each first-round pair sums to ``size + 1``."""
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    positions = [1]
    while len(positions) < size:
        mirror = 2 * len(positions) + 1
        positions = [seed for top in positions for seed in (top, mirror - top)]
    return positions


def first_round(players: int) -> list[tuple[int, int | None]]:
    """The first-round pairs of seeds (better seed first); ``None`` is a bye, which always faces a top seed."""
    size = bracket_size(players)
    positions = bracket_positions(size)
    return [(positions[i], positions[i + 1] if positions[i + 1] <= players else None) for i in range(0, size, 2)]
