"""Skill ratings with openskill (Plackett-Luce): no rating math of our own, only the calls into the library.

A rating is openskill's ``mu`` and ``sigma``; the number shown and sorted on is openskill's ordinal,
``mu - 3 * sigma`` (0 for a new player, rising as the rating gets surer and better). A draw is a tie (equal ranks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float
    ordinal: float


class Ratings:
    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or PlackettLuce()

    def initial(self) -> Skill:
        rating = self.model.rating()
        return Skill(rating.mu, rating.sigma, rating.ordinal())

    def skill(self, mu: float, sigma: float) -> Skill:
        return Skill(mu, sigma, self.model.create_rating([mu, sigma]).ordinal())

    def rate(self, skills: Sequence[Skill], winner: int | None) -> list[Skill]:
        """The players' new skills after one game (one player per team); ``winner`` is an index, ``None``: a draw."""
        teams = [[self.model.create_rating([skill.mu, skill.sigma])] for skill in skills]
        ranks = [1 if winner is None or index == winner else 2 for index in range(len(skills))]
        rated = self.model.rate(teams, ranks=ranks)
        return [Skill(team[0].mu, team[0].sigma, team[0].ordinal()) for team in rated]
