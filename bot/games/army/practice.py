"""The words of an Army practice match against the bot: the hint (pure: from
:func:`bot.ai.army_review.hint_data`); the accuracy is every game's (:func:`bot.render.practice.accuracy`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import Texts
from bot.render import practice
from bot.render.common import ENGLISH


def _reason(reason: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """Why the card (:func:`bot.ai.army_review._reason`), as one sentence."""
    _ = say
    if reason["kind"] == "attack":
        if reason["lethal"]:
            return _.ngettext("It can take my last stamina point: it beats {won} of the {count} card I might have.",
                              "It can take my last stamina point: it beats {won} of the {count} cards I might "
                              "have.", reason["count"], won=reason["won"], count=reason["count"])
        return _.ngettext("A red card attacks: it beats {won} of the {count} card I might have.",
                          "A red card attacks: it beats {won} of the {count} cards I might have.", reason["count"],
                          won=reason["won"], count=reason["count"])
    return _.ngettext("A black card defends: it stops {stopped} of the {count} red card I might have.",
                      "A black card defends: it stops {stopped} of the {count} red cards I might have.",
                      reason["reds"], stopped=reason["stopped"], count=reason["reds"])


def hint(data: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """The hint (:func:`bot.ai.army_review.hint_data`) in ``say``'s language (the asker's): the card to play and
    why, and the cards as good (or a close second); while the armies are set, that any order will do."""
    _ = say
    if data["phase"] == "arrange":
        return "💡 " + _("**Hint:** any order of your armies works as well: each must be worn down, whatever the "
                        "order.")
    lines = [practice.head([data["best"]], _reason(data["reason"], _), _)]
    more = practice.as_good([[card] for card in data["alike"]], None if data["close"] is None else [data["close"]], _)
    if more:
        lines.append(more)
    return "\n".join(lines)
