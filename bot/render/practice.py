"""The words every practice match against the bot shares: a hint's head and its "as good" lines, and the accuracy
posted after the match (pure: from the plain data of :mod:`bot.ai.review` and :mod:`bot.ai.army_review`).

Plain words only: the best play and why, never a probability or a value; the accuracy as "how close your plays
came to the best play" (100% = the best play every engagement, or round)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.i18n import N_, Texts
from bot.render.common import ENGLISH

#: the hint's first line: the play, then why (a whole sentence of the game's)
HINT = N_("💡 **Hint:** play **{play}**.")
#: how a complete draft compares with the best play (:func:`bot.ai.review.draft_verdict`)
VERDICTS = {"best": N_("Your order as it stands is one of the best."),
            "close": N_("Your order as it stands is almost as good as the best."),
            "weaker": N_("Your order as it stands is weaker than the best.")}


def cards(play: Sequence[str]) -> str:
    """A play (one card or an order) as the hint shows it: ``J♠ K♣ A♦``."""
    return " ".join(card_label(card) for card in play)


def head(play: Sequence[str], reason: str, say: Texts = ENGLISH) -> str:
    """``💡 Hint: play X. <reason>`` on one line."""
    return f"{say(HINT, play=cards(play))} {reason}".rstrip()


def as_good(alike: Sequence[Sequence[str]], close: Sequence[str] | None, say: Texts = ENGLISH) -> str | None:
    """The line naming the plays just as good (``alike``), else a ``close`` second; ``None`` for neither."""
    _ = say
    if alike:
        return _("Just as good: {plays}.", plays=" · ".join(f"**{cards(play)}**" for play in alike))
    if close:
        return _("Almost as good: **{play}**.", play=cards(close))
    return None


def accuracy(players: Mapping[Any, Mapping[str, Any]], mentions: Sequence[str], unit: str,
             say: Texts = ENGLISH) -> str:
    """The accuracy after a match of each player reviewed (``players``: seat → :func:`bot.ai.review.player_summary`;
    the bot's own seat is never among them): how close their plays came to the best play, and their costliest
    ``unit`` (``engagement`` or ``round``) with the best play there. In ``say``'s language (the server's: it is
    posted in the match)."""
    _ = say
    lines = []
    for seat, found in sorted((int(seat), found) for seat, found in players.items()):
        percent = _("{percent}%", percent=say.number(found["accuracy"], digits=0))
        if unit == "round":
            lines.append("🎯 " + _("{player}, your accuracy: **{percent}** (how close your cards came to the best "
                                   "card; 100% = the best card every round).", player=mentions[seat],
                                   percent=percent))
        else:
            lines.append("🎯 " + _("{player}, your accuracy: **{percent}** (how close your orders came to the best "
                                   "order; 100% = the best order every engagement).", player=mentions[seat],
                                   percent=percent))
        worst = found["costliest"]
        if worst is None:
            lines.append(_("You made the best play every time."))
        elif unit == "round":
            lines.append(_("Your costliest round: **{number}** — the best card there was {best}; you played "
                           "{played}.", number=say.number(worst["step"]), best=cards(worst["best"]),
                           played=cards(worst["played"])))
        else:
            lines.append(_("Your costliest engagement: **{number}** — the best order there was {best}; you played "
                           "{played}.", number=say.number(worst["step"]), best=cards(worst["best"]),
                           played=cards(worst["played"])))
    return "\n".join(lines)
