"""How long default games of War, Drunkard and Tod und Leben take to show at auto pace: the sum of the pauses the
bot takes between the runs it plays (what players wait through), played by War's flow as the match kernel plays it.

    python -m tests.bench.war_pace [--games N] [--seed S]

Prints one JSON line per game: the shown seconds (median, p10, p90, max, the share within 2-3 minutes), the
rounds (median) and the table's edits (runs, median), the share of games that reached the round limit, and the
seeded deal the end-to-end test plays.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from bot import sim
from bot.games.war.flow import WarFlow, pause_after
from bot.registry import game_class

FLOW = WarFlow()
SITTING = (120.0, 180.0)
E2E_SEED = 1234


def shown(game_name: str, seed: int) -> tuple[float, int, int, str]:
    """One default game at auto pace: seconds shown, rounds, runs, how it ended."""
    cls = game_class(game_name)
    game = cls.new(cls.resolve_rules({}), seed=seed)
    options: dict[str, Any] = {"pace": "auto"}
    FLOW.settle(game, options, 0, started=True)
    seconds = pause_after(game)
    runs = 0
    while True:
        before = game.stats.rounds
        FLOW.play_auto(game)
        FLOW.settle(game, options, before, started=False)
        runs += 1
        if game.is_over:
            assert game.outcome is not None
            return seconds, game.stats.rounds, runs, game.outcome.reason
        seconds += pause_after(game)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.war_pace")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("war", "drunkard", "todundleben"):
        games = [shown(name, sim.game_seed(args.seed, index)) for index in range(args.games)]
        seconds = [game[0] for game in games]
        tenths = statistics.quantiles(seconds, n=10)
        print(json.dumps({
            "game": name, "games": args.games,
            "shown_seconds": {"median": round(statistics.median(seconds)), "p10": round(tenths[0]),
                              "p90": round(tenths[-1]), "max": round(max(seconds)),
                              "within_2_to_3_minutes": round(sum(SITTING[0] <= s <= SITTING[1] for s in seconds)
                                                             / len(seconds), 3)},
            "rounds_median": statistics.median(game[1] for game in games),
            "table_edits_median": statistics.median(game[2] for game in games),
            "capped": round(sum(game[3] == "capped" for game in games) / len(games), 3),
        }))
    seconds, rounds, runs, reason = shown("war", E2E_SEED)
    print(json.dumps({"e2e_deal": {"game": "war", "seed": E2E_SEED, "shown_seconds": round(seconds, 1),
                                   "rounds": rounds, "table_edits": runs, "reason": reason}}))


if __name__ == "__main__":
    main()
