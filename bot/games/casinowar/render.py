"""Casino War's words: the table (lobby), the panels, each hand's lines and the result (pure). Cards as
:func:`bot.cards.card_label` shows them (``10♣``, ``A♦``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.games.casinowar.odds import main_bet_edge, tie_bet_edge
from bot.i18n import Texts
from bot.render.common import ENGLISH, Button, ButtonSurface, Surface, clamp, name, timestamp

TITLE = "Casino War"
PANEL_BUTTON = "Bet"
RESULT_WORDS = {"win": "wins", "lose": "loses", "tie": "ties"}


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def percent(value: float) -> str:
    return f"{value * 100:.2f}%"


def rules_line(rules: Mapping[str, Any]) -> str:
    tie = f", tie bet {rules['tie_bet']} (pays 10:1)" if rules.get("tie_bet") else ""
    return (f"bets {rules['min_bet']}–{rules['max_bet']}{tie}, {rules['hands']} hands, {rules['decks']} decks "
            f"(cut card {rules['cut_card']} from the end)")


def house_edge_line(rules: Mapping[str, Any]) -> str:
    """The house's edge for these rules, exact for a full shoe (going to war on every tie, or surrendering)."""
    decks, bonus = int(rules["decks"]), bool(rules["tie_bonus"])
    line = (f"House edge: {percent(float(main_bet_edge(decks, bonus=bonus)))} of the bet going to war on every tie "
            f"({percent(float(main_bet_edge(decks, war=False)))} surrendering every tie)")
    if rules.get("tie_bet"):
        line += f"; the tie bet {percent(float(tie_bet_edge(decks)))}"
    return line + "."


def lobby(players: Sequence[str], rules: Mapping[str, Any], *, expires_at: float | None,
          closed: str | None = None) -> ButtonSurface:
    lines = [f"🎰 **{name(players[0])}** opens a {TITLE} table against the house (1–4 players, for this server's "
             "chips).", f"Table: {rules_line(rules)}",
             f"Seated ({len(players)}/4): " + ", ".join(f"**{name(p)}**" for p in players)]
    buttons: list[Button] = []
    if closed:
        lines.append(closed)
    else:
        if expires_at is not None:
            lines.append(f"Press **Join** to sit down; the host deals. The table closes {timestamp(expires_at)} if "
                         "nobody joins or leaves before then.")
        buttons = [Button("join", "Join", len(players) < 4, "success"), Button("leave", "Leave", True, "secondary"),
                   Button("start", "Deal", True, "primary"), Button("cancel", "Cancel", True, "danger")]
    return ButtonSurface(f"{TITLE} table", clamp("\n".join(lines)), None, buttons)


def started(players: Sequence[str], where: str | None) -> str:
    return f"🎰 {TITLE}: {', '.join(players)} against the house" + (f" — play in {where}." if where else ".")


def link_line(players: Sequence[str], rules: Mapping[str, Any], thread_id: int) -> str:
    return f"🎰 **{TITLE}:** {', '.join(players)} against the house · {rules_line(rules)} — the table: <#{thread_id}>."


