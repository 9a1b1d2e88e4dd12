"""The words of an Air War practice match against the bot: the hint (pure: from :func:`bot.ai.review.hint_data`);
the accuracy is every game's (:func:`bot.render.practice.accuracy`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.cards import card_label
from bot.i18n import Texts
from bot.render import practice
from bot.render.common import ENGLISH


def _reason(reason: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """Why the order (:func:`bot.ai.review._reason`), as one sentence."""
    _ = say
    if reason["kind"] == "last":
        return _("Your {mine} comes last, when my {theirs} is most likely spent.",
                 mine=card_label(reason["mine"]), theirs=card_label(reason["theirs"]))
    if reason["kind"] == "spent":
        return _("Your weakest card, {mine}, most likely meets my strongest, {theirs}.",
                 mine=card_label(reason["mine"]), theirs=card_label(reason["theirs"]))
    return _.ngettext("Against my best play it wins about {won} of the {count} fight, and no order of yours gets "
                      "more out of this engagement.",
                      "Against my best play it wins about {won} of the {count} fights, and no order of yours gets "
                      "more out of this engagement.", reason["count"], won=reason["won"], count=reason["count"])


def _alike(alike: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    _ = say
    if alike["kind"] == "first":
        return _("Any order with {card} first works as well.", card=card_label(alike["card"]))
    if alike["kind"] == "last":
        return _("Any order with {card} last works as well.", card=card_label(alike["card"]))
    if alike["kind"] == "kept":
        return _("Any order that keeps {cards} where they are works as well.", cards=practice.cards(alike["cards"]))
    if alike["kind"] == "not_first":
        return _("Any order works as well, as long as {card} is not first.", card=card_label(alike["card"]))
    if alike["kind"] == "not_last":
        return _("Any order works as well, as long as {card} is not last.", card=card_label(alike["card"]))
    return _.ngettext("{count} other order works as well.", "{count} other orders work as well.", alike["count"],
                      count=alike["count"])


def hint(data: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """The hint (:func:`bot.ai.review.hint_data`) in ``say``'s language (the asker's): the order to play and why,
    which others are as good (or a close second), and how a complete order being built compares."""
    _ = say
    alike = data["alike"]
    if alike is not None and alike["kind"] == "any":
        lines = ["💡 " + _("**Hint:** any order works as well here: against my best play they all come out the "
                          "same.")]
    else:
        lines = [practice.head(data["best"], _reason(data["reason"], _), _)]
        more = _alike(alike, _) if alike is not None else practice.as_good((), data["close"], _)
        if more:
            lines.append(more)
    if data["draft"] is None:
        lines.append("-# " + _("Place every card to see how your order compares."))
    else:
        lines.append(_(practice.VERDICTS[data["draft"]]))
    return "\n".join(lines)
