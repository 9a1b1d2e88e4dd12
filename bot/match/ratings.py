"""Skill ratings with openskill (Plackett-Luce): no rating math of our own, only the calls into the library.

A rating is openskill's ``mu`` and ``sigma``; what is stored and sorted on is openskill's ordinal, ``mu - 3 * sigma``
(0 for a new player, rising as the rating gets surer and better). A draw is a tie (equal ranks).

Players see the ordinal on a familiar scale (:func:`displayed`): 1500 for a new player, 24 points per unit of
ordinal (200 points per the default sigma, an Elo-like spread), a whole number, never below 0. It is openskill's own
rescaling, ``ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_START)``, applied to the stored ordinal, so it keeps the
stored order. A game of three or four is rated by finishing place (:meth:`Ratings.rate`). A rating is provisional
until the player has played :data:`MIN_GAMES` games on it; only then is the player ranked on a board.
"""

from __future__ import annotations

import itertools
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


def places_by_count(winner: int | None, counts: Sequence[int]) -> list[int] | None:
    """Finishing places in a game of three or four ranked by the cards each seat ends with: the winner first, then
    the others by their cards (seats holding as many share a place, the place after them skipped); ``None`` for two
    players (the winner first, the other second)."""
    if len(counts) <= 2:
        return None

    def standing(seat: int) -> tuple[bool, int]:
        return (seat != winner, -counts[seat])

    return [1 + sum(standing(other) < standing(seat) for other in range(len(counts))) for seat in range(len(counts))]


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

    def rate(self, skills: Sequence[Skill], winner: int | None,
             places: Sequence[int] | None = None) -> list[Skill]:
        """The players' new skills after one game (one player per team); ``winner`` is an index, ``None``: a draw.
        ``places``: each player's finishing place (1 first; players who finished together share a place), which
        openskill takes as ranks: in a game of three or four, second place gains on (or loses less than) third.
        Without it: the winner first, everyone else second."""
        if places is not None and len(places) != len(skills):
            raise ValueError(f"{len(places)} places for {len(skills)} players")
        if places is not None and len(skills) > 2 and len(set(places)) < len(places):
            return self._rate_shared(skills, places)
        ranks = (list(places) if places is not None
                 else [1 if winner is None or index == winner else 2 for index in range(len(skills))])
        return self._rate_ranks(skills, ranks)

    def _rate_ranks(self, skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
        teams = [[self.model.create_rating([skill.mu, skill.sigma])] for skill in skills]
        rated = self.model.rate(teams, ranks=list(ranks))
        return [Skill(team[0].mu, team[0].sigma, team[0].ordinal()) for team in rated]

    def _rate_shared(self, skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        """Places shared among three or more players: the mean of the ratings after every strict order of the
        players sharing a place. (openskill's Plackett-Luce rates a tie among more than two players below the
        place after it: players sharing first would gain less than the third.)"""
        groups = [[seat for seat, place in enumerate(places) if place == shared] for shared in sorted(set(places))]
        totals = [[0.0, 0.0] for _ in skills]
        orders = list(itertools.product(*(itertools.permutations(group) for group in groups)))
        for order in orders:
            ranks = [0] * len(skills)
            for rank, seat in enumerate(seat for group in order for seat in group):
                ranks[seat] = rank + 1
            for total, skill in zip(totals, self._rate_ranks(skills, ranks), strict=True):
                total[0] += skill.mu
                total[1] += skill.sigma
        return [self.skill(mu / len(orders), sigma / len(orders)) for mu, sigma in totals]
