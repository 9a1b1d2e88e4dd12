"""What every renderer shares: the result types, Discord's size limits, timestamps, names and card words, and the
pieces every game's match messages have alike (the two-player challenge, the ratings line).

Names come from the caller as they should appear: display names or mention strings (``<@123>``); they are
never built here. Display names are escaped for Discord markdown; mention strings pass through unchanged.
Pictures cannot show a mention, so they take plain names (``image_names``), falling back to "Player 1"/"Player 2".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from bot.cards import card_label, describe
from bot.i18n import Texts, texts
from bot.match.ratings import displayed, is_provisional

MESSAGE_LIMIT = 2000  #: message content
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
FIELD_VALUE_LIMIT = 1024
BUTTON_LABEL_LIMIT = 80
ALT_TEXT_LIMIT = 1024  #: an attachment's description (alt text)

#: English, the words a surface is made with unless it is given others
ENGLISH = texts("en")

View = Mapping[str, Any]  #: an engine's view of a game
Event = Mapping[str, Any]  #: an engine's or a service's event
When = int | float | datetime  #: a moment: a datetime or unix seconds

MENTION = re.compile(r"<(@[!&]?|#)\d+>")
_MARKDOWN = re.compile(r"([\\*_~`|])")


@dataclass(frozen=True)
class Picture:
    """A PNG to attach: its bytes, a file name for ``attachment://`` and its alt text (attachment description)."""

    png: bytes
    filename: str
    alt: str


@dataclass(frozen=True)
class Surface:
    """One message or embed: a title (embed title or the first line), the text and maybe a picture.

    ``text`` fits message content (2000 characters), so it also fits an embed description.
    """

    title: str
    text: str
    picture: Picture | None = None


@dataclass(frozen=True)
class Button:
    """A button for the cog to build: ``key`` goes in its custom id, ``style`` is a hint (primary, secondary,
    success, danger), ``row`` is the action row (0-4), ``card``: the card it stands for (the button shows the
    app's emoji of it beside its label)."""

    key: str
    label: str
    enabled: bool = True
    style: str = "secondary"
    row: int = 0
    card: str | None = None


@dataclass(frozen=True)
class ButtonSurface(Surface):
    """A surface with buttons (the DM order panel, the challenge message)."""

    buttons: list[Button] = field(default_factory=list)


RenderFunction = TypeVar("RenderFunction", bound=Callable[..., Any])


def quick_to_draw(render: RenderFunction) -> RenderFunction:
    """Mark a render function whose pictures are card rows of cards side by side, put together from kept pieces
    in a fraction of a millisecond: the bot draws them where they are asked for, with no trip to its picture
    process (which would cost more than the drawing; rows that overlap their cards take a few ms)."""
    render.quick_to_draw = True  # type: ignore[attr-defined]
    return render


def is_quick_to_draw(render: Callable[..., Any]) -> bool:
    return bool(getattr(render, "quick_to_draw", False))


def timestamp(when: int | float | datetime, style: str = "R") -> str:
    """Discord's timestamp markup, ``<t:UNIX:R>`` (relative) by default."""
    unix = int(when.timestamp()) if isinstance(when, datetime) else int(when)
    return f"<t:{unix}:{style}>"


def name(text: str) -> str:
    """A name for message text: a mention as given, a display name escaped for markdown (and no mass pings)."""
    if MENTION.fullmatch(text):
        return text
    escaped = _MARKDOWN.sub(r"\\\1", text)
    escaped = " ".join(escaped.split()) or "?"
    return escaped.replace("@everyone", "@\u200beveryone").replace("@here", "@\u200bhere")


def two_names(names: Sequence[str], game_title: str) -> list[str]:
    """:func:`name` of each player of a two-player game; refuses any other number of names."""
    if len(names) != 2:
        raise ValueError(f"{game_title} needs two names, one per seat")
    return [name(n) for n in names]


def possessive(text: str) -> str:
    """``Ann's``, ``James'``; a mention takes ``'s``."""
    return f"{text}'" if text.endswith(("s", "S")) and not text.endswith(">") else f"{text}'s"


def plain_names(names: Sequence[str], image_names: Sequence[str] | None = None,
                say: Texts | None = None) -> list[str]:
    """Names for pictures and alt text: ``image_names`` if given, else ``names`` with mentions replaced by
    "Player 1", "Player 2" (in ``say``'s language)."""
    _ = say or ENGLISH
    source = image_names if image_names is not None else names
    plain = []
    for seat, text in enumerate(source):
        text = " ".join(str(text).split())
        plain.append(_("Player {number}", number=seat + 1) if not text or MENTION.search(text) else text)
    return plain


