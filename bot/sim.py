"""Play many games at random and report how they went (``python -m bot sim``).

Casino War is played against the house: its report is the house edge measured per unit bet, with a 95% confidence
interval, for the main bet and the tie bet, under each fixed strategy (always war, always surrender), next to the
exact figures for the rules (:mod:`bot.games.casinowar.odds`); ``--games`` counts hands per strategy.

Game ``i`` of a run with seed ``S`` is dealt from seed ``S * 2**32 + i``; in games that need decisions
(Air War, Army) each seat picks uniformly among its legal actions with a ``random.Random`` seeded from that
game's seed too. So a run's results depend only on the game, rules, seed and count, never on ``--jobs``.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from bot.game import Game
from bot.registry import game_class

SEED_STRIDE = 2**32
CHOICE_SALT = 0x5EED
REPORT_KEYS = (
    "games", "mean_rounds", "median_rounds", "p90_rounds", "max_rounds", "mean_wars",
    "wins", "draws", "cycles", "capped", "games_per_second",
)


@dataclass(frozen=True)
class GameResult:
    rounds: int
    wars: int
    winner: int | None
    reason: str


def game_seed(run_seed: int, index: int) -> int:
    return run_seed * SEED_STRIDE + index


def play_one(name: str, rules: Mapping[str, Any], seed: int) -> GameResult:
    game: Game = game_class(name).new(rules, seed=seed)
    if game.automatic:
        game.play_out(record=False)
    else:
        chooser = random.Random(seed ^ CHOICE_SALT)
        while not game.is_over:
            for seat in game.pending_seats():
                game.apply(seat, chooser.choice(game.legal_actions(seat)))
    assert game.outcome is not None
    return GameResult(game.stats.rounds, game.stats.wars, game.outcome.winner, game.outcome.reason)


def _play_chunk(name: str, rules: Mapping[str, Any], seeds: range) -> list[GameResult]:
    return [play_one(name, rules, seed) for seed in seeds]


def _chunks(first: int, count: int, size: int) -> list[range]:
    return [range(start, min(start + size, first + count)) for start in range(first, first + count, size)]


def run(
    name: str,
    games: int,
    seed: int,
    rules: Mapping[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    scripted: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games and return the report (keys ``REPORT_KEYS``; Casino War: :func:`house_edge`; a game
    whose engine module has its own ``simulate``, scripted players: that report, with ``scripted`` options)."""
    if name == HOUSE_GAME:
        return house_edge(games, seed, rules, progress=progress)
    own = getattr(import_module(game_class(name).__module__), "simulate", None)
    if own is not None:
        return own(games, seed, rules, **(scripted or {}))
    rules = game_class(name).resolve_rules(rules)  # refuse bad rules before any process starts
    first = game_seed(seed, 0)
    results: list[GameResult] = []
    started = time.perf_counter()
    if jobs <= 1:
        for chunk in _chunks(first, games, 500):
            results += _play_chunk(name, rules, chunk)
            if progress:
                progress(len(results), games)
    else:
        chunk_size = max(50, min(2000, math.ceil(games / (jobs * 8))))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, name, rules, chunk) for chunk in _chunks(first, games, chunk_size)]
            for future in futures:
                results += future.result()
                if progress:
                    progress(len(results), games)
    elapsed = time.perf_counter() - started
    return report(results, elapsed, _seats(name, rules))


def _seats(name: str, rules: Mapping[str, Any]) -> int:
    return game_class(name).new(rules, seed=0).num_players


def report(results: list[GameResult], elapsed: float, seats: int) -> dict[str, Any]:
    rounds = sorted(result.rounds for result in results)
    wins = [0] * seats
    for result in results:
        if result.winner is not None:
            wins[result.winner] += 1
    count = len(results)
    return {
        "games": count,
        "mean_rounds": round(statistics.fmean(rounds), 2) if rounds else 0,
        "median_rounds": statistics.median(rounds) if rounds else 0,
        "p90_rounds": rounds[min(count - 1, math.ceil(0.9 * count) - 1)] if rounds else 0,
        "max_rounds": rounds[-1] if rounds else 0,
        "mean_wars": round(statistics.fmean(r.wars for r in results), 3) if results else 0,
        "wins": wins,
        "draws": sum(1 for r in results if r.winner is None),
        "cycles": sum(1 for r in results if r.reason == "cycle"),
        "capped": sum(1 for r in results if r.reason == "capped"),
        "games_per_second": round(count / elapsed, 1) if elapsed > 0 else 0,
    }


def terminal_progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


