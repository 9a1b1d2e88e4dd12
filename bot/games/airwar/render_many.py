"""Air War's surfaces for three or four players (:mod:`bot.games.airwar.render` hands them over when it gets more
than two names; two-player surfaces are never drawn here).

Written for a phone: one short block per player, a flip on one line (``2. Ann K♠ · Bob K♦ · Cy 4♣: tie``), the
players that are out named once. The same rules as two-player Air War's surfaces hold: public surfaces take the
spectator view or the public events and never read ``my_order``; a panel takes its seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.games.airwar import render as base
from bot.i18n import Texts
from bot.render.cards import CardRow, card_rows_png
from bot.render.common import (
    ALT_TEXT_LIMIT,
    ENGLISH,
    Button,
    ButtonSurface,
    Picture,
    Surface,
    cards_line,
    clamp,
    clamp_line,
    count,
    name,
    plain_names,
    possessive,
    ratings_line,
    timestamp,
    words_line,
)

if TYPE_CHECKING:
    from bot.render.common import Event, View, When

TITLE = base.TITLE
OUT = "❌ out"
#: why a seat went out (an ``out`` event's ``reason``), after its name
OUT_WORDS = {"short_stack": "could not draw a full stack", "out_of_cards": "had no tie-breaker card left",
             "forfeit": "forfeited", "timeout": "missed two deadlines in a row"}


def names_of(names: Sequence[str]) -> list[str]:
    return [name(n) for n in names]


def _vs(shown: Sequence[str]) -> str:
    return " vs ".join(f"**{who}**" for who in shown)


def _in_game(view: Mapping[str, Any]) -> list[bool]:
    return list(view.get("in_game") or [True] * len(view["stacks"]))


def _places(view: Mapping[str, Any]) -> list[int]:
    """Seats from first to last: whoever is still in (the winner), then the others, the last out first."""
    in_game = _in_game(view)
    return [s for s in range(len(in_game)) if in_game[s]] + list(reversed(view.get("out_order", [])))


# --- the board -------------------------------------------------------------------------------------------
def board(view: View, names: Sequence[str], *, deadline: When | None = None,
          image_names: Sequence[str] | None = None, picture: bool = True, ended: bool = False) -> Surface:
    shown = names_of(names)
    number = view["engagement"]
    in_game = _in_game(view)
    lines = [f"{_vs(shown)} · {base.rules_text(view['rules'])}"]
    waiting = [s for s in range(len(shown)) if in_game[s] and not view["locked"][s]]
    if waiting and not ended:
        due = f" {timestamp(deadline)}" if deadline is not None else ""
        lines.append(f"Each player arranges a battle order with **{base.PANEL_BUTTON}** below or in their DMs; "
                     f"orders lock in{due}. A stack not locked in by then plays as drawn.")
    for seat, who in enumerate(shown):
        if not in_game[seat]:
            lines += ["", f"**{who}** — {OUT}"]
            continue
        state = base.LOCKED if view["locked"][seat] else base.NOT_LOCKED if ended else base.ARRANGING
        lines += ["", f"**{who}** — {state}", f"Stack: {cards_line(view['stacks'][seat])}",
                  f"Deck {count(view['deck_counts'][seat], 'card')} · discards {len(view['discards'][seat])}"]
    surface_picture = _stacks_picture(view, plain_names(names, image_names), None) if picture else None
    return Surface(base._title(f"{TITLE} — engagement {number}"), clamp("\n".join(lines)), surface_picture)


def _stacks_picture(view: View, plain: list[str], seat: int | None) -> Picture:
    """Every stack still in play, as drawn (the seat's own first, on its panel): fixed for the engagement."""
    number = view["engagement"]
    in_game = _in_game(view)
    seats = [s for s in range(len(plain)) if in_game[s]]
    if seat is not None:
        seats = [seat] + [s for s in seats if s != seat]
    rows = [CardRow(list(view["stacks"][s]), f"{plain[s]}{' (you)' if s == seat else ''} - stack as drawn")
            for s in seats]
    alt = f"Engagement {number}, the stacks as drawn, face up. " + " ".join(
        f"{plain[s]}: {words_line(view['stacks'][s])}." for s in seats)
    kind = "stacks" if seat is None else "panel"
    return Picture(card_rows_png(rows, min_cards=view["stack_size"]), f"airwar-e{number}-{kind}.png",
                   clamp_line(alt, ALT_TEXT_LIMIT))


# --- flip by flip ----------------------------------------------------------------------------------------
def _collect(events: Sequence[Event], engagement: int | None) -> base._Engagement:
    number = base._engagement_number(events) if engagement is None else engagement
    found = base._Engagement(number, None, [], None, None)
    for event in events:
        kind = event["type"]
        if kind == "engagement" and event["number"] == number:
            found.start = event
        elif kind in ("flip", "fight", "out", "unopposed") and event["engagement"] == number \
                and (kind != "out" or found.start is not None):
            found.stream.append(event)
        elif kind == "engagement_end" and event["engagement"] == number:
            found.end = event
        elif kind == "game_over" and event.get("engagement") == number:
            found.over = event
    return found


def _stream_line(event: Event, shown: list[str]) -> str | None:
    kind = event["type"]
    if kind == "flip":
        pairs = " · ".join(f"{shown[s]} {card_label(card)}" for s, card in enumerate(event["cards"])
                           if card is not None)
        source = " (tie-breakers from the decks)" if "deck" in event["sources"] else ""
        if event["winner"] is None:
            tied = " and ".join(shown[s] for s in event.get("tied", []))
            return f"{event['flip']}. {pairs}{source}: tie — {tied} go on"
        return f"{event['flip']}. {pairs}{source}: **{shown[event['winner']]}** wins"
    if kind == "fight":
        if event["winner"] is None:
            return None
        return f"   → {shown[event['winner']]} keeps {cards_line(event['kept'])}"
    if kind == "out":
        return f"{OUT}: **{shown[event['seat']]}** {OUT_WORDS.get(event['reason'], event['reason'])}."
    if kind == "unopposed":
        return (f"↩️ {shown[event['seat']]} has nobody left to fight: {cards_line(event['cards'])} go back under "
                "the deck.")
    return None


def flips(events: Sequence[Event], names: Sequence[str], shown: int | None = None, *,
          engagement: int | None = None, image_names: Sequence[str] | None = None,
          picture: bool = True) -> Surface:
    found = _collect(events, engagement)
    total = len(found.flips)
    shown = total if shown is None else max(0, min(int(shown), total))
    complete = shown == total
    visible = base._visible(found, shown)
    if complete:
        visible = list(found.stream)  # what follows the last flip (the unopposed cards) too
    text_names = names_of(names)
    header = [f"{_vs(text_names)} — every order is locked in; flipping side by side."]
    lines = [line for line in (_stream_line(event, text_names) for event in visible) if line]
    if not any(event["type"] == "flip" for event in visible):
        lines.append("Nothing flipped yet.")
    tail = []
    if complete:
        tail += ["", summary(found, text_names)]
        if found.over is not None:
            size = found.start["stack_size"] if found.start else None
            tail.append(f"🏁 **Game over.** {base._result_headline(found.over, text_names)} "
                        f"{reason_text(found.over, text_names, stack_size=size)}")
    title = base._title(f"{TITLE} — engagement {found.number}: flips")
    return Surface(title, base._fit_flips(header, lines, tail), None)


def summary(found: base._Engagement, shown: list[str]) -> str:
    seats = range(len(shown))
    kept: list[list[str]] = [[] for _ in seats]
    lost: list[list[str]] = [[] for _ in seats]
    fights = ties = 0
    counts: Event | None = found.start
    for event in found.stream:
        if event["type"] == "fight":
            fights += 1
            if event["winner"] is not None:
                kept[event["winner"]] += event["kept"]
            for seat in seats:
                lost[seat] += event["discarded"][seat]
            counts = event
        elif event["type"] == "flip" and event["winner"] is None:
            ties += 1
        elif event["type"] == "unopposed":
            kept[event["seat"]] += event["cards"]
    if found.end is not None:
        counts = found.end
    playing = found.start["in_game"] if found.start and "in_game" in found.start else [True] * len(shown)
    ended_early = found.end is None and found.over is not None
    lines = [f"**Engagement {found.number} {'cut short' if ended_early else 'over'}:** "
             f"{count(fights, 'fight')}, {count(ties, 'tie')}."]
    for seat in seats:
        if playing[seat]:
            lines.append(f"**{shown[seat]}** kept {cards_line(kept[seat])} · lost {cards_line(lost[seat])}")
    if found.over is not None and "deck_counts" in found.over:
        counts = {**(counts or {}), "deck_counts": found.over["deck_counts"]}
    if counts is not None and "deck_counts" in counts:
        lines.append("Decks: " + " · ".join(f"{shown[s]} {counts['deck_counts'][s]}" for s in seats if playing[s]))
    return "\n".join(lines)


# --- the result ------------------------------------------------------------------------------------------
def reason_text(outcome: Mapping[str, Any], names: Sequence[str], *, stack_size: int | None = None) -> str:
    winner, reason = outcome.get("winner"), outcome.get("reason", "")
    stack = f"a full stack of {stack_size}" if stack_size else "a full stack"
    if winner is not None and reason == "most_cards":
        return f"Nobody left could draw {stack}; {names[winner]} had the most cards left and goes out last."
    if winner is not None:
        last = {"short_stack": f"the last opponent could not draw {stack}",
                "out_of_cards": "the last opponent had to add a tie-breaker card and had none left",
                "timeout": "the last opponent missed two deadlines in a row",
                "forfeit": "the last opponent forfeited"}.get(reason, reason.replace("_", " "))
        return f"{names[winner]} is the last one standing: {last}."
    return {"short_stack": f"Everyone left went out at once: none could draw {stack}.",
            "most_cards": f"Nobody left could draw {stack}, and the players with the most cards left had as many.",
            "out_of_cards": "Everyone left had to add a tie-breaker card and none had one.",
            "double_timeout": "Everyone still in missed two deadlines in a row."}.get(
        reason, f"The game ended in a draw ({reason.replace('_', ' ')}).")


def result(view: View, names: Sequence[str], *, image_names: Sequence[str] | None = None,
           ratings: Sequence[Mapping[str, float] | None] | None = None) -> Surface:
    outcome = view.get("outcome")
    if outcome is None:
        raise ValueError("this game is not over yet")
    shown = names_of(names)
    stats = view.get("stats", {})
    winner = outcome.get("winner")
    lines = [f"🏁 {base._result_headline(outcome, shown)} "
             f"{reason_text(outcome, shown, stack_size=view.get('stack_size'))}",
             f"{_vs(shown)} · {base.rules_text(view['rules'])}",
             f"Engagements: {view['engagement']} · ties fought: {stats.get('wars', 0)}"]
    out_order = list(view.get("out_order", []))
    for place, seat in enumerate(_places(view), start=1):
        where = "🏆" if seat == winner else f"{place}." if winner is not None else "="
        gone = "" if seat not in out_order else f" — out {ordinal(out_order.index(seat) + 1)}"
        lines.append(f"{where} **{shown[seat]}** · deck {view['deck_counts'][seat]} · "
                     f"discards {len(view['discards'][seat])}{gone}")
    rated = ratings_line(ratings, shown)
    if rated:
        lines.append(rated)
    title = f"{TITLE} — draw" if winner is None else f"{TITLE} — {plain_names(names, image_names)[winner]} wins"
    return Surface(base._title(title), clamp("\n".join(lines)))


def ordinal(number: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(number, f"{number}th")


# --- a seat's panel and status ---------------------------------------------------------------------------
def _known_lines(view: View, shown: list[str], seat: int | None) -> list[str]:
    in_game = _in_game(view)
    lines = []
    for s in range(len(shown)):
        if not in_game[s]:
            continue
        label = "Your deck" if seat == s else f"{possessive(shown[s])} deck"
        lines.append(f"{base._deck_line(label, view['deck_counts'][s], view['deck_bottoms'][s])} · "
                     f"discards {len(view['discards'][s])}")
    return lines


def dm_panel(view: View, names: Sequence[str], *, draft: Sequence[str] = (), deadline: When | None = None,
             image_names: Sequence[str] | None = None, picture: bool = True,
             closed: str | None = None, say: Texts = ENGLISH) -> ButtonSurface:
    seat = view.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        raise ValueError("the DM panel needs a seat's own view, game.view(seat)")
    if view["phase"] == "over":
        finished = result(view, names, image_names=image_names)
        return ButtonSurface(finished.title, finished.text, None, [])
    shown = names_of(names)
    in_game = _in_game(view)
    number, size = view["engagement"], view["stack_size"]
    if not in_game[seat]:
        return ButtonSurface(base._title(f"{TITLE} — engagement {number}"),
                             f"{OUT}: you are out of this game; the others play on. The flips are in the thread.",
                             None, [])
    stack = list(view["stacks"][seat])
    locked = bool(view["locked"][seat])
    order = list(view["my_order"]) if locked and view.get("my_order") else base._check_draft(stack, draft)
    others = [s for s in range(len(shown)) if s != seat and in_game[s]]
    waiting = [shown[s] for s in others if not view["locked"][s]]
    waiting_line = (f"Waiting for {', '.join(f'**{who}**' for who in waiting)}." if waiting
                    else "Everyone else has locked in.")
    if closed is not None:
        lines = [closed] + ([f"**Your order:** {base._order_line(order, size)}"] if order else [])
    elif locked:
        lines = [f"🔒 **Your order is locked in:** {base._order_line(order, size)}", waiting_line]
    else:
        due = f"Deadline: {timestamp(deadline)}, then your stack plays as drawn. " if deadline is not None else ""
        lines = [f"{due}{waiting_line}", f"**Your order:** {base._order_line(order, size)}"]
    lines += [f"**{possessive(shown[s])} stack:** {cards_line(view['stacks'][s])}" for s in others]
    lines += _known_lines(view, shown, seat)
    if not locked and closed is None:
        lines.append("-# Tap your cards in the order to play them, then lock in.")
    title = base._title(f"{TITLE} — engagement {number}: your battle order")
    buttons: list[Button] = [] if closed is not None else base.order_buttons(view, draft if not locked else order)
    surface_picture = _stacks_picture(view, plain_names(names, image_names), seat) if picture else None
    return ButtonSurface(title, clamp("\n".join(lines)), surface_picture, buttons)


def status(view: View, names: Sequence[str], *, deadline: When | None = None, draft: Sequence[str] = ()) -> str:
    shown = names_of(names)
    seat = view.get("seat")
    if view["phase"] == "over":
        finished = result(view, names)
        return clamp(f"**{finished.title}**\n{finished.text}")
    in_game = _in_game(view)
    number, size = view["engagement"], view["stack_size"]
    lines = [f"**{TITLE}:** {_vs(shown)} · engagement {number} · {base.rules_text(view['rules'])}"]
    for s, who in enumerate(shown):
        if not in_game[s]:
            lines.append(f"{who}: {OUT}")
        elif s == seat and view["locked"][s] and view.get("my_order"):
            lines.append(f"You: 🔒 locked in: {base._order_line(view['my_order'], size)}")
        elif s == seat:
            placed = base._check_draft(view["stacks"][s], draft)
            lines.append(f"You: {base.ARRANGING} ({len(placed)} of {size} placed)")
        else:
            lines.append(f"{who}: {base.LOCKED if view['locked'][s] else base.ARRANGING}")
    if deadline is not None and not all(view["locked"][s] for s in range(len(shown)) if in_game[s]):
        lines.append(base._deadline_line(deadline, "Orders lock in"))
    for s, who in enumerate(shown):
        if in_game[s]:
            label = "Your stack" if seat == s else f"{possessive(who)} stack"
            lines.append(f"{label} as drawn: {cards_line(view['stacks'][s])}")
    lines += ["", *_known_lines(view, shown, seat if isinstance(seat, int) else None)]
    lines.append(f"Ties fought so far: {view.get('stats', {}).get('wars', 0)}")
    return clamp("\n".join(lines))


# --- notices ---------------------------------------------------------------------------------------------
def afk(names: Sequence[str], seats: Sequence[int], engagement: int, *, forfeit: Sequence[int] = ()) -> str:
    shown = names_of(names)
    out = sorted(set(forfeit))
    late = [s for s in sorted(set(seats)) if s not in out]
    lines = [f"⏰ Time's up in engagement {engagement}:"]
    if out:
        lines.append(" and ".join(f"**{shown[s]}**" for s in out) + " missed a second deadline in a row: out of "
                     "the game.")
    if late:
        lines.append(" and ".join(f"**{shown[s]}**" for s in late) + " did not lock in an order: played as drawn.")
    return "\n".join(lines) + "\n-# A second missed deadline in a row puts a player out."


def lobby(players: Sequence[str], rules: Mapping[str, Any], *, expires_at: When | None,
          say: Texts = ENGLISH) -> ButtonSurface:
    """The lobby: the host (first) and who has joined, in ``say``'s language. Buttons: ``join``, ``leave``,
    ``start`` (the host, with three or four players), ``cancel`` (the host)."""
    _ = say
    shown = names_of(players)
    host = _("{player} (host)", player=f"**{shown[0]}**")
    lines = [_("✈️ **{host}** is opening a game of {game} for 3–4 players, a deck each!", host=shown[0],
               game=_(TITLE)),
             _("Rules: {rules}", rules=base.rules_text(rules, say=_)),
             _("Players ({count}/4): {players}", count=len(shown),
               players=", ".join([host, *(f"**{who}**" for who in shown[1:])]))]
    if expires_at is not None:
        lines.append(_("Press **Join** to play; the host starts the game. The lobby closes {when} if nobody joins "
                       "or leaves before then.", when=timestamp(expires_at)))
    buttons = [Button("join", _("Join"), len(shown) < 4, "success"), Button("leave", _("Leave"), True, "secondary"),
               Button("start", _("Start"), len(shown) >= 3, "primary"),
               Button("cancel", _("Cancel"), True, "danger")]
    return ButtonSurface(base._title(_("{game} lobby", game=_(TITLE))), clamp("\n".join(lines)), None, buttons)


def started(players: Sequence[str], where: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if where:
        return "⚔️ " + _("{game}: {players} — the match is on in {thread}.", game=_(TITLE), players=", ".join(players),
                         thread=where)
    return "⚔️ " + _("{game}: {players} — it's on.", game=_(TITLE), players=", ".join(players))