def words(card: str, say: Texts | None = None) -> str:
    """A card in words, in ``say``'s language: ``queen of spades``."""
    return describe(card, say)


def cards_line(cards: Iterable[str], empty: str | None = None, say: Texts | None = None) -> str:
    """Cards as texts show them (:func:`~bot.cards.card_label`, the same in every language), space separated:
    ``Q♠ 10♠ A♠``; ``empty`` (else "none" in ``say``'s language) for no cards."""
    cards = list(cards)
    if cards:
        return " ".join(card_label(card) for card in cards)
    return empty if empty is not None else (say or ENGLISH).pgettext("no cards", "none")


def words_line(cards: Iterable[str], empty: str | None = None, say: Texts | None = None) -> str:
    """Cards in words, in ``say``'s language, comma separated: ``queen of spades, 10 of spades``."""
    cards = list(cards)
    if cards:
        return ", ".join(describe(card, say) for card in cards)
    return empty if empty is not None else (say or ENGLISH).pgettext("no cards", "none")


def count(number: int, singular: str, plural: str | None = None) -> str:
    """English only (logs, tools): a player's text counts with ``say.ngettext``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def ordinal(number: int, say: Texts | None = None) -> str:
    """``1st``, ``2nd`` in ``say``'s language's own form (``1.``, ``1er``, ``1-й``, ``1º``...)."""
    language = (say or ENGLISH).language
    if language == "en":
        suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
        return f"{number}{suffix}"
    return _ORDINALS.get(language, "{n}.").format(n=number, er="er" if number == 1 else "e")


#: each language's ordinal numbers in figures (French: 1er, 2e; German, Polish, Romanian: 1.)
_ORDINALS = {"fr": "{n}{er}", "es": "{n}.º", "pt_BR": "{n}º", "ru": "{n}-й"}


def join_words(items: Sequence[str], say: Texts | None = None) -> str:
    """``a``, ``a and b``, ``a, b and c``, in ``say``'s language."""
    _ = say or ENGLISH
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def clamp(text: str, limit: int = MESSAGE_LIMIT, say: Texts | None = None) -> str:
    """``text`` within ``limit`` characters: whole lines dropped from the end, with a note (in ``say``'s language),
    if it is longer.

    Renderers keep their texts short enough themselves; this is the last safety net.
    """
    if len(text) <= limit:
        return text
    note = "\n" + (say or ENGLISH)("… (cut to fit Discord's limit)")
    lines = text.split("\n")
    while lines and len("\n".join(lines)) + len(note) > limit:
        lines.pop()
    if not lines:
        return text[: limit - 1] + "…"
    return "\n".join(lines) + note


def clamp_line(text: str, limit: int) -> str:
    """One line cut with an ellipsis to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def challenge_surface(game_title: str, challenger: str, opponent: str, rules_line: str, *,
                      expires_at: When, say: Texts = ENGLISH) -> ButtonSurface:
    """A two-player challenge: who challenges whom, ``Rules: <rules_line>`` and the expiry (``<t:UNIX:R>``), in
    ``say``'s language (``game_title`` and ``rules_line`` in it already). Buttons: ``accept``, ``decline`` (the
    opponent), ``withdraw`` (the challenger)."""
    _ = say
    who, them = name(challenger), name(opponent)
    lines = [_("⚔️ **{challenger}** challenges **{opponent}** to {game}!", challenger=who, opponent=them,
               game=game_title),
             _("Rules: {rules}", rules=rules_line),
             _("{opponent}, accept or decline: the challenge expires {when}.", opponent=them,
               when=timestamp(expires_at))]
    buttons = [Button("accept", _("Accept"), True, "success"), Button("decline", _("Decline"), True, "danger"),
               Button("withdraw", _("Withdraw"), True, "secondary")]
    return ButtonSurface(clamp_line(_("{game} challenge", game=game_title), EMBED_TITLE_LIMIT),
                         clamp("\n".join(lines), say=say), None, buttons)


def ratings_line(ratings: Sequence[Mapping[str, float] | None] | None, shown: Sequence[str], *,
                 places: Sequence[int] | None = None, say: Texts = ENGLISH) -> str | None:
    """``Ratings: A 1500 → 1583 (+83, provisional) · …`` for the seats whose change is known (stored ordinals,
    shown on the displayed scale of :func:`bot.match.ratings.displayed`; provisional while the seat's ``games`` on
    the rating are fewer than the minimum); ``None`` when no change is known. ``places``: each seat's finishing
    place, to list them first to last (else in seat order)."""
    _ = say
    seats: Sequence[int] = range(len(ratings or ()))
    if places is not None:  # first to last
        seats = sorted(seats, key=lambda seat: (places[seat], seat))
    parts = [f"{shown[seat]} {said}" for seat in seats
             if (said := rating_change((ratings or ())[seat], say=say)) is not None]
    return _("Ratings: {changes}", changes=" · ".join(parts)) if parts else None


def rating_change(change: Mapping[str, float] | None, *, say: Texts = ENGLISH) -> str | None:
    """One seat's rating change, ``1500 → 1583 (+83, provisional)`` (see :func:`ratings_line`); ``None`` when it
    is not known (an unrated game)."""
    _ = say
    if not change or change.get("before") is None or change.get("after") is None:
        return None
    before, after = displayed(float(change["before"])), displayed(float(change["after"]))
    games = change.get("games")
    note = ", " + _("provisional") if games is not None and is_provisional(int(games)) else ""
    return f"{before} → {after} ({after - before:+d}{note})"


def win_title(game: str, player: str, say: Texts = ENGLISH) -> str:
    """A result's title naming its winner, ``War — Ann wins``. A winner named like the game (the bot's account often
    is) would read "Air War — Air War wins": it is worded as a player's name instead."""
    _ = say
    if " ".join(player.split()).casefold() == " ".join(game.split()).casefold():
        return _("{game} — won by the player named {player}", game=game, player=player)
    return _("{game} — {player} wins", game=game, player=player)


