"""Zero-sum matrix games: the equilibrium by linear programming (HiGHS) and how far a strategy is from one.

The row player maximises ``p @ payoff @ q``; the column player minimises it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

try:  # HiGHS as scipy ships it: a model that grows and is solved again from its last basis
    from scipy.optimize._highspy._core import HighsModelStatus
    from scipy.optimize._highspy._core import _Highs as Highs
    from scipy.optimize._highspy._core import kHighsInf as INFINITY
except ImportError:  # another scipy: every restricted game is solved afresh
    Highs = None

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


class RestrictedGame:
    """A zero-sum game grown by rows and columns, solved again after each growth from the last simplex basis.

    The program: maximise ``v`` subject to ``v <= sum_i x_i payoff[i, j]`` for every column ``j``, ``sum(x) = 1``,
    ``x >= 0``; the column player's strategy is the constraints' duals. Without HiGHS's model (another scipy), or
    when a solve does not end optimal, the whole game is solved afresh by :func:`solve`.
    """

    def __init__(self) -> None:
        self.payoff = np.zeros((0, 0))
        self._model = None
        if Highs is not None:
            model = Highs()
            model.setOptionValue("output_flag", False)
            model.addCol(-1.0, -INFINITY, INFINITY, 0, np.array([], dtype=np.int32), np.array([]))  # -v, minimised
            model.addRow(1.0, 1.0, 0, np.array([], dtype=np.int32), np.array([]))  # the row mix sums to 1
            self._model = model

    def add_rows(self, payoff: np.ndarray) -> None:
        """Rows against the game's columns (``k x columns``)."""
        payoff = np.asarray(payoff, dtype=float)
        assert payoff.ndim == 2 and payoff.shape[1] == self.payoff.shape[1], "rows against every column"
        if self._model is not None:
            constraints = np.arange(self.payoff.shape[1] + 1, dtype=np.int32)
            for row in payoff:
                self._model.addCol(0.0, 0.0, INFINITY, len(constraints), constraints, np.concatenate(([1.0], -row)))
        self.payoff = np.vstack([self.payoff, payoff])

    def add_columns(self, payoff: np.ndarray) -> None:
        """Columns against the game's rows (``rows x k``)."""
        payoff = np.asarray(payoff, dtype=float)
        assert payoff.ndim == 2 and payoff.shape[0] == self.payoff.shape[0], "columns against every row"
        if self._model is not None:
            variables = np.arange(self.payoff.shape[0] + 1, dtype=np.int32)
            for column in payoff.T:
                self._model.addRow(-INFINITY, 0.0, len(variables), variables, np.concatenate(([1.0], -column)))
        self.payoff = np.hstack([self.payoff, payoff])

    def solve(self) -> Equilibrium:
        if self._model is not None and self.payoff.size and np.ptp(self.payoff) > 0.0:
            self._model.run()
            if self._model.getModelStatus() == HighsModelStatus.kOptimal:
                solution = self._model.getSolution()
                rows = np.clip(np.asarray(solution.col_value[1:]), 0.0, None)
                columns = np.abs(np.asarray(solution.row_dual[1:]))
                if rows.sum() > 0 and columns.sum() > 0:
                    rows, columns = rows / rows.sum(), columns / columns.sum()
                    return Equilibrium(rows, columns, float(np.min(rows @ self.payoff)))
        return solve(self.payoff)