def closed(host: str, event_type: str) -> str:
    return {"withdrawn": f"↩️ **{name(host)}** closed the table before the deal.",
            "expired": "⌛ Nobody dealt at this table: it closed."}.get(event_type, "The table closed.")


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's panel: its chips and, while it has one to make, its choice's buttons."""
    head = f"{TITLE} — hand {data.hand}" if data.hand else TITLE
    if data.ended is not None:
        what = {"timeout": "You missed two turns in a row: you left the table.",
                "default": "Time ran out: " + ("you surrendered." if data.decision else "you sat the hand out."),
                "over": "This part of the hand is over."}.get(data.ended, _choice_words(data))
        return ButtonSurface(head, what, None, [])
    if data.finished or not data.seated:
        return ButtonSurface(head, f"You have {data.stack} chips. You're not playing at this table any more.",
                             None, [])
    due = f" Choose {timestamp(data.deadline_at)}." if data.deadline_at else ""
    if data.locked:
        text = _choice_words(data) if (data.choice or data.decision) else "Nothing to choose now."
        return ButtonSurface(head, f"{text}\nYou have {data.stack} chips. Waiting for the others.", None, [])
    if data.phase == "decide":
        text = (f"**Tie!** Your bet of {data.bet}: surrender (get {data.bet // 2} back) or go to war (raise "
                f"{data.bet} more).{due}\nYou have {data.stack} chips.")
        buttons = [Button("surrender", f"Surrender (−{data.bet - data.bet // 2})", True, "secondary"),
                   Button("war", f"War (raise {data.bet})", data.can_war, "danger")]
        return ButtonSurface(head, text, None, buttons)
    text = f"You have {data.stack} chips. Place your bet, or sit this hand out.{due}"
    buttons = [Button(f"bet:{amount}", f"Bet {amount}", True, "primary", row=0) for amount in data.amounts[:5]]
    buttons += [Button(f"tie:{amount}", f"{amount} + tie {data.tie_bet}", True, "secondary", row=1)
                for amount in data.tie_amounts[:5]]
    buttons.append(Button("sit", "Sit out", True, "secondary", row=2))
    return ButtonSurface(head, text, None, buttons)


def _choice_words(data: Any) -> str:
    if data.decision == "war":
        return "You went to war."
    if data.decision == "surrender":
        return "You surrendered."
    choice = data.choice or {}
    if choice.get("type") == "bet":
        tie = f" with a tie bet of {choice['tie']}" if choice.get("tie") else ""
        return f"You bet {choice['amount']}{tie}."
    return "You sat this hand out."


def turn(event: Mapping[str, Any], names: Sequence[str]) -> str:
    who = ", ".join(names[seat] for seat in event["seats"])
    if event["phase"] == "decide":
        return f"⚔️ **Hand {event['hand']}: tie!** {who}: surrender or go to war, {timestamp(event['deadline_at'])}."
    return f"🎰 **Hand {event['hand']}:** place your bets, {who} — {timestamp(event['deadline_at'])}."


def dealt(event: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = [f"🂠 **Hand {event['hand']}** — the house: **{card_label(event['house'])}**"]
    for seat, card in enumerate(event["cards"]):
        if card is None:
            continue
        bet = event["bets"][seat]
        tie = f" + tie {bet['tie']}" if bet["tie"] else ""
        lines.append(f"{names[seat]}: **{card_label(card)}** (bet {bet['main']}{tie}) — "
                     f"{RESULT_WORDS[event['results'][seat]]}")
    if len(lines) == 1:
        lines.append("Nobody bet this hand.")
    return "\n".join(lines)


def war(event: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = [f"{names[seat]} surrenders half the bet." for seat in event["surrendered"]]
    if event["warring"]:
        lines.append(f"⚔️ **War!** The house burns {event['burned']} cards and draws "
                     f"**{card_label(event['house'])}**.")
        for seat in event["warring"]:
            lines.append(f"{names[seat]}: **{card_label(event['cards'][seat])}** — "
                         f"{RESULT_WORDS[event['results'][seat]]}")
    return "\n".join(lines)


def hand_over(event: Mapping[str, Any], names: Sequence[str], moves: Sequence[Mapping[str, Any]]) -> str:
    net: dict[int, int] = {}
    for move in moves:
        net[move["seat"]] = net.get(move["seat"], 0) + move["amount"]
    parts = [f"{names[seat]} {signed(amount)} ({event['stacks'][seat]})" for seat, amount in sorted(net.items())]
    return f"-# Hand {event['hand']}: " + (", ".join(parts) if parts else "no chips moved") + "."


def reshuffle(event: Mapping[str, Any]) -> str:
    return f"🔀 The cut card came out: the shoe ({event['cards']} cards) is reshuffled."


def stood_up(event: Mapping[str, Any], names: Sequence[str]) -> str:
    why = {"chips": "has less than the smallest bet", "timeout": "missed two turns in a row"}.get(
        event["reason"], "left")
    return f"🚪 {names[event['seat']]} {why} and leaves the table."


def afk(event: Mapping[str, Any], names: Sequence[str]) -> str:
    what = "surrendered" if event.get("phase") == "decide" else "sat the hand out"
    late = [names[seat] for seat in event.get("defaults", [])]
    return f"⌛ Time ran out: {', '.join(late)} {what}." if late else "⌛ Time ran out."


def result(event: Mapping[str, Any], names: Sequence[str]) -> Surface:
    lines = [f"{names[seat]}: {signed(net)} chips (now {event['stacks'][seat]})" for seat, net in
             enumerate(event["net"])]
    return Surface(f"{TITLE} — the table closed", clamp(f"{event['detail'].capitalize()}.\n" + "\n".join(lines)))


def status(view: Mapping[str, Any], seat: int) -> str:
    return (f"{TITLE}, hand {view['hand']} of {view['hands']}: you have {view['stacks'][seat]} chips "
            f"({signed(view['net'][seat])} at this table).")
