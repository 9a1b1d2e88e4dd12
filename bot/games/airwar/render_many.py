"""Air War's surfaces for three or four players (:mod:`bot.games.airwar.render` hands them over when it gets more
than two names; two-player surfaces are never drawn here). The pieces both share are
:mod:`bot.games.airwar.render_parts`.

Written for a phone: one short block per player, a flip on one line (``2. Ann K♠ · Bob K♦ · Cy 4♣: tie``), the
players that are out named once. The same rules as two-player Air War's surfaces hold: every surface is text alone
(no picture; the cards in card notation, ``10♣``), public surfaces take the spectator view or the public events and
never read ``my_order``; a panel takes its seat's own view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.games.airwar import render_parts as parts
from bot.games.airwar.engine import finishing_places
from bot.i18n import N_, Texts
from bot.render.common import (
    ENGLISH,
    Button,
    ButtonSurface,
    Surface,
    cards_line,
    clamp,
    join_words,
    name,
    plain_names,
    rating_change,
    timestamp,
    win_title,
)

if TYPE_CHECKING:
    from bot.render.common import Event, View, When

TITLE = parts.TITLE
OUT = N_("❌ out")
#: why a seat went out (an ``out`` event's ``reason``), after its name
OUT_WORDS = {"short_stack": N_("could not draw a full stack"), "out_of_cards": N_("had no tie-breaker card left"),
             "forfeit": N_("forfeited"), "timeout": N_("missed two deadlines in a row")}
#: the result's "out first", "out second"... by the order the seats went out in
OUT_PLACES = {1: N_("out first"), 2: N_("out second"), 3: N_("out third"), 4: N_("out fourth")}


def names_of(names: Sequence[str]) -> list[str]:
    return [name(n) for n in names]


def _vs(shown: Sequence[str], say: Texts = ENGLISH) -> str:
    return parts.versus([f"**{who}**" for who in shown], say)


def _in_game(view: Mapping[str, Any]) -> list[bool]:
    return list(view.get("in_game") or [True] * len(view["stacks"]))


def _places(view: Mapping[str, Any]) -> list[int]:
    """Each seat's finishing place (see :func:`~bot.games.airwar.engine.finishing_places`)."""
    outcome = view.get("outcome") or {}
    return finishing_places(outcome.get("winner"), _in_game(view), view.get("out_order", []),
                            view.get("together", []))


# --- the board -------------------------------------------------------------------------------------------
def board(view: View, names: Sequence[str], *, deadline: When | None = None, ended: bool = False,
          say: Texts = ENGLISH) -> Surface:
    _ = say
    shown = names_of(names)
    number = view["engagement"]
    in_game = _in_game(view)
    lines = [f"{_vs(shown, _)} · {parts.rules_text(view['rules'], say=_)}"]
    waiting = [s for s in range(len(shown)) if in_game[s] and not view["locked"][s]]
    if waiting and not ended:
        if deadline is not None:
            lines.append(_("Each player arranges a battle order with **{button}** below or in their DMs; orders lock "
                           "in {when}. A stack not locked in by then plays as drawn.", button=_(parts.PANEL_BUTTON),
                           when=timestamp(deadline)))
        else:
            lines.append(_("Each player arranges a battle order with **{button}** below or in their DMs; orders lock "
                           "in. A stack not locked in by then plays as drawn.", button=_(parts.PANEL_BUTTON)))
    for seat, who in enumerate(shown):
        if not in_game[seat]:
            lines += ["", f"**{who}** — {_(OUT)}"]
            continue
        state = parts.LOCKED if view["locked"][seat] else parts.NOT_LOCKED if ended else parts.ARRANGING
        cards = _.ngettext("{count} card", "{count} cards", view["deck_counts"][seat])
        lines += ["", f"**{who}** — {_(state)}", _("Stack: {cards}", cards=cards_line(view["stacks"][seat], say=_)),
                  _("Deck {cards} · discards {discards}", cards=cards, discards=len(view["discards"][seat]))]
    return Surface(parts.title_line(_("{game} — engagement {number}", game=_(TITLE), number=number)),
                   clamp("\n".join(lines), say=_))


# --- flip by flip ----------------------------------------------------------------------------------------
#: the events of an engagement's stream with three or four players: the flips and fights, a seat going out, cards
#: nobody was left to fight
STREAM_KINDS = ("flip", "fight", "out", "unopposed")


def _collect(events: Sequence[Event], engagement: int | None) -> parts.Engagement:
    return parts.collect(events, engagement, STREAM_KINDS)


