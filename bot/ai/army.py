"""Army opponents by level, from a seat's own view only (its hand and armies, and what everyone sees).

**Hidden information, and how it is handled.** The opponent's hand is unknown: it is some of the number cards not
seen (not in our hand, not in the fighting graveyard). ``hard`` samples that hand ``SAMPLES`` times from the unseen
cards and plays the card that does best on average against any card of a sampled hand (a best reply to a player
who cannot be read). A determinized equilibrium (each sampled round solved as a game of full information, the
strategies averaged) was measured and dropped: it played too cautiously and lost to a random player. The armies'
order changes nothing the rules count (every army's stamina must be worn down, whatever the order; at the round
limit the total stamina decides), so every level orders its armies at random: an order that carries no
information.

* ``easy``: a random card;
* ``medium``: a rule of thumb: the highest red card (an attack), else the lowest black one;
* ``hard``: the sampled best reply above, which also sees a last stamina point it can take or lose.

Each round's payoff: a winning red card costs the other's front army a stamina point (1), and ends the game when
it was the last point of the last army (``LETHAL``); the card played is lost, worth a little for later
(``KEEP`` times its number for a red card, half that for a black one).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bot.cards import is_red
from bot.games.army.engine import FIGHTING_CARDS, fighting_value

LEVELS = ("hard", "medium", "easy")
SAMPLES = 16
LETHAL = 5.0
KEEP = 0.03


def _worth(card: str) -> float:
    return KEEP * fighting_value(card) * (1.0 if is_red(card) else 0.5)


def lethal(player: Mapping[str, Any]) -> bool:
    """Whether one more stamina point lost ends the game for ``player`` (its last point of its last army)."""
    front = player.get("front")
    return front is not None and front["stamina"] == 1 and player["armies_left"] == 1


def payoff(mine: Sequence[str], theirs: Sequence[str], me: Mapping[str, Any], them: Mapping[str, Any]) -> np.ndarray:
    """Our value of each pair of cards (rows: ours, columns: theirs) for one round."""
    table = np.zeros((len(mine), len(theirs)))
    for row, card in enumerate(mine):
        for column, other in enumerate(theirs):
            ours, their = fighting_value(card), fighting_value(other)
            value = 0.0
            if ours > their and is_red(card):
                value = LETHAL if lethal(them) else 1.0
            elif their > ours and is_red(other):
                value = -LETHAL if lethal(me) else -1.0
            table[row, column] = value - _worth(card) + _worth(other)
    return table


def _hands(view: Mapping[str, Any], seat: int, rng: random.Random) -> list[list[str]]:
    unseen = sorted(set(FIGHTING_CARDS) - set(view["you"]["hand"]) - set(view["fighting_graveyard"]))
    size = min(view["players"][1 - seat]["hand_size"], len(unseen))
    return [rng.sample(unseen, size) for _ in range(SAMPLES)] if size else []


def strategy(view: Mapping[str, Any], seat: int, level: str, rng: random.Random) -> tuple[list[str], np.ndarray]:
    """The seat's hand and the probability its level plays each card this round."""
    hand = list(view["you"]["hand"])
    if level == "easy":
        return hand, np.full(len(hand), 1.0 / len(hand))
    if level == "medium":  # a rule of thumb: attack with the highest red card, else give up the lowest black one
        reds = [card for card in hand if is_red(card)]
        pick = max(reds, key=fighting_value) if reds else min(hand, key=fighting_value)
        return hand, np.array([1.0 if card == pick else 0.0 for card in hand])
    me, them = view["players"][seat], view["players"][1 - seat]
    hands = _hands(view, seat, rng)
    if not hands:
        return hand, np.full(len(hand), 1.0 / len(hand))
    values = sum(payoff(hand, theirs, me, them).mean(axis=1) for theirs in hands)
    best = np.flatnonzero(values >= values.max() - 1e-12)
    mix = np.zeros(len(hand))
    mix[best] = 1.0 / len(best)
    return hand, mix


def decide(view: Mapping[str, Any], seat: int, level: str, key: str) -> dict[str, Any]:
    """The action the bot's Army seat plays (the plugin's ``opponent``): its armies' order, or this round's card."""
    if level not in LEVELS:
        raise ValueError(f"no Army player of level {level!r}; the levels are {', '.join(LEVELS)}")
    rng = random.Random(key)
    if view["phase"] == "arrange":
        armies = [army["army"] for army in view["you"]["armies"]]
        rng.shuffle(armies)
        return {"type": "arrange", "armies": armies}
    hand, mix = strategy(view, seat, level, rng)
    point, total = rng.random(), 0.0
    for card, probability in zip(hand, mix, strict=True):
        total += float(probability)
        if point < total:
            return {"type": "play", "card": card}
    return {"type": "play", "card": hand[int(np.flatnonzero(mix)[-1])]}