class ChallengeWords:
    """A two-player game's words for its challenge's life (what the kit's presenter asks a game's render for):
    ``challenge``, ``declined``, ``withdrawn``, ``expired``, ``accepted`` and ``link_line``, for ``title`` with
    its ``emoji``; ``rules_line(rules, say)`` words a match's rules for the challenge, in ``say``'s language."""

    def __init__(self, title: str, emoji: str, rules_line: Callable[[Mapping[str, Any], Texts], str]) -> None:
        self.title, self.emoji, self.rules_line = title, emoji, rules_line

    def challenge(self, challenger: str, opponent: str, rules: Mapping[str, Any], *,
                  expires_at: When, say: Texts = ENGLISH) -> ButtonSurface:
        return challenge_surface(say(self.title), challenger, opponent, self.rules_line(rules, say),
                                 expires_at=expires_at, say=say)

    def declined(self, challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
        return "❌ " + declined_line(self.title, challenger, opponent, say)

    def withdrawn(self, challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
        return "↩️ " + withdrawn_line(self.title, challenger, opponent, say)

    def expired(self, challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
        return "⌛ " + expired_line(self.title, challenger, opponent, say)

    def accepted(self, challenger: str, opponent: str, thread_id: int | None, say: Texts = ENGLISH) -> str:
        return f"{self.emoji} " + accepted_line(self.title, challenger, opponent, thread_id, say)

    def link_line(self, names: Sequence[str], rules: Mapping[str, Any], thread_id: int, say: Texts = ENGLISH) -> str:
        _ = say
        return f"{self.emoji} " + _("**{game}:** {players} — follow the game in {thread}.", game=_(self.title),
                                    players=", ".join(names), thread=f"<#{thread_id}>")


def declined_line(title: str, challenger: str, opponent: str | None, say: Texts = ENGLISH) -> str:
    """A declined challenge, in ``say``'s language (``title``: the game's, in English)."""
    _ = say
    return _("**{opponent}** declined the {game} challenge from **{challenger}**.", opponent=name(opponent or ""),
             challenger=name(challenger), game=_(title))


def withdrawn_line(title: str, challenger: str, opponent: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if opponent is None:
        return _("**{challenger}** withdrew the {game} challenge.", challenger=name(challenger), game=_(title))
    return _("**{challenger}** withdrew the {game} challenge to **{opponent}**.", challenger=name(challenger),
             opponent=name(opponent), game=_(title))


def expired_line(title: str, challenger: str, opponent: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if opponent is None:
        return _("The {game} challenge from **{challenger}** expired: nobody accepted in time.",
                 challenger=name(challenger), game=_(title))
    return _("The {game} challenge from **{challenger}** to **{opponent}** expired: nobody accepted in time.",
             challenger=name(challenger), opponent=name(opponent), game=_(title))


def accepted_line(title: str, challenger: str, opponent: str, thread_id: int | None, say: Texts = ENGLISH) -> str:
    _ = say
    if thread_id is None:
        return _("**{opponent}** accepted the {game} challenge from **{challenger}**: the match is on right here.",
                 opponent=name(opponent), challenger=name(challenger), game=_(title))
    return _("**{opponent}** accepted the {game} challenge from **{challenger}**: the match is on in {thread}.",
             opponent=name(opponent), challenger=name(challenger), game=_(title), thread=f"<#{thread_id}>")
