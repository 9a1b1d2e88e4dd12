"""The words of a practice match against the bot: the hint and the accuracy (pure: from plain data)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label


def _worth(value: float) -> str:
    """A value in [-1, 1] as win-chance points for the reader (+1 a sure win, -1 a sure loss)."""
    return f"{50 * value:+.1f}"


def hint(step: int, data: Mapping[str, Any]) -> str:
    """The hint for engagement ``step`` (:func:`bot.ai.review.hint_data`)."""
    lines = [f"💡 **Hint** for engagement {step}: the equilibrium's orders, from what everyone sees."]
    for rank, (order, probability) in enumerate(data["orders"], start=1):
        lines.append(f"{rank}. {' '.join(card_label(card) for card in order)} — {100 * probability:.0f}%")
    lines.append(f"This engagement is worth **{_worth(data['value'])}** win-chance points to you, played well.")
    if data["draft_value"] is None:
        lines.append("-# Place every card to see what your order gets.")
    else:
        lines.append(f"Your order gets **{_worth(data['draft_value'])}** against my best mix.")
    return "\n".join(lines)


def accuracy(summary: Mapping[str, Any], mentions: Sequence[str]) -> str:
    """The accuracy line after a match (:func:`bot.ai.review.summary`): each player's, and the costliest
    engagement of each who lost anything."""
    scores = " · ".join(f"{mentions[seat]} **{score:.0f}%**" for seat, score in enumerate(summary["accuracy"]))
    lines = [f"🎯 **Accuracy** (each order against the equilibrium's): {scores}"]
    for seat, worst in enumerate(summary["costliest"]):
        if worst is not None:
            lines.append(f"{mentions[seat]}'s costliest engagement: **{worst['engagement']}** "
                         f"({worst['points']:.1f} win-chance points).")
    return "\n".join(lines)
