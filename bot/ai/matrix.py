"""Zero-sum matrix games: the equilibrium by linear programming (HiGHS) and how far a strategy is from one.

The row player maximises ``p @ payoff @ q``; the column player minimises it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

#: HiGHS's simplex first, its interior point method when the simplex reports a numerical failure
METHODS = ("highs-ds", "highs-ipm")


@dataclass(frozen=True)
class Equilibrium:
    """Both players' mixed strategies and the game's value (to the row player)."""

    rows: np.ndarray
    columns: np.ndarray
    value: float


def _maximin(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The row player's maximin strategy: maximise v subject to ``p @ payoff >= v``, ``sum(p) = 1``, ``p >= 0``;
    with the column player's minimax strategy, read from the same program's dual."""
    m, n = payoff.shape
    objective = np.zeros(m + 1)
    objective[-1] = -1.0  # minimise -v
    # v - (p @ payoff)_j <= 0 for every column j
    upper = np.hstack([-payoff.T, np.ones((n, 1))])
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    for method in METHODS:  # a bounded, feasible LP: another method settles what one's numerics did not
        solved = linprog(objective, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds,
                         method=method)
        if solved.success:
            break
    else:
        raise RuntimeError(f"the linear program failed: {solved.message}")
    rows = np.clip(solved.x[:m], 0.0, None)
    columns = np.clip(-np.asarray(solved.ineqlin.marginals), 0.0, None)
    if columns.sum() <= 0:  # pragma: no cover - the duals of a solved program sum to one
        columns = np.full(n, 1.0 / n)
    return rows / rows.sum(), columns / columns.sum(), float(solved.x[-1])


def solve(payoff: np.ndarray) -> Equilibrium:
    """An equilibrium of the zero-sum game ``payoff`` (rows maximise)."""
    payoff = np.asarray(payoff, dtype=float)
    if payoff.ndim != 2 or 0 in payoff.shape:
        raise ValueError("a payoff matrix needs at least one row and one column")
    if np.ptp(payoff) == 0.0:  # every outcome the same: any strategy is optimal
        m, n = payoff.shape
        return Equilibrium(np.full(m, 1.0 / m), np.full(n, 1.0 / n), float(payoff[0, 0]))
    rows, columns, value = _maximin(payoff)
    return Equilibrium(rows, columns, value)


def exploitability(payoff: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> float:
    """What best responses gain against the pair of strategies, summed over both players (0 at an equilibrium):
    the row player's best reply to ``columns`` minus the column player's best reply to ``rows``."""
    payoff = np.asarray(payoff, dtype=float)
    return float(np.max(payoff @ columns) - np.min(rows @ payoff))
