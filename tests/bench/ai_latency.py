"""How long the `hard` (or `expert`) Air War opponent takes to choose an order, per engagement, at 3, 5 and 7 cards.

    python -m tests.bench.ai_latency [--positions N] [--seed S] [--budget SECONDS] [--level hard|expert]

Positions are the engagements of games played by random orders (every engagement of each game, until N per
stack size). Each solve is timed alone, on one core (one process, nothing else in it). Prints one JSON line:
per stack size, p50 / p99 / max seconds, how many solves ran out of the budget, and the largest exploitability
bound returned (the expert's: the equilibrium's bound plus what its shift may give up, and the largest share
of the best reply it mixed in, against the random orders the positions' history shows).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bot.ai.airwar import Engagement, Position
from bot.ai.habits import SHIFT_RESERVE, Habits, allowed_loss, shift
from bot.ai.oracle import BUDGET_SECONDS, equilibrium
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar


def positions(stack: int, count: int, seed: int):
    found = 0
    game_seed = seed
    while found < count:
        game = AirWar.new({"stack": stack}, seed=game_seed)
        chooser = random.Random(game_seed)
        while not game.is_over and found < count:
            yield game.view(None), game.rules
            found += 1
            for seat in (0, 1):
                order = list(game.stacks[seat])
                chooser.shuffle(order)
                game.apply(seat, {"type": "order", "cards": order})
        game_seed += 1


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=BUDGET_SECONDS)
    parser.add_argument("--stacks", default="3,5,7")
    parser.add_argument("--level", choices=("hard", "expert"), default="hard")
    args = parser.parse_args()
    report: dict[str, object] = {"level": args.level, "positions": args.positions, "budget_s": args.budget}
    expert = args.level == "expert"
    for stack in (int(size) for size in args.stacks.split(",")):
        seconds, bounds, shares, over = [], [], [], 0
        for view, rules in positions(stack, args.positions, args.seed):
            started = time.perf_counter()
            engagement = Engagement(Position.from_view(view), value_model(rules))
            found = equilibrium(engagement, args.budget - (SHIFT_RESERVE if expert else 0.0))
            bound = found.exploitability
            if expert:
                habits = Habits.of(view["played"], 1, strength_table(aces_high=True))
                shares.append(shift(engagement, 0, found, habits).share)
            seconds.append(time.perf_counter() - started)
            if expert:
                bound += allowed_loss(habits)
            bounds.append(bound)
            over += not found.complete
        report[f"stack_{stack}"] = {
            "p50_s": round(statistics.median(seconds), 4), "p99_s": round(percentile(seconds, 0.99), 4),
            "max_s": round(max(seconds), 4), "budget_hit": over, "max_exploitability": float(f"{max(bounds):.3g}"),
        } | ({"max_share": round(max(shares), 3)} if expert else {})
    print(json.dumps(report))


if __name__ == "__main__":
    main()