HOUSE_GAME = "casinowar"
HANDS_PER_TABLE = 1000
#: the largest stake (a table is dealt again if a run of hands ever empties it)
BOTTOMLESS = 10_000_000
Z_95 = 1.959964


@dataclass
class Edge:
    """Per-hand results of one bet, per unit bet: running sums for the mean and its 95% interval."""

    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    def report(self, exact: float) -> dict[str, float]:
        """The house's edge (minus the player's mean return), its 95% interval and the exact figure (percent)."""
        mean = self.total / self.count
        spread = math.sqrt(max(0.0, self.squares / self.count - mean * mean) / self.count) * Z_95
        return {"edge": round(-mean * 100, 3), "low": round((-mean - spread) * 100, 3),
                "high": round((-mean + spread) * 100, 3), "exact": round(exact * 100, 3)}


def house_edge(hands: int, seed: int, rules: Mapping[str, Any] | None = None,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Casino War's house edge measured over ``hands`` hands for each strategy: one seat betting the table's
    smallest bet with the tie bet every hand, dealt by the engine (a new table every :data:`HANDS_PER_TABLE`
    hands, seeded from the run's seed); the main bet's result per unit bet (the raise of a war counts as part of
    it: the edge is per original bet, as published) and the tie bet's."""
    from bot.games.casinowar.odds import main_bet_edge, tie_bet_edge

    engine = game_class(HOUSE_GAME)
    given = {**dict(rules or {}), "players": 1, "stake": BOTTOMLESS, "stacks": None}
    resolved = engine.resolve_rules({**given, "hands": HANDS_PER_TABLE})
    bet, tie = resolved["min_bet"], resolved["tie_bet"] or resolved["min_bet"]
    resolved["tie_bet"] = tie
    report: dict[str, Any] = {"hands": hands, "decks": resolved["decks"], "tie_bonus": resolved["tie_bonus"]}
    started = time.perf_counter()
    for strategy in ("war", "surrender"):
        main, side = Edge(), Edge()
        played, table = 0, 0
        while played < hands:
            game = engine.new(resolved, seed=game_seed(seed, table))
            table += 1
            while not game.is_over and played < hands:
                events = game.apply(0, {"type": "bet", "amount": bet, "tie": tie})
                if game.view(None)["phase"] == "decide":
                    events += game.apply(0, {"type": strategy if game.legal_actions(0)[-1]["type"] == strategy
                                             else "surrender"})
                moved = {e["kind"]: e["amount"] for e in events if e["type"] == "chips"}
                side.add((moved.get("tie_bet", 0) + moved.get("tie_win", 0)) / tie)
                main.add(sum(a for k, a in moved.items() if k not in ("tie_bet", "tie_win")) / bet)
                played += 1
            if progress:
                progress(played, hands)
        exact = main_bet_edge(resolved["decks"], war=strategy == "war", bonus=resolved["tie_bonus"])
        report[f"main_{strategy}"] = main.report(float(exact))
        report[f"tie_{strategy}"] = side.report(float(tie_bet_edge(resolved["decks"])))
    report["hands_per_second"] = round(2 * hands / (time.perf_counter() - started), 1)
    return report


def format_house_edge(data: Mapping[str, Any]) -> str:
    bonus = "with" if data["tie_bonus"] else "without"
    lines = [f"hands            {data['hands']} per strategy, {data['decks']} decks, {bonus} the tie-after-tie bonus"]
    for key, what in (("main_war", "main bet, always war"), ("main_surrender", "main bet, always surrender"),
                      ("tie_war", "tie bet (10:1)")):
        edge = data[key]
        lines.append(f"{what:<27} house edge {edge['edge']:.3f}% (95% CI {edge['low']:.3f}% to {edge['high']:.3f}%),"
                     f" exact {edge['exact']:.3f}%")
    lines.append(f"speed            {data['hands_per_second']} hands/s")
    return "\n".join(lines)


def format_report(data: Mapping[str, Any]) -> str:
    if "main_war" in data:
        return format_house_edge(data)
    if "rounds_decided_by_a_wrong_press" in data:
        return "\n".join(f"{key.replace('_', ' '):<33}{value}" for key, value in data.items())
    lines = [
        f"games            {data['games']}",
        f"rounds           mean {data['mean_rounds']}, median {data['median_rounds']}, "
        f"p90 {data['p90_rounds']}, max {data['max_rounds']}",
        f"wars per game    {data['mean_wars']}",
        f"wins by seat     {', '.join(f'seat {i}: {n}' for i, n in enumerate(data['wins']))}",
        f"draws            {data['draws']} (cycles {data['cycles']}, capped games {data['capped']})",
        f"speed            {data['games_per_second']} games/s",
    ]
    return "\n".join(lines)
