"""Skill ratings with openskill (Plackett-Luce): no rating math of our own, only the calls into the library.

A rating is openskill's ``mu`` and ``sigma``; what is stored and sorted on is openskill's ordinal, ``mu - 3 * sigma``
(0 for a new player, rising as the rating gets surer and better). A draw is a tie (equal ranks).

Players see the ordinal on a familiar scale (:func:`displayed`): 1500 for a new player, 24 points per unit of
ordinal (200 points per the default sigma, an Elo-like spread), a whole number, never below 0. It is openskill's own
rescaling, ``ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_START)``, applied to the stored ordinal, so it keeps the
stored order. A rating is provisional until the player has played :data:`MIN_GAMES` games on it; only then is the
player ranked on a board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MIN_GAMES = 3  #: games on a rating before it is no longer provisional (and the player is ranked on a board)
DISPLAY_START = 1500  #: a new player's displayed rating (ordinal 0)
DISPLAY_SCALE = 24.0  #: displayed points per unit of ordinal: 200 per openskill's default sigma (25/3)


def displayed(ordinal: float) -> int:
    """The rating players see for a stored ordinal: ``DISPLAY_START + DISPLAY_SCALE * ordinal``, rounded, at
    least 0. Non-decreasing in the ordinal, so a board sorted by ordinal is sorted by the displayed rating."""
    return max(0, round(DISPLAY_START + DISPLAY_SCALE * ordinal))


def is_provisional(games: int, min_games: int = MIN_GAMES) -> bool:
    """Whether a rating played ``games`` times is still provisional."""
    return games < min_games


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