def _stream_line(event: Event, shown: list[str], say: Texts = ENGLISH) -> str | None:
    _ = say
    kind = event["type"]
    if kind == "flip":
        pairs = " · ".join(f"{shown[s]} {card_label(card)}" for s, card in enumerate(event["cards"])
                           if card is not None)
        source = " " + _("(tie-breakers from the decks)") if "deck" in event["sources"] else ""
        if event["winner"] is None:
            tied = join_words([shown[s] for s in event.get("tied", [])], _)
            return f"{event['flip']}. {pairs}{source}: " + _("tie — {players} go on", players=tied)
        return f"{event['flip']}. {pairs}{source}: " + _("**{player}** wins", player=shown[event["winner"]])
    if kind == "fight":
        if event["winner"] is None:
            return None
        return "   → " + _("{player} keeps {cards}", player=shown[event["winner"]],
                            cards=cards_line(event["kept"], say=_))
    if kind == "out":
        why = OUT_WORDS.get(event["reason"])
        return f"{_(OUT)}: " + _("**{player}** {why}.", player=shown[event["seat"]],
                                 why=_(why) if why else event["reason"])
    if kind == "unopposed":
        return "↩️ " + _("{player} has nobody left to fight: {cards} go back under the deck.",
                         player=shown[event["seat"]], cards=cards_line(event["cards"], say=_))
    return None


def flips(events: Sequence[Event], names: Sequence[str], shown: int | None = None, *,
          engagement: int | None = None, say: Texts = ENGLISH) -> Surface:
    _ = say
    found = _collect(events, engagement)
    total = len(found.flips)
    shown = total if shown is None else max(0, min(int(shown), total))
    complete = shown == total
    visible = parts.visible_events(found, shown)
    if complete:
        visible = list(found.stream)  # what follows the last flip (the unopposed cards) too
    text_names = names_of(names)
    header = [_("{players} — every order is locked in; flipping side by side.", players=_vs(text_names, _))]
    lines = [line for line in (_stream_line(event, text_names, _) for event in visible) if line]
    if not any(event["type"] == "flip" for event in visible):
        lines.append(_("Nothing flipped yet."))
    tail = parts.end_lines(found, summary(found, text_names, _), text_names, reason_text, _) if complete else []
    return parts.flips_surface(found, header, lines, tail, _)


def summary(found: parts.Engagement, shown: list[str], say: Texts = ENGLISH) -> str:
    _ = say
    seats = range(len(shown))
    kept: list[list[str]] = [[] for _seat in seats]
    lost: list[list[str]] = [[] for _seat in seats]
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
    lines = [parts.summary_head(found.number, fights, ties, found.end is None and found.over is not None, _)]
    for seat in seats:
        if playing[seat]:
            lines.append(_("**{player}** kept {kept} · lost {lost}", player=shown[seat],
                           kept=cards_line(kept[seat], say=_), lost=cards_line(lost[seat], say=_)))
    if found.over is not None and "deck_counts" in found.over:
        counts = {**(counts or {}), "deck_counts": found.over["deck_counts"]}
    if counts is not None and "deck_counts" in counts:
        lines.append(_("Decks: {decks}", decks=" · ".join(f"{shown[s]} {counts['deck_counts'][s]}" for s in seats
                                                           if playing[s])))
    return "\n".join(lines)


def engagement_summary(events: Sequence[Event], names: Sequence[str], *, engagement: int | None = None,
                       say: Texts = ENGLISH) -> str:
    """What each player kept and lost in an engagement, and the decks left (see
    :func:`bot.games.airwar.render.engagement_summary`)."""
    return clamp(summary(_collect(events, engagement), names_of(names), say), say=say)


# --- the result ------------------------------------------------------------------------------------------
def reason_text(outcome: Mapping[str, Any], names: Sequence[str], *, stack_size: int | None = None,
                say: Texts = ENGLISH) -> str:
    _ = say
    winner, reason = outcome.get("winner"), outcome.get("reason", "")
    stack = _("a full stack of {size}", size=stack_size) if stack_size else _("a full stack")
    if winner is not None and reason == "most_cards":
        return _("Nobody left could draw {stack}; {player} had the most cards left and goes out last.", stack=stack,
                 player=names[winner])
    if winner is not None:
        player = names[winner]
        if reason == "short_stack":
            return _("{player} is the last one standing: the last opponent could not draw {stack}.", player=player,
                     stack=stack)
        if reason == "out_of_cards":
            return _("{player} is the last one standing: the last opponent had to add a tie-breaker card and had "
                     "none left.", player=player)
        if reason == "timeout":
            return _("{player} is the last one standing: the last opponent missed two deadlines in a row.",
                     player=player)
        if reason == "forfeit":
            return _("{player} is the last one standing: the last opponent forfeited.", player=player)
        return _("{player} is the last one standing: {reason}.", player=player, reason=reason.replace("_", " "))
    if reason == "short_stack":
        return _("Everyone left went out at once: none could draw {stack}.", stack=stack)
    if reason == "most_cards":
        return _("Nobody left could draw {stack}, and the players with the most cards left had as many.", stack=stack)
    if reason == "out_of_cards":
        return _("Everyone left had to add a tie-breaker card and none had one.")
    if reason == "double_timeout":
        return _("Everyone still in missed two deadlines in a row.")
    return _("The game ended in a draw ({reason}).", reason=reason.replace("_", " "))


