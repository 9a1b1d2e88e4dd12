"""Speed War's words: the challenge, each round's message and its settling, the status and the result."""

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
    clamp_line,
    ratings_line,
    timestamp,
)

TITLE = "Speed War"
TIE = "tie"


def rules_line(rules: Mapping[str, Any]) -> str:
    return f"{rules['pack']} cards, up to {rules['max_rounds']} rounds; the fastest right press takes the cards"


WORDS = ChallengeWords(TITLE, "⚡", rules_line)
challenge, declined, withdrawn, expired = WORDS.challenge, WORDS.declined, WORDS.withdrawn, WORDS.expired
accepted, link_line = WORDS.accepted, WORDS.link_line


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """No private panel: the buttons are on the round."""
    return ButtonSurface(TITLE, "Press the buttons of the round in the game's thread.", None, [])


def choice_label(choice: str | None, cards: Sequence[str]) -> str:
    if choice is None:
        return "nothing"
    return "=" if choice == TIE else card_label(cards[int(choice)])


def round_surface(event: Mapping[str, Any], names: Sequence[str], *, deadline: float | None) -> ButtonSurface:
    """A round's message: both cards, whose is whose, and the three buttons."""
    cards = event["cards"]
    lines = [f"{names[0]} **{card_label(cards[0])}** · {names[1]} **{card_label(cards[1])}**",
             "Press the higher card, or **=** if the ranks are equal: first right press takes both!"]
    if deadline is not None:
        lines.append(f"-# Nobody pressed? The higher card takes them {timestamp(deadline)}.")
    buttons = [Button("0", card_label(cards[0]), True, "primary"), Button("1", card_label(cards[1]), True, "primary"),
               Button(TIE, "=", True, "secondary")]
    return ButtonSurface(f"{TITLE} — round {event['round']}", "\n".join(lines), None, buttons)


def settled_surface(event: Mapping[str, Any], names: Sequence[str]) -> Surface:
    """A round once settled: who pressed what how fast, who took the cards, and why."""
    cards, right = event["cards"], event["right"]
    lines = [f"{names[0]} **{card_label(cards[0])}** · {names[1]} **{card_label(cards[1])}** — right: "
             f"**{choice_label(right, cards)}**"]
    for seat, press in enumerate(event["presses"]):
        if press is None:
            lines.append(f"{names[seat]}: no press")
        else:
            mark = "✅" if press["choice"] == right else "❌"
            lines.append(f"{names[seat]}: {mark} {choice_label(press['choice'], cards)} in **{press['ms']} ms**")
    taker, by = event["taker"], event["by"]
    if taker is None:
        why = {"simultaneous": "Simultaneous presses", "absent": "Nobody pressed"}.get(by, "Nobody won it")
        lines.append(f"{why}: each takes their own card back.")
    else:
        why = {"right": "the fastest right press", "wrong": f"{names[1 - taker]}'s wrong press gives them away",
               "simultaneous": "the one right press of two at once", "absent": "nobody pressed: the higher card"}[by]
        lines.append(f"**{names[taker]}** takes both ({why}).")
    lines.append(f"Cards: {names[0]} **{event['counts'][0]}** · {names[1]} **{event['counts'][1]}**")
    return Surface(f"{TITLE} — round {event['round']}", "\n".join(lines))


def status(view: Mapping[str, Any], names: Sequence[str]) -> str:
    counts = view["counts"]
    line = f"**{TITLE}**, round {view['round']}: {names[0]} {counts[0]} cards · {names[1]} {counts[1]} cards."
    if view.get("cards"):
        line += f" On the table: {card_label(view['cards'][0])} and {card_label(view['cards'][1])}."
    return line


def reason_text(game_over: Mapping[str, Any]) -> str:
    return {"all_cards": "All the cards won.", "capped": "The round limit: the most cards wins.",
            "forfeit": "A forfeit.", "timeout": "Two rounds missed in a row.",
            "double_timeout": "Both missed two rounds in a row."}.get(game_over.get("reason"), "")


def result(game_over: Mapping[str, Any], names: Sequence[str], plain: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None, reactions: Sequence[str]) -> Surface:
    winner = game_over.get("winner")
    if winner is None:
        head, title = "🤝 **It's a draw.**", f"{TITLE} — draw"
    else:
        head, title = f"🏆 **{names[winner]}** wins!", clamp_line(f"{TITLE} — {plain[winner]} wins", 256)
    lines = [f"{head} {reason_text(game_over)}", *reactions]
    rated = ratings_line(ratings, names)
    if rated:
        lines.append(rated)
    return Surface(title, "\n".join(lines))


def reaction_line(name_: str, times: Sequence[int]) -> str:
    if not times:
        return f"{name_}: no press."
    ordered = sorted(times)
    return (f"{name_}: median reaction **{ordered[len(ordered) // 2]} ms**, best {ordered[0]} ms over "
            f"{len(times)} presses.")
