"""Zero-sum matrix games: the equilibrium by linear programming (HiGHS) and how far a strategy is from one.

The row player maximises ``p @ payoff @ q``; the column player minimises it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

#: HiGHS's simplex first, then its interior point method, then its own choice, when one reports a failure
METHODS = ("highs-ds", "highs-ipm", "highs")


@dataclass(frozen=True)
class Equilibrium:
    """Both players' mixed strategies and the game's value (to the row player)."""

    rows: np.ndarray
    columns: np.ndarray
    value: float


def _maximin(payoff: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The row player's maximin strategy and the column player's minimax one (from the same program's dual).

    The payoff is first shifted and scaled into ``[1, 2]``, where the game's value is positive and the classic
    program applies: minimise ``sum(x)`` subject to ``payoff.T @ x >= 1``, ``x >= 0``; then ``p = x / sum(x)`` and the
    value is ``1 / sum(x)``. Well scaled, it is what HiGHS solves most reliably."""
    low, spread = float(payoff.min()), float(np.ptp(payoff))
    scaled = (payoff - low) / spread + 1.0
    m, n = scaled.shape
    for method in METHODS:  # another method settles what one's numerics did not
        solved = linprog(np.ones(m), A_ub=-scaled.T, b_ub=-np.ones(n), bounds=[(0.0, None)] * m, method=method)
        if solved.success:
            break
    else:
        return _iterated(payoff)
    total = float(solved.x.sum())
    rows = np.clip(solved.x, 0.0, None)
    columns = np.clip(-np.asarray(solved.ineqlin.marginals), 0.0, None)
    if columns.sum() <= 0:
        return _iterated(payoff)
    return rows / rows.sum(), columns / columns.sum(), (1.0 / total - 1.0) * spread + low


def _iterated(payoff: np.ndarray, rounds: int = 20_000) -> tuple[np.ndarray, np.ndarray, float]:
    """An approximate equilibrium by fictitious play, for the rare program no method solves: each player answers
    the other's average strategy so far (its exploitability is reported like any other's)."""
    m, n = payoff.shape
    row_counts, column_counts = np.zeros(m), np.zeros(n)
    row_totals, column_totals = np.zeros(m), np.zeros(n)
    row, column = 0, 0
    for _ in range(rounds):
        row_counts[row] += 1
        column_counts[column] += 1
        row_totals += payoff[:, column]
        column_totals += payoff[row, :]
        row, column = int(row_totals.argmax()), int(column_totals.argmin())
    rows, columns = row_counts / rounds, column_counts / rounds
    return rows, columns, float(rows @ payoff @ columns)


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
