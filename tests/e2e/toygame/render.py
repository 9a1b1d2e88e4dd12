"""High Card's words: what the kit's presenter and the cog show (see :mod:`cogs.kit.presenter`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.i18n import N_, Texts
from bot.render.common import ENGLISH, Button, ButtonSurface, Surface, name, timestamp

TITLE = N_("High Card")


def challenge(challenger: str, opponent: str, rules: Mapping[str, Any], *, expires_at: float,
              say: Any = None) -> ButtonSurface:
    text = (f"🃏 **{name(challenger)}** challenges **{name(opponent)}** to {TITLE}! "
            f"The challenge expires {timestamp(expires_at)}.")
    return ButtonSurface(f"{TITLE} challenge", text, None, [
        Button("accept", "Accept", True, "success"), Button("decline", "Decline", True, "danger"),
        Button("withdraw", "Withdraw", True, "secondary")])


def declined(challenger: str, opponent: str, say: Any = None) -> str:
    return f"❌ **{name(opponent)}** declined the {TITLE} challenge."


def withdrawn(challenger: str, opponent: str, say: Any = None) -> str:
    return f"↩️ **{name(challenger)}** withdrew the {TITLE} challenge."


def expired(challenger: str, opponent: str, say: Any = None) -> str:
    return f"⌛ The {TITLE} challenge expired."


def accepted(challenger: str, opponent: str, thread_id: int | None, say: Any = None) -> str:
    where = f"play in <#{thread_id}>" if thread_id is not None else "play here"
    return f"🃏 **{name(opponent)}** accepted the {TITLE} challenge: {where}."


def link_line(names: Sequence[str], rules: Mapping[str, Any], thread_id: int, say: Any = None) -> str:
    return f"🃏 **{TITLE}:** {names[0]} vs {names[1]} — follow the match in <#{thread_id}>."


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's panel, in ``say``'s language (the player's: the kit passes it)."""
    _ = say
    title = _("{game} — round {number}", game=_(TITLE), number=data.step)
    if data.ended is not None or data.locked:
        text = _("You picked {card}.", card=card_label(data.chosen)) if data.chosen else _("This round is over.")
        return ButtonSurface(title, text, None, [])
    deadline = " " + _("Pick by {when}.", when=timestamp(data.deadline_at)) if data.deadline_at else ""
    return ButtonSurface(title, _("Pick a card.") + deadline, None,
                         [Button(f"pick:{card}", card_label(card), True, "primary", card=card) for card in data.hand])


def round_line(names: Sequence[str], event: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """A round's line in the thread, in the server's language."""
    _ = say
    cards = " vs ".join(card_label(card) for card in event["cards"])
    score = f"{event['wins'][0]}-{event['wins'][1]}"
    if event["winner"] is None:
        return _("Round {number}: {cards}: nobody takes it ({score}).", number=event["round"], cards=cards,
                 score=score)
    return _("Round {number}: {cards}: {player} takes it ({score}).", number=event["round"], cards=cards,
             player=names[event["winner"]], score=score)


def result(names: Sequence[str], event: Mapping[str, Any], say: Texts = ENGLISH) -> Surface:
    """The match's result, in the server's language."""
    _ = say
    winner = event.get("winner")
    title = _("{game} — draw", game=_(TITLE)) if winner is None else _("{game} — {player} wins", game=_(TITLE),
                                                                       player=names[winner])
    return Surface(title, _("Final score {score}.", score=event["detail"]))


def status(view: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """The status command's answer, in the player's language: the round, the score and the player's hand."""
    _ = say
    hand = " ".join(card_label(card) for card in view["hand"])
    return _("{game}, round {number}: score {score}; your hand {hand}.", game=_(TITLE), number=view["round"],
             score=f"{view['wins'][0]}-{view['wins'][1]}", hand=hand)
