"""The engine protocol: ``python -m bot engine [--level L]`` answers positions, one JSON line each way.

A request is ``{"id": ..., "match": <a match file, its moves so far>, "seat": s}``; the answer is
``{"id": ..., "order": [cards], "strategy": [[order, probability], ...], "value": v}``: the order the level plays
(drawn from its strategy with a generator seeded from the match's seed, engagement and seat, so the same request
gets the same answer), every order it plays with its probability, and the engagement's value to the seat in
``[-1, 1]`` under the fitted value model (the equilibrium's value at ``hard``; at other levels, what their strategy
gets against the opponent's best reply to it; three or four players: the order alone, with probability 1, and
``value`` null, see :mod:`bot.ai.many`). An Army request is answered ``{"id": ..., "armies": [...]}`` (the
order to set them in) or ``{"id": ..., "play": card}``, from the seat's own view. A request that cannot be answered
gets ``{"id": ..., "error": "..."}`` and the engine reads on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

import numpy as np

from bot.ai import army
from bot.ai.airwar import Engagement, Position, card_order
from bot.ai.oracle import equilibrium
from bot.ai.players import LEVELS, choose, expert_strategy
from bot.ai.values import value_model
from bot.cards import strength_table
from bot.errors import GameError
from bot.replay import MatchFileError, apply_move, moves_of, new_game


class RequestError(Exception):
    """A request the engine cannot answer; the message is the error line's text."""


def _position(request: Mapping[str, Any]) -> tuple[Any, int]:
    match = request.get("match")
    seat = request.get("seat")
    if not isinstance(match, Mapping):
        raise RequestError("'match' must be a match file (a JSON object)")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RequestError("'seat' must be a seat number: 0, 1, ... (one less than the players)")
    try:
        game = new_game(match)
        for number, move in enumerate(moves_of(match), start=1):
            if game.is_over:
                raise RequestError(f"move {number}: the game is already over")
            try:
                apply_move(game, move)
            except (GameError, MatchFileError) as error:
                raise RequestError(f"move {number}: {error}") from None
    except MatchFileError as error:
        raise RequestError(str(error)) from None
    if game.name not in ("airwar", "army"):
        raise RequestError(f"the engine plays Air War and Army; this match is {game.name}")
    if game.is_over:
        raise RequestError("the game is over: there is nothing to choose")
    if not 0 <= seat < game.num_players:
        raise RequestError(f"'seat' must be 0 to {game.num_players - 1} in a game of {game.num_players}")
    if seat not in game.pending_seats():
        raise RequestError(f"seat {seat} has already chosen in this step")
    return game, seat


def answer(request: Any, level: str = "hard") -> dict[str, Any]:
    """The answer line to one request (an error line when it cannot be answered)."""
    ident = request.get("id") if isinstance(request, Mapping) else None
    try:
        if not isinstance(request, Mapping):
            raise RequestError("a request is a JSON object with 'id', 'match' and 'seat'")
        game, seat = _position(request)
        if game.name == "army":  # the seat's own view: its hand, never the opponent's
            action = army.decide(game.view(seat), seat, level, f"{game.seed}:{game.stats.rounds}:{seat}")
            if action["type"] == "arrange":
                return {"id": ident, "armies": action["armies"]}
            return {"id": ident, "play": action["card"]}
        view = game.view(None)  # the public facts only: never the opponent's locked order
        rng = random.Random(f"{game.seed}:{game.engagement}:{seat}:{level}")
        order = choose(view, seat, level, rng)
        if len(view["stacks"]) > 2:  # no two-player game: the level's order is all there is
            return {"id": ident, "order": order, "strategy": [[order, 1.0]], "value": None}
        strategy, value = _strategy(view, seat, level)
        return {"id": ident, "order": order, "strategy": strategy, "value": round(value, 6)}
    except RequestError as error:
        return {"id": ident, "error": str(error)}


def _strategy(view: Mapping[str, Any], seat: int, level: str) -> tuple[list[list[Any]], float]:
    engagement = Engagement(Position.from_view(view), value_model(view["rules"]))
    found = equilibrium(engagement)
    orders = engagement.orders[seat]
    best = found.rows if seat == 0 else found.columns
    if level == "hard":
        mix = best
    elif level == "expert":
        mix = expert_strategy(view, seat)[1].strategy
    elif level == "easy":
        mix = np.full(len(orders), 1.0 / len(orders))
    else:
        chosen = tuple(strength_table_of(view)[card] for card in choose(view, seat, level, random.Random(0)))
        mix = np.array([1.0 if order == chosen else 0.0 for order in orders])
    sign = 1.0 if seat == 0 else -1.0
    if level == "hard":
        value = sign * found.value
    else:  # the level's mix against the opponent's best reply to it
        replies = [engagement.block(np.flatnonzero(mix), range(len(engagement.orders[1]))) if seat == 0
                   else -engagement.block(range(len(engagement.orders[0])), np.flatnonzero(mix)).T]
        value = float(np.min(mix[np.flatnonzero(mix)] @ replies[0]))
    stack = view["stacks"][seat]
    strength = strength_table_of(view)
    strategy = [[card_order(stack, order, strength), round(float(p), 6)]
                for order, p in zip(orders, mix, strict=True) if p > 1e-9]
    strategy.sort(key=lambda pair: -pair[1])
    return strategy, value


def strength_table_of(view: Mapping[str, Any]) -> Mapping[str, int]:
    rules = view["rules"]
    return strength_table(aces_high=rules["aces"] == "high", tarot=rules["deck"] == "tarot")


def serve(lines: Iterable[str], out: TextIO, level: str = "hard") -> int:
    """Answer every line of ``lines`` on ``out`` (flushed after each); returns how many were answered."""
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    answered = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            reply: dict[str, Any] = {"id": None, "error": f"not a JSON line: {error.msg}"}
        else:
            reply = answer(request, level)
        out.write(json.dumps(reply) + "\n")
        out.flush()
        answered += 1
    return answered