def result(view: View, names: Sequence[str], *, image_names: Sequence[str] | None = None,
           ratings: Sequence[Mapping[str, float] | None] | None = None, say: Texts = ENGLISH) -> Surface:
    outcome = view.get("outcome")
    if outcome is None:
        raise ValueError("this game is not over yet")
    _ = say
    shown = names_of(names)
    stats = view.get("stats", {})
    winner = outcome.get("winner")
    lines = [f"🏁 {parts.result_headline(outcome, shown, _)} "
             f"{reason_text(outcome, shown, stack_size=view.get('stack_size'), say=_)}",
             f"{_vs(shown, _)} · {parts.rules_text(view['rules'], say=_)}",
             _("Engagements: {engagements} · ties fought: {ties}", engagements=view["engagement"],
               ties=stats.get("wars", 0))]
    out_order = list(view.get("out_order", []))
    together = set(view.get("together", []))
    places = _places(view)
    for seat in sorted(range(len(shown)), key=lambda s: (places[s], s)):  # first to last
        place = places[seat]
        where = "🏆" if seat == winner else f"={place}." if places.count(place) > 1 else f"{place}."
        gone = ""
        if seat in out_order and seat not in together:  # (the seats of a draw went out together, at the end)
            went = out_order.index(seat) + 1
            gone = " — " + _(OUT_PLACES[went])  # (four players at most)
        counts = _("deck {deck} · discards {discards}", deck=view["deck_counts"][seat],
                   discards=len(view["discards"][seat]))
        change = rating_change(ratings[seat], say=_) if ratings and seat < len(ratings) else None
        rated = " · " + _("rating {change}", change=change) if change else ""
        lines.append(f"{where} **{shown[seat]}** · {counts}{gone}{rated}")
    if winner is None:
        title = _("{game} — draw", game=_(TITLE))
    else:
        title = win_title(_(TITLE), plain_names(names, image_names, _)[winner], _)
    return Surface(parts.title_line(title), clamp("\n".join(lines), say=_))


# --- a seat's panel and status ---------------------------------------------------------------------------
def dm_panel(view: View, names: Sequence[str], *, draft: Sequence[str] = (), deadline: When | None = None,
             image_names: Sequence[str] | None = None, closed: str | None = None,
             say: Texts = ENGLISH) -> ButtonSurface:
    seat = view.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(names):
        raise ValueError("the DM panel needs a seat's own view, game.view(seat)")
    _ = say
    if view["phase"] == "over":
        finished = result(view, names, image_names=image_names, say=_)
        return ButtonSurface(finished.title, finished.text, None, [])
    shown = names_of(names)
    in_game = _in_game(view)
    number, size = view["engagement"], view["stack_size"]
    if not in_game[seat]:
        return ButtonSurface(parts.title_line(_("{game} — engagement {number}", game=_(TITLE), number=number)),
                             f"{_(OUT)}: " + _("you are out of this game; the others play on. The flips are in the "
                                               "thread."), None, [])
    stack = list(view["stacks"][seat])
    locked = bool(view["locked"][seat])
    order = list(view["my_order"]) if locked and view.get("my_order") else parts.check_draft(stack, draft)
    others = [s for s in range(len(shown)) if s != seat and in_game[s]]
    waiting = [shown[s] for s in others if not view["locked"][s]]
    waiting_line = (_("Waiting for {players}.", players=", ".join(f"**{who}**" for who in waiting)) if waiting
                    else _("Everyone else has locked in."))
    if closed is not None:
        lines = [closed] + ([_("**Your order:** {order}", order=parts.order_line(order, size))] if order else [])
    elif locked:
        lines = [_("🔒 **Your order is locked in:** {order}", order=parts.order_line(order, size)), waiting_line]
    else:
        due = (_("Deadline: {when}, then your stack plays as drawn.", when=timestamp(deadline)) + " "
               if deadline is not None else "")
        lines = [f"{due}{waiting_line}", _("**Your order:** {order}", order=parts.order_line(order, size))]
    lines += [_("**{player}'s stack:** {cards}", player=shown[s], cards=cards_line(view["stacks"][s], say=_))
              for s in others]
    lines += parts.known_lines(view, shown, seat, _)
    if not locked and closed is None:
        lines.append("-# " + _("Tap your cards in the order to play them, then lock in."))
    title = parts.title_line(_("{game} — engagement {number}: your battle order", game=_(TITLE), number=number))
    buttons: list[Button] = ([] if closed is not None
                             else parts.order_buttons(view, draft if not locked else order, say=_))
    return ButtonSurface(title, clamp("\n".join(lines), say=_), None, buttons)


