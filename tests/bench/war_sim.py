"""Classic 2-player War with default rules: games per second with one process and with two.

    python -m tests.bench.war_sim [--games N] [--seed S] [--json]

Prints one JSON line: the `sim` report of each run (jobs 1, jobs 2) and the speed-up.
"""

from __future__ import annotations

import argparse
import json
import os

from bot import sim


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.war_sim")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="accepted for symmetry; the output is always JSON")
    args = parser.parse_args()
    one = sim.run("war", args.games, args.seed, jobs=1)
    two = sim.run("war", args.games, args.seed, jobs=2)
    same = {k: v for k, v in one.items() if k != "games_per_second"} == {
        k: v for k, v in two.items() if k != "games_per_second"
    }
    print(json.dumps({
        "cpus": os.cpu_count(),
        "jobs_1": one,
        "jobs_2": two,
        "speedup": round(two["games_per_second"] / one["games_per_second"], 2),
        "results_identical": same,
    }))


if __name__ == "__main__":
    main()
