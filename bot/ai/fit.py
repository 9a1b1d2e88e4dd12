"""Fit Air War's value models: a logistic win probability over each strength's card-count difference.

``python -m bot.ai.fit [--stacks 3,4,5] [--games 3000] [--seed 1] [--jobs 2]`` plays games between uniformly random
orders, records every engagement's position (how many cards of each strength each seat owns) with how the game
ended, fits ``P(seat 0 wins) = σ(Σ w_s · (n₀(s) − n₁(s)))`` (a draw counts ½; no intercept: the seats are alike)
by Newton's method with a light ridge penalty, and writes the weights to ``data/ai/airwar-values.json`` under
``"<deck>/<aces>/<stack>"``. The file is data the bot ships; this script is how it was made.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bot.ai.values import VALUES_PATH, model_key
from bot.cards import strength_table
from bot.games.airwar.engine import AirWar, pack_for
from bot.sim import SEED_STRIDE

RIDGE = 1e-3


def _positions(stack: int, deck: str, aces: str, seeds: range) -> tuple[list[list[int]], list[float]]:
    strength = strength_table(aces_high=aces == "high", tarot=deck == "tarot")
    levels = sorted({strength[card] for card in pack_for(deck)})
    rows: list[list[int]] = []
    labels: list[float] = []
    for seed in seeds:
        game = AirWar.new({"stack": stack, "deck": deck, "aces": aces}, seed=seed)
        chooser = random.Random(seed)
        game_rows = []
        while not game.is_over:
            counts = [Counter(strength[card] for card in game.decks[seat] + game.stacks[seat]) for seat in (0, 1)]
            game_rows.append([counts[0][level] - counts[1][level] for level in levels])
            for seat in (0, 1):
                if not game.is_over:
                    order = list(game.stacks[seat])
                    chooser.shuffle(order)
                    game.apply(seat, {"type": "order", "cards": order})
        assert game.outcome is not None
        label = 0.5 if game.outcome.winner is None else float(game.outcome.winner == 0)
        rows += game_rows
        labels += [label] * len(game_rows)
    return rows, labels


def fit(features: np.ndarray, labels: np.ndarray, iterations: int = 50) -> np.ndarray:
    """Logistic regression without intercept by Newton's method (labels in [0, 1])."""
    weights = np.zeros(features.shape[1])
    for _ in range(iterations):
        chance = 1.0 / (1.0 + np.exp(-features @ weights))
        gradient = features.T @ (chance - labels) + RIDGE * weights
        hessian = (features * (chance * (1 - chance))[:, None]).T @ features + RIDGE * np.eye(len(weights))
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return weights


def fit_model(stack: int, deck: str, aces: str, games: int, seed: int, jobs: int) -> dict[str, object]:
    chunks = [range(seed * SEED_STRIDE + start, seed * SEED_STRIDE + min(games, start + 250))
              for start in range(0, games, 250)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_positions, *zip(*[(stack, deck, aces, chunk) for chunk in chunks], strict=True)))
    features = np.array([row for rows, _ in parts for row in rows], dtype=float)
    labels = np.array([label for _, part_labels in parts for label in part_labels])
    weights = fit(features, labels)
    strength = strength_table(aces_high=aces == "high", tarot=deck == "tarot")
    levels = sorted({strength[card] for card in pack_for(deck)})
    predicted = 1.0 / (1.0 + np.exp(-features @ weights))
    return {
        "weights": {str(level): round(float(weight), 5) for level, weight in zip(levels, weights, strict=True)},
        "games": games, "positions": len(labels), "seed": seed,
        "log_loss": round(float(-np.mean(labels * np.log(predicted) + (1 - labels) * np.log(1 - predicted))), 5),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.fit", description=__doc__.splitlines()[0])
    parser.add_argument("--stacks", default="3,4,5,6,7")
    parser.add_argument("--decks", default="standard,jokers,tarot")
    parser.add_argument("--aces", default="high,low")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=VALUES_PATH)
    args = parser.parse_args(argv)
    stored = json.loads(args.out.read_text()) if args.out.exists() else {}
    for deck in args.decks.split(","):
        for aces in args.aces.split(","):
            for stack in (int(size) for size in args.stacks.split(",")):
                model = fit_model(stack, deck, aces, args.games, args.seed, args.jobs)
                stored[model_key(deck, aces, stack)] = model
                print(json.dumps({"model": model_key(deck, aces, stack), **model}), file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(dict(sorted(stored.items())), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
