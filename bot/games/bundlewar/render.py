"""Bundle War's words: the challenge and lobby, each step's public board, the private panel, the round's lines and
the result. Only public facts outside the panel: a card a player looks at is named in their own panel alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.i18n import Texts
from bot.render.common import (
    ENGLISH,
    Button,
    ButtonSurface,
    ChallengeWords,
    Surface,
    clamp,
    clamp_line,
    count,
    ratings_line,
    timestamp,
)

TITLE = "Bundle War"


def rules_line(rules: Mapping[str, Any]) -> str:
    return f"{rules['pack']} cards and two jokers, up to {rules['max_rounds']} rounds"


WORDS = ChallengeWords(TITLE, "🎴", rules_line)
challenge, declined, withdrawn, expired = WORDS.challenge, WORDS.declined, WORDS.withdrawn, WORDS.expired
accepted, link_line = WORDS.accepted, WORDS.link_line


def lobby(names: Sequence[str], rules: Mapping[str, Any], *, expires_at: float | None) -> ButtonSurface:
    lines = [f"🎴 A game of **{TITLE}** for 2-4 players: {rules_line(rules)}.",
             f"Players ({len(names)}/4): " + ", ".join(names)]
    if expires_at is not None:
        lines.append(f"It closes {timestamp(expires_at)} if it doesn't start.")
    return ButtonSurface(f"{TITLE} lobby", "\n".join(lines), None, [
        Button("join", "Join", True, "success"), Button("leave", "Leave", True, "secondary"),
        Button("start", "Start", True, "primary"), Button("cancel", "Cancel", True, "danger")])


def piles_line(tops: Sequence[str | None], counts: Sequence[int], names: Sequence[str]) -> str:
    parts = [f"{names[seat]} **{counts[seat]}** (pile top {card_label(top) if top else '—'})"
             for seat, top in enumerate(tops)]
    return "Cards: " + " · ".join(parts)


def board(event: Mapping[str, Any], names: Sequence[str], *, deadline: float | None) -> Surface:
    """A step's public message: who chooses, the piles' tops, the deadline."""
    who = ", ".join(names[seat] for seat in event["seats"])
    if event["phase"] == "top":
        doing = f"{who} won the round and picks the card for the top of their pile."
    else:
        doing = f"{who}: look at your card, then play it or steal a pile whose top matches it."
    lines = [doing, piles_line(event["tops"], event["counts"], names)]
    if deadline is not None:
        lines.append(f"-# Choose {timestamp(deadline)}; then your card is played (or the highest goes on top).")
    return Surface(f"{TITLE} — round {event['round']}, step {event['step']}", clamp("\n".join(lines)))


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's private panel: the card it looks at and its choices (none: waiting)."""
    view = data.view or {}
    title = f"{TITLE} — step {data.step}"
    if data.finished or data.ended:
        return ButtonSurface(title, "This step is over.", None, [])
    if not data.choices:
        return ButtonSurface(title, "Waiting for the others' choices.", None, [])
    buttons = []
    if view.get("phase") == "top":
        text = "You won the round: which card goes on top of your pile?"
        for item in data.choices:
            card = item.removeprefix("top:")
            buttons.append(Button(item, f"{card_label(card)} on top", True, "primary"))
    else:
        card = view["looking"]
        text = f"You look at **{card_label(card)}**."
        buttons.append(Button("play", f"Play {card_label(card)}", True, "primary"))
        for item in data.choices:
            if item.startswith("steal:"):
                victim = int(item.removeprefix("steal:"))
                top = view["tops"][victim]
                buttons.append(Button(item, clamp_line(f"Steal {names[victim]}'s pile ({card_label(top)} on top)", 80),
                                      True, "danger"))
    deadline = f"\n-# Choose {timestamp(data.deadline_at)}." if data.deadline_at else ""
    return ButtonSurface(title, text + deadline, None, buttons)


def step_lines(event: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    lines = []
    for played in event["played"]:
        lines.append(f"{names[played['seat']]} plays **{card_label(played['card'])}**.")
    for steal in event["steals"]:
        lines.append(f"🫳 {names[steal['seat']]} steals {names[steal['victim']]}'s pile with "
                     f"**{card_label(steal['card'])}** ({count(steal['cards'], 'card')}).")
    for seat in event["protected"]:
        lines.append(f"🛡️ {names[seat]}'s pile was protected: they played a card matching its top.")
    for seat in event["failed"]:
        lines.append(f"{names[seat]}'s steal failed: they choose again.")
    return lines


def battle_line(event: Mapping[str, Any], names: Sequence[str]) -> str:
    shown = " · ".join(f"{names[seat]} {card_label(card)}" for seat, card in enumerate(event["cards"]) if card)
    if event["winner"] is not None:
        return f"⚔️ {shown}: **{names[event['winner']]}** wins the round."
    return f"⚔️ {shown}: a tie! War between " + ", ".join(names[seat] for seat in event["tied"]) + "."


def take_line(event: Mapping[str, Any], names: Sequence[str]) -> str:
    top = f", **{card_label(event['top'])}** on top" if event.get("top") else ""
    return f"{names[event['seat']]} takes {count(event['cards'], 'card')} to their pile{top}."


def status(view: Mapping[str, Any], names: Sequence[str]) -> str:
    line = f"**{TITLE}**, round {view['round']}. " + piles_line(view["tops"], view["counts"], names)
    if view.get("looking"):
        line += f"\nYou look at {card_label(view['looking'])}."
    return line


def result(game_over: Mapping[str, Any], names: Sequence[str], plain: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None) -> Surface:
    winner = game_over.get("winner")
    why = {"last_standing": "The last player with cards.", "capped": "The round limit: the most cards wins.",
           "forfeit": "A forfeit.", "timeout": "Two missed deadlines in a row."}.get(game_over.get("reason"), "")
    if winner is None:
        head, title = "🤝 **It's a draw.**", f"{TITLE} — draw"
    else:
        head, title = f"🏆 **{names[winner]}** wins!", clamp_line(f"{TITLE} — {plain[winner]} wins", 256)
    lines = [f"{head} {why}"]
    rated = ratings_line(ratings, names)
    if rated:
        lines.append(rated)
    return Surface(title, "\n".join(lines))
