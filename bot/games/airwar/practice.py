"""The words of a practice match against the bot: the hint and the accuracy (pure: from plain data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.i18n import Texts
from bot.render.common import ENGLISH


def _worth(value: float, say: Texts = ENGLISH) -> str:
    """A value in [-1, 1] as win-chance points for the reader (+1 a sure win, -1 a sure loss), signed, with one
    decimal in the language's form."""
    points = 50 * value
    return f"{points:+.1f}"[0] + say.number(abs(points), digits=1)


def _percent(value: float, say: Texts = ENGLISH) -> str:
    return say.number(value, digits=0)


def hint(step: int, data: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """The hint for engagement ``step`` (:func:`bot.ai.review.hint_data`), in ``say``'s language (the asker's)."""
    _ = say
    lines = [_("💡 **Hint** for engagement {number}: the equilibrium's orders, from what everyone sees.", number=step)]
    for rank, (order, probability) in enumerate(data["orders"], start=1):
        lines.append(f"{rank}. {' '.join(card_label(card) for card in order)} — "
                     + _("{percent}%", percent=_percent(100 * probability, _)))
    lines.append(_("This engagement is worth **{points}** win-chance points to you, played well.",
                   points=_worth(data["value"], _)))
    if data["draft_value"] is None:
        lines.append("-# " + _("Place every card to see what your order gets."))
    else:
        lines.append(_("Your order gets **{points}** against my best mix.", points=_worth(data["draft_value"], _)))
    return "\n".join(lines)


def accuracy(summary: Mapping[str, Any], mentions: Sequence[str], say: Texts = ENGLISH) -> str:
    """The accuracy line after a match (:func:`bot.ai.review.summary`): each player's, and the costliest
    engagement of each who lost anything; in ``say``'s language (the server's: it is posted in the match)."""
    _ = say
    scores = " · ".join(mentions[seat] + " **" + _("{percent}%", percent=_percent(score, _)) + "**"
                        for seat, score in enumerate(summary["accuracy"]))
    lines = [_("🎯 **Accuracy** (each order against the equilibrium's): {scores}", scores=scores)]
    for seat, worst in enumerate(summary["costliest"]):
        if worst is not None:
            lines.append(_("{player}'s costliest engagement: **{number}** ({points} win-chance points).",
                           player=mentions[seat], number=worst["engagement"],
                           points=say.number(worst["points"], digits=1)))
    return "\n".join(lines)
