"""The pieces both of Air War's renderers build on: :mod:`bot.games.airwar.render` (two players) and
:mod:`bot.games.airwar.render_many` (three or four). The words every surface shares, an engagement's events
gathered, the flips fitted into one message, a seat's order and draft, what is known of each deck."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.i18n import N_, Texts
from bot.render.common import (
    EMBED_TITLE_LIMIT,
    ENGLISH,
    MESSAGE_LIMIT,
    Button,
    Surface,
    cards_line,
    clamp,
    clamp_line,
    timestamp,
)

if TYPE_CHECKING:
    from bot.render.common import Event, View, When

TITLE = N_("Air War")
DECK_WORDS = {"standard": N_("standard decks (52 cards)"), "jokers": N_("decks with jokers (54 cards)"),
              "tarot": N_("tarot decks (78 cards)")}
ACES_WORDS = {"high": N_("aces high"), "low": N_("aces low")}
LOCKED = N_("✅ locked in")
ARRANGING = N_("⏳ arranging")
NOT_LOCKED = N_("not locked in")
#: the board's button that opens a player's battle-order panel in the match's thread
PANEL_BUTTON = N_("Arrange")


# --- words ---------------------------------------------------------------------------------------------


def rules_text(rules: Mapping[str, Any], *, say: Texts = ENGLISH) -> str:
    """The options in words: ``stacks of 5 · aces high · standard decks (52 cards)``."""
    _ = say
    stack = int(rules.get("stack", 5))
    aces = rules.get("aces", "high")
    aces_words = _(ACES_WORDS[aces]) if aces in ACES_WORDS else f"aces {aces}"
    deck = rules.get("deck", "standard")
    deck_words = _(DECK_WORDS[deck]) if deck in DECK_WORDS else f"{deck} decks"
    stacks = _.ngettext("stacks of {count}", "stacks of {count}", stack)
    return f"{stacks} · {aces_words} · {deck_words}"


def title_line(text: str) -> str:
    """``text`` cut to a title's length."""
    return clamp_line(text, EMBED_TITLE_LIMIT)


def versus(shown: Sequence[str], say: Texts = ENGLISH) -> str:
    """``A vs B`` (``A vs B vs C``) in ``say``'s language; ``shown`` as given (bold, mentions...)."""
    _ = say
    text = shown[0] if shown else ""
    for other in shown[1:]:
        text = _("{first} vs {second}", first=text, second=other)
    return text


