"""Air War (or Army) players against each other: each seat's score over many games, with a 95% interval.

Game ``i`` is dealt from seed ``seed * 2**32 + i`` and the players swap seats every other game, so neither level
gets the better seat; a win scores 1, a draw 1/2. Each seat's choices come from a ``random.Random`` seeded from
the game's seed and the seat, so a run depends only on its arguments, never on ``jobs``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.ai import army
from bot.ai.players import choose
from bot.games.airwar.engine import AirWar
from bot.games.army.engine import Army
from bot.sim import SEED_STRIDE

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class ArenaReport:
    """``scores[k]``: player ``k``'s points (win 1, draw 1/2) over ``games``; ``intervals[k]`` its share's 95%
    interval (normal approximation of the per-game scores)."""

    players: tuple[str, str]
    games: int
    scores: tuple[float, float]
    draws: int
    intervals: tuple[tuple[float, float], tuple[float, float]]
    engagements: float

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players), "games": self.games, "draws": self.draws,
            "score": {name: round(score / self.games, 4) for name, score in zip(self.players, self.scores,
                                                                                strict=True)},
            "interval_95": {name: [round(low, 4), round(high, 4)]
                            for name, (low, high) in zip(self.players, self.intervals, strict=True)},
            "mean_engagements": round(self.engagements, 2),
        }


def play_game(players: Sequence[str], rules: Mapping[str, Any], seed: int, game_name: str = "airwar") -> \
        tuple[float, int]:
    """One game; ``players[0]`` sits in seat 0. Returns seat 0's points and the rounds (engagements) played."""
    if game_name == "army":
        return _play_army(players, rules, seed)
    game = AirWar.new(rules, seed=seed)
    choosers = [random.Random(seed * 2 + seat) for seat in (0, 1)]
    while not game.is_over:
        view = game.view(None)
        orders = [choose(view, seat, players[seat], choosers[seat]) for seat in (0, 1)]
        for seat in (0, 1):
            if not game.is_over:
                game.apply(seat, {"type": "order", "cards": orders[seat]})
    assert game.outcome is not None
    winner = game.outcome.winner
    return (0.5 if winner is None else float(winner == 0)), game.engagement


def _play_army(players: Sequence[str], rules: Mapping[str, Any], seed: int) -> tuple[float, int]:
    game = Army.new(rules, seed=seed)
    while not game.is_over:
        for seat in game.pending_seats():
            if not game.is_over:
                key = f"{seed}:{game.stats.rounds}:{seat}"
                game.apply(seat, army.decide(game.view(seat), seat, players[seat], key))
    assert game.outcome is not None
    winner = game.outcome.winner
    return (0.5 if winner is None else float(winner == 0)), game.stats.rounds


def _first_player_points(players: tuple[str, str], rules: Mapping[str, Any], seed: int, index: int,
                         game_name: str) -> tuple[float, int]:
    swapped = index % 2 == 1
    seated = players[::-1] if swapped else players
    points, engagements = play_game(seated, rules, seed * SEED_STRIDE + index, game_name)
    return (1.0 - points if swapped else points), engagements


def _chunk(players: tuple[str, str], rules: Mapping[str, Any], seed: int, indices: range,
           game_name: str) -> list[tuple[float, int]]:
    return [_first_player_points(players, rules, seed, index, game_name) for index in indices]


def run(players: tuple[str, str], games: int, rules: Mapping[str, Any] | None = None, seed: int = 1,
        jobs: int = 1, game_name: str = "airwar") -> ArenaReport:
    resolved = (Army if game_name == "army" else AirWar).resolve_rules(rules)
    size = max(1, math.ceil(games / max(1, jobs * 4)))
    chunks = [range(start, min(games, start + size)) for start in range(0, games, size)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_chunk, *zip(*[(players, resolved, seed, chunk, game_name) for chunk in chunks],
                                               strict=True)))
    else:
        parts = [_chunk(players, resolved, seed, chunk, game_name) for chunk in chunks]
    results = [result for part in parts for result in part]
    first = [points for points, _ in results]
    mean = sum(first) / games
    deviation = math.sqrt(sum((p - mean) ** 2 for p in first) / max(1, games - 1))
    half = Z_95 * deviation / math.sqrt(games)
    return ArenaReport(
        players=players, games=games, scores=(sum(first), games - sum(first)),
        draws=sum(points == 0.5 for points in first),
        intervals=((max(0.0, mean - half), min(1.0, mean + half)), (max(0.0, 1 - mean - half),
                                                                   min(1.0, 1 - mean + half))),
        engagements=sum(engagements for _, engagements in results) / games,
    )
