"""Air War of three or four: the bot's order when more than two play.

With more than two players the engagement is no longer a zero-sum game of two, so there is no single equilibrium
to play. Each level answers what the others are likely to do instead:

* ``easy`` (also ``random``) and ``drawn`` play as with two (:func:`bot.ai.players.choose`);
* ``medium``: the order that loses fewest cards, relative to the others, if everyone else plays as drawn;
* ``hard`` and ``expert``: the order that does best on average against :data:`SAMPLES` draws of the others'
  orders, each uniformly random (drawn from the match's generator, so the same match chooses the same order).
  At six or seven cards the candidates are :data:`CANDIDATES` of the seat's orders, drawn the same way, with the
  order as drawn and the strongest-first and weakest-first orders.

An order is scored by the flips while the stacks last, exactly as the engine plays them (the highest card keeps
its own cards, every other fighter's cards on the table are discarded, a tie for highest goes on among the tied
only); a tie still open when a stack runs out is settled from the decks, which the score takes as even odds among
the tied. The score is the cards the others lose, on average, minus the cards the seat loses.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai.airwar import card_order, strength_orders
from bot.cards import strength_table

SAMPLES = 32
CANDIDATES = 240


def _strength(view: Mapping[str, Any]) -> Mapping[str, int]:
    rules = view["rules"]
    return strength_table(aces_high=rules["aces"] == "high", tarot=rules["deck"] == "tarot")


def lost_cards(orders: Mapping[int, Sequence[int]]) -> dict[int, float]:
    """Cards each seat of ``orders`` (seat -> strengths in play order) expects to lose in the engagement."""
    position = dict.fromkeys(orders, 0)
    lost = dict.fromkeys(orders, 0.0)
    while True:
        fighters = [seat for seat in orders if position[seat] < len(orders[seat])]
        if len(fighters) < 2:
            return lost
        table = dict.fromkeys(fighters, 0)
        while True:
            if any(position[seat] >= len(orders[seat]) for seat in fighters):  # settled from the decks
                for seat in fighters:
                    lost[seat] += table[seat] * (1 - 1 / len(fighters))
                return lost
            cards = {seat: orders[seat][position[seat]] for seat in fighters}
            for seat in fighters:
                position[seat] += 1
                table[seat] += 1
            best = max(cards.values())
            top = [seat for seat in fighters if cards[seat] == best]
            for seat in fighters:
                if seat not in top:
                    lost[seat] += table[seat]
            if len(top) == 1:
                break
            fighters = top


def _score(seat: int, orders: Mapping[int, Sequence[int]]) -> float:
    lost = lost_cards(orders)
    others = [other for other in orders if other != seat]
    return sum(lost[other] for other in others) / len(others) - lost[seat]


def choose_many(view: Mapping[str, Any], seat: int, level: str, rng: random.Random) -> list[str]:
    """The order (cards of the seat's stack) a player of ``level`` (``medium``, ``hard`` or ``expert``) locks in, in
    a game of three or four."""
    stack = list(view["stacks"][seat])
    strength = _strength(view)
    stacks = {other: [strength[card] for card in cards] for other, cards in enumerate(view["stacks"])
              if view["in_game"][other] and cards}
    mine = tuple(stacks[seat])
    candidates = strength_orders(mine)
    if len(candidates) > CANDIDATES:
        chosen = {mine, tuple(sorted(mine, reverse=True)), tuple(sorted(mine))}
        chosen.update(candidates[index] for index in rng.sample(range(len(candidates)), CANDIDATES))
        candidates = sorted(chosen)
    if level == "medium":
        samples = [{other: order for other, order in stacks.items() if other != seat}]
    else:
        samples = [{other: rng.sample(order, len(order)) for other, order in stacks.items() if other != seat}
                   for _ in range(SAMPLES)]
    best = max(candidates, key=lambda order: sum(_score(seat, {**sample, seat: order}) for sample in samples))
    return card_order(stack, best, strength)