def _deck_line(who: str, total: int, bottom: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """What is known about one deck: its count, the unknown top and the known bottom, top to bottom."""
    _ = say
    known = list(bottom.get("cards", []))
    unknown = int(bottom.get("unknown_above", total - len(known)))
    cards = _.ngettext("{count} card", "{count} cards", total)
    if not known:
        return _("{deck}: {cards}, all unknown", deck=who, cards=cards)
    if unknown == 0:
        return _("{deck}: {cards}, all known: {known}", deck=who, cards=cards, known=cards_line(known, say=_))
    return _("{deck}: {cards}, {unknown} unknown, then {known} at the bottom", deck=who, cards=cards,
             unknown=unknown, known=cards_line(known, say=_))


def deadline_line(deadline: When | None, say: Texts = ENGLISH) -> str:
    _ = say
    return _("Orders lock in {when}.", when=timestamp(deadline)) if deadline is not None else ""


# --- an engagement's flips ----------------------------------------------------------------------------


@dataclass
class Engagement:
    """One engagement's events (:func:`collect`)."""

    number: int
    start: Event | None
    stream: list[Event]  # flips and fights, in order
    end: Event | None
    over: Event | None

    @property
    def flips(self) -> list[Event]:
        return [event for event in self.stream if event["type"] == "flip"]


def engagement_number(events: Sequence[Event]) -> int:
    """The engagement these events are of: the one flipped (or locked in, or ended), else the one drawn."""
    for kind in ("flip", "order_locked", "engagement_end"):
        for event in events:
            if event["type"] == kind:
                return int(event["engagement"])
    for event in events:
        if event["type"] == "engagement":
            return int(event["number"])
    raise ValueError("no Air War engagement in these events")


def collect(events: Sequence[Event], engagement: int | None,
            stream_kinds: tuple[str, ...] = ("flip", "fight")) -> Engagement:
    """The events of one engagement (``None``: the one these events flipped): its start, the ``stream_kinds``
    events in order (three or four players add ``out`` and ``unopposed``), its end and the game's end in it."""
    number = engagement_number(events) if engagement is None else engagement
    found = Engagement(number, None, [], None, None)
    for event in events:
        kind = event["type"]
        if kind == "engagement" and event["number"] == number:
            found.start = event
        elif kind in stream_kinds and event["engagement"] == number \
                and (kind != "out" or found.start is not None):
            found.stream.append(event)
        elif kind == "engagement_end" and event["engagement"] == number:
            found.end = event
        elif kind == "game_over" and event.get("engagement") == number:
            found.over = event
    return found


def visible_events(found: Engagement, shown: int) -> list[Event]:
    """The flips and fights up to the ``shown``-th flip (a fight settled by that flip included)."""
    visible, flips = [], 0
    for event in found.stream:
        if event["type"] == "flip":
            if flips == shown:
                break
            flips += 1
        visible.append(event)
    return visible


def fit_flips(header: list[str], flip_lines: list[str], tail: list[str], say: Texts = ENGLISH) -> str:
    """Header, flip lines and tail within the message limit: the oldest flip lines fold into one line that says
    they are hidden, if need be."""
    _ = say
    text = "\n".join(header + flip_lines + tail)
    folded = 0
    while len(text) > MESSAGE_LIMIT and folded < len(flip_lines):
        folded += 1
        note = _("Flips 1 to {count} are hidden: the message is full.", count=folded)
        text = "\n".join([*header, note, *flip_lines[folded:], *tail])
    return clamp(text, say=_)


def end_lines(found: Engagement, summary: str, shown: list[str], reason: Callable[..., str],
              say: Texts = ENGLISH) -> list[str]:
    """The flips' last frame's tail: the engagement's ``summary``, then the game's end if it ended in it, said
    by ``reason`` (the renderer's ``reason_text``)."""
    _ = say
    tail = ["", summary]
    if found.over is not None:
        size = found.start["stack_size"] if found.start else None
        game_over = _("**Game over.**")
        tail.append(f"🏁 {game_over} {result_headline(found.over, shown, _)} "
                    f"{reason(found.over, shown, stack_size=size, say=_)}")
    return tail


def flips_surface(found: Engagement, header: list[str], flip_lines: list[str], tail: list[str],
                  say: Texts = ENGLISH) -> Surface:
    """The flips message of ``found``'s engagement: its title, and the lines fitted by :func:`fit_flips`."""
    _ = say
    title = title_line(_("{game} — engagement {number}: flips", game=_(TITLE), number=found.number))
    return Surface(title, fit_flips(header, flip_lines, tail, _))


def summary_head(number: int, fights: int, ties: int, ended_early: bool, say: Texts = ENGLISH) -> str:
    """An engagement summary's first line: its fights and ties (``ended_early``: the game ended before its end)."""
    _ = say
    fights_words = _.ngettext("{count} fight", "{count} fights", fights)
    ties_words = _.ngettext("{count} tie", "{count} ties", ties)
    if ended_early:
        return _("**Engagement {number} cut short:** {fights}, {ties}.", number=number, fights=fights_words,
                 ties=ties_words)
    return _("**Engagement {number} over:** {fights}, {ties}.", number=number, fights=fights_words, ties=ties_words)


def result_headline(outcome: Mapping[str, Any], shown: list[str], say: Texts = ENGLISH) -> str:
    _ = say
    winner = outcome.get("winner")
    return _("It's a draw.") if winner is None else _("**{player}** wins!", player=shown[winner])


# --- a seat's order and what is known -----------------------------------------------------------------


def check_draft(stack: Sequence[str], draft: Sequence[str]) -> list[str]:
    """The draft as a list; raise ValueError when it is not the start of an order of ``stack``."""
    draft = list(draft)
    if len(set(draft)) != len(draft) or any(card not in stack for card in draft):
        raise ValueError(f"the draft {cards_line(draft)} is not part of an order of the stack {cards_line(stack)}")
    return draft


def order_line(order: Sequence[str], size: int) -> str:
    """An order's ``size`` slots on one line: ``1 K♠ · 2 4♦ · 3 —``."""
    slots = [f"{i + 1} {card_label(order[i])}" if i < len(order) else f"{i + 1} —" for i in range(size)]
    return " · ".join(slots)


def known_lines(view: View, shown: list[str], seat: int | None, say: Texts = ENGLISH) -> list[str]:
    """What is known about each deck (every flip is public) and its discards, one line a deck, for a seat
    (``Your deck``) or a spectator."""
    _ = say
    lines = []
    for s in range(len(shown)):
        if not _seat_in_game(view, s):
            continue
        label = _("Your deck") if seat == s else _("{player}'s deck", player=shown[s])
        deck = _deck_line(label, view["deck_counts"][s], view["deck_bottoms"][s], _)
        lines.append(deck + " · " + _("discards {count}", count=len(view["discards"][s])))
    return lines


def _seat_in_game(view: View, seat: int) -> bool:
    """The seat is still playing (two players: always; 3-4 players: not out)."""
    in_game = view.get("in_game")
    return True if not in_game else bool(in_game[seat])


def order_buttons(view: View, draft: Sequence[str] = (), *, say: Texts = ENGLISH) -> list[Button]:
    """The buttons of the DM panel, from the seat's own view and its draft order; none once locked in or over.

    Keys: ``card:<card>`` (tap that card, e.g. ``card:QS``; a stack never holds a card twice), ``undo``, ``reset``,
    ``random``, ``drawn``
    (the order as drawn), ``confirm`` (lock in; enabled once every card is placed). Card buttons fill rows
    0-1, five to a row; the controls share the next row.
    """
    seat = view.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(view["stacks"]) \
            or view["phase"] == "over" or view["locked"][seat]:
        return []
    stack = list(view["stacks"][seat])
    draft = check_draft(stack, draft)
    buttons = []
    for i, card in enumerate(stack):
        label = card_label(card) if card not in draft else f"{draft.index(card) + 1}: {card_label(card)}"
        buttons.append(Button(f"card:{card}", label, card not in draft,
                              "primary" if card not in draft else "secondary", i // 5, card=card))
    row = (len(stack) - 1) // 5 + 1
    placed = len(draft)
    _ = say
    buttons += [
        Button("undo", _("Undo"), placed > 0, "secondary", row),
        Button("reset", _("Reset"), placed > 0, "secondary", row),
        Button("random", _("Random"), True, "secondary", row),
        Button("drawn", _("As drawn"), True, "secondary", row),
        Button("confirm", _("Lock in"), placed == len(stack), "success", row),
    ]
    return buttons