def status(view: View, names: Sequence[str], *, deadline: When | None = None, draft: Sequence[str] = (),
           say: Texts = ENGLISH) -> str:
    """A game still being played (:func:`bot.games.airwar.render.status` says a finished one's result)."""
    _ = say
    shown = names_of(names)
    seat = view.get("seat")
    in_game = _in_game(view)
    number, size = view["engagement"], view["stack_size"]
    lines = [_("**{game}:** {players} · engagement {number} · {rules}", game=_(TITLE), players=_vs(shown, _),
               number=number, rules=parts.rules_text(view["rules"], say=_))]
    for s, who in enumerate(shown):
        if not in_game[s]:
            lines.append(f"{who}: {_(OUT)}")
        elif s == seat and view["locked"][s] and view.get("my_order"):
            lines.append(_("You: 🔒 locked in: {order}", order=parts.order_line(view["my_order"], size)))
        elif s == seat:
            placed = parts.check_draft(view["stacks"][s], draft)
            lines.append(_("You: {state} ({placed} of {size} placed)", state=_(parts.ARRANGING), placed=len(placed),
                           size=size))
        else:
            lines.append(f"{who}: {_(parts.LOCKED) if view['locked'][s] else _(parts.ARRANGING)}")
    if deadline is not None and not all(view["locked"][s] for s in range(len(shown)) if in_game[s]):
        lines.append(parts.deadline_line(deadline, _))
    for s, who in enumerate(shown):
        if in_game[s]:
            cards = cards_line(view["stacks"][s], say=_)
            lines.append(_("Your stack as drawn: {cards}", cards=cards) if seat == s
                         else _("{player}'s stack as drawn: {cards}", player=who, cards=cards))
    lines += ["", *parts.known_lines(view, shown, seat if isinstance(seat, int) else None, _)]
    lines.append(_("Ties fought so far: {count}", count=view.get("stats", {}).get("wars", 0)))
    return clamp("\n".join(lines), say=_)


# --- notices ---------------------------------------------------------------------------------------------
def afk(names: Sequence[str], seats: Sequence[int], engagement: int, *, forfeit: Sequence[int] = (),
        say: Texts = ENGLISH) -> str:
    _ = say
    shown = names_of(names)
    out = sorted(set(forfeit))
    late = [s for s in sorted(set(seats)) if s not in out]
    lines = [_("⏰ Time's up in engagement {number}:", number=engagement)]
    if out:
        lines.append(_("{players} missed a second deadline in a row: out of the game.",
                       players=join_words([f"**{shown[s]}**" for s in out], _)))
    if late:
        lines.append(_("{players} did not lock in an order: played as drawn.",
                       players=join_words([f"**{shown[s]}**" for s in late], _)))
    return "\n".join(lines) + "\n-# " + _("A second missed deadline in a row puts a player out.")


def lobby(players: Sequence[str], rules: Mapping[str, Any], *, expires_at: When | None,
          say: Texts = ENGLISH) -> ButtonSurface:
    """The lobby: the host (first) and who has joined, in ``say``'s language. Buttons: ``join``, ``leave``,
    ``start`` (the host, with three or four players), ``cancel`` (the host)."""
    _ = say
    shown = names_of(players)
    bold_host = f"**{shown[0]}**"
    host = _("{player} (host)", player=bold_host)
    lines = [_("✈️ **{host}** is opening a game of {game} for 3–4 players, a deck each!", host=shown[0],
               game=_(TITLE)),
             _("Rules: {rules}", rules=parts.rules_text(rules, say=_)),
             _("Players ({count}/4): {players}", count=len(shown),
               players=", ".join([host, *(f"**{who}**" for who in shown[1:])]))]
    if expires_at is not None:
        lines.append(_("Press **Join** to play; the host starts the game. The lobby closes {when} if nobody joins "
                       "or leaves before then.", when=timestamp(expires_at)))
    buttons = [Button("join", _("Join"), len(shown) < 4, "success"), Button("leave", _("Leave"), True, "secondary"),
               Button("start", _("Start"), len(shown) >= 3, "primary"),
               Button("cancel", _("Cancel"), True, "danger")]
    return ButtonSurface(parts.title_line(_("{game} lobby", game=_(TITLE))), clamp("\n".join(lines), say=_), None,
                         buttons)


def started(players: Sequence[str], where: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if where:
        return "⚔️ " + _("{game}: {players} — the match is on in {thread}.", game=_(TITLE), players=", ".join(players),
                         thread=where)
    return "⚔️ " + _("{game}: {players} — it's on.", game=_(TITLE), players=", ".join(players))
