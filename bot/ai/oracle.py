"""An engagement's equilibrium within a time budget: the full matrix when it is small, double oracle when not.

Double oracle grows a restricted game from a few orders of each seat: solve it, find each seat's best reply among
*all* its orders to the other's restricted equilibrium, add the replies, again, until neither reply gains (an
equilibrium of the whole game) or the budget is spent. Either way the answer carries its exploitability: what the
two best replies gain against the strategies returned (0 at an equilibrium), a bound on how far from one it is.
Only the rows and columns the restricted game touches are ever computed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from bot.ai.airwar import Engagement
from bot.ai.matrix import RestrictedGame, exploitability, solve

#: beyond this many cells the full matrix is not built
FULL_MATRIX_CELLS = 40_000
#: the default budget of one solve, in seconds (the bot answers within 2 s at 7 cards)
BUDGET_SECONDS = 1.5
#: the best replies added to the restricted game per round (the best first)
REPLIES = 4
#: a gap below this ends double oracle: the strategies are an equilibrium
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Solution:
    """Each seat's mixed strategy over its orders (full length; zeros off the support), seat 0's value, the
    exploitability bound, whether the budget ran out first, and the seconds taken."""

    rows: np.ndarray
    columns: np.ndarray
    value: float
    exploitability: float
    complete: bool
    seconds: float


def equilibrium(engagement: Engagement, budget: float = BUDGET_SECONDS) -> Solution:
    started = time.perf_counter()
    m, n = (len(orders) for orders in engagement.orders)
    if m * n <= FULL_MATRIX_CELLS:
        matrix = engagement.matrix()
        found = solve(matrix)
        return Solution(found.rows, found.columns, found.value,
                        exploitability(matrix, found.rows, found.columns), True, time.perf_counter() - started)
    return _double_oracle(engagement, budget, started)


def _double_oracle(engagement: Engagement, budget: float, started: float) -> Solution:
    m, n = (len(orders) for orders in engagement.orders)
    # start from each seat's order as drawn (a legal order; index of the drawn strengths)
    rows = [engagement.orders[0].index(engagement.position.stacks[0])]
    columns = [engagement.orders[1].index(engagement.position.stacks[1])]
    all_rows = engagement.block(range(m), columns)  # every row against the restricted columns
    all_columns = engagement.block(rows, range(n))  # the restricted rows against every column
    restricted = RestrictedGame()
    restricted.add_rows(np.zeros((1, 0)))
    restricted.add_columns(all_rows[rows, :])
    best: Solution | None = None
    while True:
        found = restricted.solve()
        replies_of_rows = all_rows @ found.columns  # each of seat 0's orders against seat 1's mix
        replies_of_columns = found.rows @ all_columns
        gap = float(replies_of_rows.max() - replies_of_columns.min())
        row_mix, column_mix = np.zeros(m), np.zeros(n)
        row_mix[rows], column_mix[columns] = found.rows, found.columns
        elapsed = time.perf_counter() - started
        if best is None or gap < best.exploitability:
            best = Solution(row_mix, column_mix, found.value, max(gap, 0.0), gap <= TOLERANCE, elapsed)
        if gap <= TOLERANCE or elapsed >= budget:
            return Solution(best.rows, best.columns, best.value, best.exploitability, best.complete, elapsed)
        new_rows = [row for row in np.argsort(-replies_of_rows)[:REPLIES * 2].tolist()
                    if row not in rows and replies_of_rows[row] > found.value + TOLERANCE][:REPLIES]
        new_columns = [column for column in np.argsort(replies_of_columns)[:REPLIES * 2].tolist()
                       if column not in columns and replies_of_columns[column] < found.value - TOLERANCE][:REPLIES]
        if not new_rows and not new_columns:  # no reply gains more than the tolerance: numerically done
            return Solution(best.rows, best.columns, best.value, best.exploitability, True, elapsed)
        if new_rows:
            rows += new_rows
            restricted.add_rows(all_rows[new_rows, :])
            all_columns = np.vstack([all_columns, engagement.block(new_rows, range(n))])
        if new_columns:
            columns += new_columns
            all_rows = np.hstack([all_rows, engagement.block(range(m), new_columns)])
            restricted.add_columns(all_rows[rows, -len(new_columns):])
