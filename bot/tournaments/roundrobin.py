"""Round-robin schedule by the circle method.

The players are written in seed order around a circle (with an empty seat, the bye, when their number is odd);
seat 1 stays put and the others turn one place each round. Each round pairs the first seat with the last, the
second with the second last, and so on. Every pair meets exactly once: ``n - 1`` rounds for an even ``n``,
``n`` rounds for an odd ``n``, with one bye in each round (everyone sits out exactly once).
"""

from __future__ import annotations

from collections.abc import Sequence


def circle_schedule(seeded: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """The pairs of every round; a bye is ``(player, None)`` and comes last in its round."""
    seats: list[int | None] = list(seeded)
    if len(seats) % 2:
        seats.append(None)
    size = len(seats)
    rounds: list[list[tuple[int, int | None]]] = []
    for _ in range(size - 1):
        games: list[tuple[int, int | None]] = []
        byes: list[tuple[int, int | None]] = []
        for index in range(size // 2):
            first, second = seats[index], seats[size - 1 - index]
            if first is None or second is None:
                byes.append((first if second is None else second, None))  # type: ignore[arg-type]
            else:
                games.append((first, second))
        rounds.append(games + byes)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds
