"""What the bot tells a player in a practice Army match: a hint while choosing, and the accuracy of a finished match.

**The best card.** The opponent's hand is hidden: it is some of the number cards the seat has not seen (not in its
hand, not in the fighting graveyard), and any of them is as likely to be played as any other. A card's value is
what it gets, on average over every one of those cards, in :func:`bot.ai.army.payoff` (the hard player's own
measure of a round: a stamina point won or lost, more for the last one, and a little for the card spent); the best
card is the one with the highest value. This is exact (no sampling): it is the average the hard player estimates
from sampled hands. It reads the seat's own view only (its hand, and what everyone sees).

The armies' order changes nothing the rules count (every army must be worn down, whatever the order), so every
order of the armies is as good as any: the hint says so, and the review counts the rounds only.

**Accuracy** is Air War's measure (:func:`bot.ai.review.accuracy_percent`): each round's regret (the best card's
value minus the chosen card's) over its stake (the best card's value minus the worst one's), summed over the
rounds: 100% means the best card every round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from bot.ai.army import lethal, payoff
from bot.ai.review import SAME, accuracy_percent, player_summary, plays_alike
from bot.cards import is_red
from bot.games.army.engine import FIGHTING_CARDS, Army, fighting_value
from bot.replay import apply_move, moves_of, new_game


def _unseen(view: Mapping[str, Any]) -> list[str]:
    return sorted(set(FIGHTING_CARDS) - set(view["you"]["hand"]) - set(view["fighting_graveyard"]))


def card_values(view: Mapping[str, Any], seat: int) -> tuple[list[str], np.ndarray]:
    """The seat's hand and each card's value: its average payoff against every card the opponent might play."""
    hand = list(view["you"]["hand"])
    unseen = _unseen(view)
    if not unseen:  # (nothing left to meet: no card is better than another)
        return hand, np.zeros(len(hand))
    me, them = view["players"][seat], view["players"][1 - seat]
    return hand, payoff(hand, unseen, me, them).mean(axis=1)


def _reason(card: str, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """Why ``card``: a red card's ``attack`` (``won``: the unseen cards it beats, of ``count``; ``lethal`` when
    it can take the opponent's last stamina point); a black card's ``defend`` (``stopped``: the unseen red cards
    that cannot beat it, of ``reds``)."""
    unseen = _unseen(view)
    value = fighting_value(card)
    if is_red(card):
        return {"kind": "attack", "card": card, "won": sum(fighting_value(other) < value for other in unseen),
                "count": len(unseen), "lethal": lethal(view["players"][1 - seat])}
    reds = [other for other in unseen if is_red(other)]
    return {"kind": "defend", "card": card, "stopped": sum(fighting_value(other) <= value for other in reds),
            "reds": len(reds)}


def hint_data(view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The hint for ``seat`` from its own view, as plain data: ``{"phase": "arrange"}`` while the armies are set
    (any order is as good); in a round ``best`` (the card), ``reason`` (:func:`_reason`), ``alike`` (the cards as
    good) and ``close`` (a close second when none is)."""
    if view["phase"] == "arrange":
        return {"phase": "arrange"}
    hand, values = card_values(view, seat)
    best = int(np.argmax(values))
    alike, close = plays_alike(values, best)
    return {"phase": "play", "best": hand[best], "reason": _reason(hand[best], view, seat),
            "alike": [hand[index] for index in alike], "close": None if close is None else hand[close]}


def summary(match: Mapping[str, Any], seats: Sequence[int] = (0, 1)) -> dict[str, Any]:
    """A finished Army match's review as plain data, for the ``seats`` asked (the human players): ``{"players":
    {seat: player_summary}}`` (:func:`bot.ai.review.player_summary`; the step is the round)."""
    game = new_game(match)
    if not isinstance(game, Army):
        raise ValueError("only Army matches are reviewed here")
    regrets: dict[int, list[float]] = {seat: [] for seat in seats}
    stakes: dict[int, list[float]] = {seat: [] for seat in seats}
    worst: dict[int, tuple[float, int, str, str]] = {}
    for move in moves_of(match):
        if game.is_over:
            break
        plays = move.get("plays") if isinstance(move, Mapping) else None
        if plays is not None:
            for seat in seats:
                hand, values = card_values(game.view(seat), seat)
                top = int(np.argmax(values))
                regret = max(0.0, float(values[top] - values[hand.index(plays[seat])]))
                regrets[seat].append(regret)
                stakes[seat].append(float(values[top] - values.min()))
                if regret > max(SAME, worst.get(seat, (0.0,))[0]):
                    worst[seat] = (regret, game.stats.rounds + 1, hand[top], plays[seat])
        apply_move(game, move)
    players = {}
    for seat in seats:
        found = worst.get(seat)
        players[seat] = player_summary(accuracy_percent(regrets[seat], stakes[seat]),
                                       None if found is None else found[1],
                                       () if found is None else (found[2],), () if found is None else (found[3],))
    return {"players": players}
