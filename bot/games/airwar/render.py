"""Air War texts for every surface players see, from engine views and events only.

Nothing here reads a stored game: the public surfaces take the spectator view (``game.view(None)``) or the
public events, the DM panel takes the seat's own view, so a hidden order cannot slip into a public message.
Public renderers also never read ``my_order``, even when handed a seat's view.

Surfaces (each returns a :class:`~bot.render.common.Surface`, a :class:`~bot.render.common.ButtonSurface`
(with buttons) or plain text). Every surface is text alone (its ``picture`` is ``None``): the live table (the board,
its flips, the panels) has the cards in its text, which the kit shows as the app's card emoji.

* :func:`board` -- the public engagement message while both players arrange: stacks as drawn, counts, deadline,
  who has locked in;
* :func:`flips` -- the same message flip by flip once both are locked in (``shown`` flips so far), ending
  with the engagement summary; :func:`flip_count` says how many flips there are;
* :func:`engagement_summary` -- what each player kept and lost in an engagement;
* :func:`result` -- the game's result; :func:`reason_text` -- why a game ended, in words;
* :func:`dm_panel` -- a player's panel (by DM, or ephemeral in the thread): the opponent's stack, the draft order,
  what is known about both decks, the deadline, buttons (:func:`order_buttons`; :func:`draft_after` applies a
  button to a draft);
* :func:`status` -- ``/airwar status``;
* :func:`challenge`, :func:`declined`, :func:`withdrawn`, :func:`expired`, :func:`afk`, :func:`forfeited`,
  :func:`deadline_moved`, :func:`thread_lost`; :func:`panel_closed` -- a DM panel's line once its engagement ended
  without it.

Cards appear in one notation in texts and buttons, rank and suit symbol (``Q♠``, ``10♣``, ``🃏``:
:func:`bot.cards.card_label`). Three or four players' surfaces are :mod:`bot.games.airwar.render_many`'s (each
surface here hands them over); the pieces both build on are in :mod:`bot.games.airwar.render_parts`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label
from bot.games.airwar import render_many
from bot.games.airwar.render_parts import (
    ARRANGING,
    LOCKED,
    NOT_LOCKED,
    PANEL_BUTTON,
    TITLE,
    Engagement,
    check_draft,
    collect,
    deadline_line,
    end_lines,
    flips_surface,
    known_lines,
    order_buttons,
    order_line,
    result_headline,
    rules_text,
    summary_head,
    title_line,
    versus,
    visible_events,
)
from bot.i18n import N_, Texts
from bot.render.common import (
    ENGLISH,
    Button,
    ButtonSurface,
    Surface,
    cards_line,
    challenge_surface,
    clamp,
    declined_line,
    expired_line,
    join_words,
    name,
    plain_names,
    quick_to_draw,
    ratings_line,
    timestamp,
    two_names,
    win_title,
    withdrawn_line,
)

if TYPE_CHECKING:
    from bot.render.common import Event, View, When


# --- small pieces -----------------------------------------------------------------------------------


def _names(names: Sequence[str]) -> list[str]:
    return [name(n) for n in names] if _many(names) else two_names(names, TITLE)


def _many(names: Sequence[str]) -> bool:
    """Three or four players: their surfaces are :mod:`bot.games.airwar.render_many`'s."""
    return 3 <= len(names) <= 4


# --- the public board -------------------------------------------------------------------------------


def board(view: View, names: Sequence[str], *, deadline: When | None = None,
          image_names: Sequence[str] | None = None, ended: bool = False, say: Texts = ENGLISH) -> Surface:
    """The public engagement message while the players arrange their stacks: text only (no picture).

    ``view`` is the spectator view (``game.view(None)``); a seat's view works too, its ``my_order`` is never
    read. Shows both stacks as drawn (in card notation, ``10♣``), each deck's and discard pile's count, who has
    locked in and the deadline (``<t:UNIX:R>``); ``ended``: the game ended before the engagement was played, so
    nobody is arranging any more (a seat that had not locked in is shown as such, without the instructions). A
    finished game (two players) gives its :func:`result` instead, whose title names the winner by ``image_names``
    (plain names) if given. In ``say``'s language (the server's).
    """
    if _many(names):
        return render_many.board(view, names, deadline=deadline, ended=ended, say=say)
    if view["phase"] == "over":
        return result(view, names, image_names=image_names, say=say)
    _ = say
    shown = _names(names)
    number = view["engagement"]
    stacks = [list(stack) for stack in view["stacks"]]
    lines = [f"{versus([f'**{who}**' for who in shown], _)} · {rules_text(view['rules'], say=_)}"]
    waiting = [shown[seat] for seat in (0, 1) if not view["locked"][seat]]
    if waiting and not ended:
        if deadline is not None:
            lines.append(_("Each player arranges a battle order with **{button}** below or in their DMs; orders lock "
                           "in {when}. A stack not locked in by then plays as drawn.", button=_(PANEL_BUTTON),
                           when=timestamp(deadline)))
        else:
            lines.append(_("Each player arranges a battle order with **{button}** below or in their DMs; orders lock "
                           "in. A stack not locked in by then plays as drawn.", button=_(PANEL_BUTTON)))
    for seat in (0, 1):
        state = LOCKED if view["locked"][seat] else NOT_LOCKED if ended else ARRANGING
        cards = _.ngettext("{count} card", "{count} cards", view["deck_counts"][seat])
        lines += [
            "",
            f"**{shown[seat]}** — {_(state)}",
            _("Stack as drawn: {cards}", cards=cards_line(stacks[seat], say=_)),
            _("Deck {cards} · discards {discards}", cards=cards, discards=len(view["discards"][seat])),
        ]
    return Surface(title_line(_("{game} — engagement {number}", game=_(TITLE), number=number)),
                   clamp("\n".join(lines), say=_))


# --- flip by flip ------------------------------------------------------------------------------------


def flip_count(events: Sequence[Event], engagement: int | None = None) -> int:
    """How many flips the engagement had (the last ``shown`` for :func:`flips`)."""
    return len(collect(events, engagement).flips)


def _flip_line(flip: Event, fight: Event | None, shown: list[str], say: Texts = ENGLISH) -> str:
    _ = say
    a, b = (card_label(card) for card in flip["cards"])
    source = " " + _("(tie-breakers from the decks)") if "deck" in flip["sources"] else ""
    line = f"{flip['flip']}. " + versus([a, b], _) + f"{source}: "
    if flip["winner"] is None:
        return line + _("tie")
    winner = flip["winner"]
    line += _("**{player}** wins", player=shown[winner])
    if fight is not None:
        loser = fight["loser"]
        line += " → " + _("keeps {kept}; {loser} discards {discarded}", kept=cards_line(fight["kept"], say=_),
                          loser=shown[loser], discarded=cards_line(fight["discarded"], say=_))
    return line


def flips(events: Sequence[Event], names: Sequence[str], shown: int | None = None, *,
          engagement: int | None = None, say: Texts = ENGLISH) -> Surface:
    """The public engagement message with the first ``shown`` flips (all of them when ``None``), in ``say``'s
    language (the server's): text only (no picture), a flip a line with its cards in card notation (``10♣``).

    ``events`` are the engagement's events, in order: its ``engagement`` event (the stacks as drawn; from the
    call that drew them) and the events of the call that played it (other engagements' events are ignored;
    ``engagement`` picks one, by default the one that was flipped). The text for ``shown`` flips depends only on
    those flips and public facts from before them, never on later flips, so the cog can edit one message flip by
    flip (``shown`` = 1 .. :func:`flip_count`) and render the same frame again after a restart. The last frame
    adds the :func:`engagement_summary` (and the game's end, if it ended here). When the message would be too
    long, the oldest flip lines give way to one line saying they are hidden.
    """
    if _many(names):
        return render_many.flips(events, names, shown, engagement=engagement, say=say)
    found = collect(events, engagement)
    all_flips = found.flips
    total = len(all_flips)
    shown = total if shown is None else max(0, min(int(shown), total))
    complete = shown == total
    visible = visible_events(found, shown)
    flipped = [event for event in visible if event["type"] == "flip"]
    _ = say
    text_names = _names(names)

    header = [_("**{first}** vs **{second}** — both orders are locked in; flipping side by side.",
                first=text_names[0], second=text_names[1])]
    flip_lines = []
    for i, event in enumerate(visible):
        if event["type"] == "flip":
            following = visible[i + 1] if i + 1 < len(visible) else None
            fight = following if following is not None and following["type"] == "fight" else None
            flip_lines.append(_flip_line(event, fight, text_names, _))
    if not flipped:
        flip_lines.append(_("Nothing flipped yet."))

    tail: list[str] = []
    remaining = _remaining(found, flipped)
    if remaining is not None and any(remaining) and not complete:
        tail.append(_("Not flipped yet — {first}: {first_cards} · {second}: {second_cards}", first=text_names[0],
                      first_cards=cards_line(remaining[0], say=_), second=text_names[1],
                      second_cards=cards_line(remaining[1], say=_)))
    if complete:
        tail += end_lines(found, _summary(found, text_names, _), text_names, reason_text, _)
    return flips_surface(found, header, flip_lines, tail, _)


def _remaining(found: Engagement, flipped: list[Event]) -> list[list[str]] | None:
    """Each stack's cards not flipped yet, in the order drawn (public: the stacks were shown as drawn)."""
    if found.start is None:
        return None
    left = [list(stack) for stack in found.start["stacks"]]
    for flip in flipped:
        for seat in (0, 1):
            if flip["sources"][seat] == "stack" and flip["cards"][seat] in left[seat]:
                left[seat].remove(flip["cards"][seat])
    return left


# --- engagement summary and result -------------------------------------------------------------------


def engagement_summary(events: Sequence[Event], names: Sequence[str], *, engagement: int | None = None,
                       say: Texts = ENGLISH) -> str:
    """What each player kept (back under their deck) and lost (discarded) in an engagement, and the counts."""
    if _many(names):
        return render_many.engagement_summary(events, names, engagement=engagement, say=say)
    return clamp(_summary(collect(events, engagement), _names(names), say), say=say)


def _summary(found: Engagement, shown: list[str], say: Texts = ENGLISH) -> str:
    _ = say
    kept: list[list[str]] = [[], []]
    lost: list[list[str]] = [[], []]
    fights = ties = 0
    table: list[list[str]] = [[], []]
    counts: Event | None = found.start
    for event in found.stream:
        if event["type"] == "fight":
            fights += 1
            kept[event["winner"]] += event["kept"]
            lost[event["loser"]] += event["discarded"]
            table = [[], []]
            counts = event
        else:
            if event["winner"] is None:
                ties += 1
            for seat in (0, 1):
                table[seat].append(event["cards"][seat])
    if found.end is not None:
        counts = found.end
    ended_early = found.end is None and found.over is not None
    lines = [summary_head(found.number, fights, ties, ended_early, _)]
    for seat in (0, 1):
        lines.append(_("**{player}** kept {kept} (back under the deck) · lost {lost} (discarded)",
                       player=shown[seat], kept=cards_line(kept[seat], say=_), lost=cards_line(lost[seat], say=_)))
    if ended_early and any(table):
        lines.append(_table_line(table, shown, _))
    if found.over is not None and "deck_counts" in found.over:
        counts = {**(counts or {}), "deck_counts": found.over["deck_counts"]}
    if counts is not None and "deck_counts" in counts:
        lines.append(_decks_line(counts["deck_counts"], counts.get("discard_counts"), shown, _))
    return "\n".join(lines)


def _table_line(table: Sequence[Sequence[str]], shown: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    return _("Left on the table, a tie nobody could break: {first} {first_cards} · {second} {second_cards}",
             first=shown[0], first_cards=cards_line(table[0], say=_), second=shown[1],
             second_cards=cards_line(table[1], say=_))


def _decks_line(decks: Sequence[int], discards: Sequence[int] | None, shown: Sequence[str],
                say: Texts = ENGLISH) -> str:
    _ = say
    if discards is None:
        return _("Decks: {first} {first_deck} · {second} {second_deck}", first=shown[0], first_deck=decks[0],
                 second=shown[1], second_deck=decks[1])
    return _("Decks: {first} {first_deck} · {second} {second_deck} — discards: {first} {first_discards} · "
             "{second} {second_discards}", first=shown[0], first_deck=decks[0], second=shown[1],
             second_deck=decks[1], first_discards=discards[0], second_discards=discards[1])


def reason_text(outcome: Mapping[str, Any], names: Sequence[str], *, stack_size: int | None = None,
                say: Texts = ENGLISH) -> str:
    """Why the game ended, in words (``say``'s language), from an outcome (``view["outcome"]``) or a
    ``game_over`` event.

    ``names`` are used as given (already escaped when they come from :func:`name`)."""
    if _many(names):
        return str(render_many.reason_text(outcome, names, stack_size=stack_size, say=say))
    _ = say
    winner, reason = outcome.get("winner"), outcome.get("reason", "")
    decks = outcome.get("deck_counts")
    stack = _("a full stack of {size}", size=stack_size) if stack_size else _("a full stack")
    if reason == "short_stack":
        if winner is None:
            held = " " + _("({first} has {first_deck}, {second} has {second_deck})", first=names[0],
                           first_deck=decks[0], second=names[1], second_deck=decks[1]) if decks else ""
            return _("Neither player can draw {stack}{held}.", stack=stack, held=held)
        loser = 1 - winner
        left = " " + _("(only {cards} left)", cards=_.ngettext("{count} card", "{count} cards",
                                                               decks[loser])) if decks else ""
        return _("{player} cannot draw {stack}{left}.", player=names[loser], stack=stack, left=left)
    if reason == "out_of_cards":
        if winner is None:
            return _("Both players had to add a tie-breaker card and neither had one left.")
        return _("{player} had to add a tie-breaker card and had none left.", player=names[1 - winner])
    if reason == "timeout" and winner is not None:
        return _("{player} missed two deadlines in a row and forfeited.", player=names[1 - winner])
    if reason == "double_timeout":
        return _("Both players missed two deadlines in a row.")
    if winner is None:
        if reason:
            return _("The game ended in a draw ({reason}).", reason=reason.replace("_", " "))
        return _("The game ended in a draw.")
    why = "" if reason in ("forfeit", "") else f" ({reason.replace('_', ' ')})"
    return _("{player} forfeited{why}.", player=names[1 - winner], why=why)


@quick_to_draw  # (text only: the presenter's ``rendered`` then makes it on the event loop, not in the picture process)
def result(view: View, names: Sequence[str], *, image_names: Sequence[str] | None = None,
           ratings: Sequence[Mapping[str, float] | None] | None = None, say: Texts = ENGLISH) -> Surface:
    """The result message of a finished game, from any view of it (``game.view(None)``): text only (no picture).

    ``image_names``: the players' plain names, for the title (which cannot show a mention; else "Player 1"...).
    ``ratings``: per seat ``{"before": x, "after": y}`` (the service's ``result`` event), shown as changes."""
    if _many(names):
        return render_many.result(view, names, image_names=image_names, ratings=ratings, say=say)
    outcome = view.get("outcome")
    if outcome is None:
        raise ValueError("this game is not over yet")
    _ = say
    shown = _names(names)
    decks = view["deck_counts"]
    discards = [len(pile) for pile in view["discards"]]
    stats = view.get("stats", {})
    full = {**outcome, "deck_counts": decks}
    reason = reason_text(full, shown, stack_size=view.get("stack_size"), say=_)
    lines = [
        f"🏁 {result_headline(outcome, shown, _)} {reason}",
        f"{versus([f'**{who}**' for who in shown], _)} · {rules_text(view['rules'], say=_)}",
        _("Engagements: {engagements} · ties fought: {ties}", engagements=view["engagement"],
          ties=stats.get("wars", 0)),
        _decks_line(decks, discards, shown, _),
    ]
    table = view.get("table") or [[], []]
    if any(table):
        lines.append(_table_line(table, shown, _))
    rated = ratings_line(ratings, shown, say=_)
    if rated:
        lines.append(rated)
    winner = outcome.get("winner")
    if winner is None:
        title = _("{game} — draw", game=_(TITLE))
    else:
        title = win_title(_(TITLE), plain_names(names, image_names, _)[winner], _)
    return Surface(title_line(title), clamp("\n".join(lines), say=_))


# --- the DM panel ------------------------------------------------------------------------------------


def dm_panel(view: View, names: Sequence[str], *, draft: Sequence[str] = (), deadline: When | None = None,
             image_names: Sequence[str] | None = None, closed: str | None = None,
             say: Texts = ENGLISH) -> ButtonSurface:
    """A player's panel for the current engagement (in a DM, or ephemeral in the match's thread), from their own
    view (``game.view(seat)``); short enough to read on a phone; in ``say``'s language (the player's). Text and
    buttons only (no picture).

    Shows the deadline and whether the opponent has locked in, the order so far (``draft``, positions 1..N; the
    locked order once locked in), the opponent's stack as drawn (the seat's own is on its buttons), and what is
    known of both decks, the cards in card notation (``10♣``). ``buttons`` come from :func:`order_buttons` (none
    once locked). A finished game gives its :func:`result` (no buttons), whose title names the winner by
    ``image_names`` (plain names) if given.

    ``closed``: the engagement is over without this panel (time ran out, the game ended): that line replaces the
    instructions and the deadline, ``draft`` is the order that was played (if any) and there are no buttons.
    """
    if _many(names):
        return render_many.dm_panel(view, names, draft=draft, deadline=deadline, image_names=image_names,
                                       closed=closed, say=say)
    seat = view.get("seat")
    if seat not in (0, 1):
        raise ValueError("the DM panel needs a seat's own view, game.view(seat)")
    if view["phase"] == "over":
        finished = result(view, names, image_names=image_names, say=say)
        return ButtonSurface(finished.title, finished.text, None, [])
    _ = say
    other = 1 - seat
    shown = _names(names)
    number, size = view["engagement"], view["stack_size"]
    stack, theirs = list(view["stacks"][seat]), list(view["stacks"][other])
    locked = bool(view["locked"][seat])
    order = list(view["my_order"]) if locked and view.get("my_order") else check_draft(stack, draft)

    if closed is not None:
        lines = [closed]
        if order:
            lines.append(_("**Your order:** {order}", order=order_line(order, size)))
    elif locked:
        waiting = (_("**{player}** has locked in too.", player=shown[other]) if view["locked"][other]
                   else _("Waiting for **{player}** to lock in.", player=shown[other]))
        lines = [_("🔒 **Your order is locked in:** {order}", order=order_line(order, size)), waiting]
    else:
        state = (_("**{player}** has locked in.", player=shown[other]) if view["locked"][other]
                 else _("**{player}** is still arranging.", player=shown[other]))
        if deadline is not None:
            state = _("Deadline: {when}, then your stack plays as drawn.", when=timestamp(deadline)) + " " + state
        lines = [state, _("**Your order:** {order}", order=order_line(order, size))]
    lines.append(_("**{player}'s stack:** {cards}", player=shown[other], cards=cards_line(theirs, say=_)))
    lines += known_lines(view, shown, seat, _)
    if not locked and closed is None:
        lines.append("-# " + _("Tap your cards in the order to play them, then lock in."))

    title = title_line(_("{game} — engagement {number}: your battle order", game=_(TITLE), number=number))
    buttons = [] if closed is not None else order_buttons(view, draft if not locked else order, say=_)
    return ButtonSurface(title, clamp("\n".join(lines), say=_), None, buttons)


def draft_after(stack: Sequence[str], draft: Sequence[str], key: str, *,
                rng: random.Random | None = None) -> list[str]:
    """The draft after pressing the button ``key`` (not ``confirm``, which the cog sends to the engine).

    ``random`` shuffles the whole stack with ``rng``; ``drawn`` gives the order as drawn. A tap on a placed card
    or an unknown key leaves the draft as it was.
    """
    stack = list(stack)
    draft = check_draft(stack, draft)
    if key.startswith("card:"):
        card = key.removeprefix("card:")
        return draft if card in draft or card not in stack else [*draft, card]
    if key == "undo":
        return draft[:-1]
    if key == "reset":
        return []
    if key == "drawn":
        return stack
    if key == "random":
        shuffled = list(stack)
        (rng or random.Random()).shuffle(shuffled)
        return shuffled
    return draft


# --- /airwar status ----------------------------------------------------------------------------------


def status(view: View, names: Sequence[str], *, deadline: When | None = None, draft: Sequence[str] = (),
           say: Texts = ENGLISH) -> str:
    """``/airwar status`` (ephemeral, in ``say``'s language: the asker's): the match, counts and what is known, for
    a seat (``game.view(seat)``: shows its own locked order or draft) or a spectator (``game.view(None)``)."""
    if view["phase"] == "over":
        finished = result(view, names, say=say)
        return clamp(f"**{finished.title}**\n{finished.text}", say=say)
    if _many(names):
        return str(render_many.status(view, names, deadline=deadline, draft=draft, say=say))
    _ = say
    shown = _names(names)
    seat = view.get("seat")
    number, size = view["engagement"], view["stack_size"]
    rules = rules_text(view["rules"], say=_)
    if seat in (0, 1):
        other = 1 - seat
        lines = [_("**Your {game} match** against **{player}** · engagement {number} · {rules}", game=_(TITLE),
                   player=shown[other], number=number, rules=rules)]
        if view["locked"][seat] and view.get("my_order"):
            lines.append(_("You: 🔒 locked in: {order}", order=order_line(view["my_order"], size)))
        else:
            placed = check_draft(view["stacks"][seat], draft)
            lines.append(_("You: {state} ({placed} of {size} placed)", state=_(ARRANGING), placed=len(placed),
                           size=size))
        lines.append(f"{shown[other]}: {_(LOCKED) if view['locked'][other] else _(ARRANGING)}")
    else:
        players = versus([f"**{who}**" for who in shown], _)
        lines = [_("**{game}:** {players} · engagement {number} · {rules}", game=_(TITLE), players=players,
                   number=number, rules=rules)]
        for s in (0, 1):
            lines.append(f"{shown[s]}: {_(LOCKED) if view['locked'][s] else _(ARRANGING)}")
    if deadline is not None and not all(view["locked"]):
        lines.append(deadline_line(deadline, _))
    for s in (0, 1):
        cards = cards_line(view["stacks"][s], say=_)
        lines.append(_("Your stack as drawn: {cards}", cards=cards) if seat == s
                     else _("{player}'s stack as drawn: {cards}", player=shown[s], cards=cards))
    lines += ["", *known_lines(view, shown, seat if seat in (0, 1) else None, _)]
    lines.append(_("Ties fought so far: {count}", count=view.get("stats", {}).get("wars", 0)))
    return clamp("\n".join(lines), say=_)


# --- challenge and other notices ---------------------------------------------------------------------


def challenge(challenger: str, opponent: str | None, rules: Mapping[str, Any], *, expires_at: When,
              say: Texts = ENGLISH) -> ButtonSurface:
    """The challenge message: who challenged whom (``opponent`` ``None``: anyone may accept), the options and
    the expiry (``<t:UNIX:R>``), in ``say``'s language. Buttons: ``accept``, ``decline`` (the opponent),
    ``withdraw`` (the challenger)."""
    _ = say
    if opponent is not None:
        return challenge_surface(_(TITLE), challenger, opponent, rules_text(rules, say=_), expires_at=expires_at,
                                 say=_)
    lines = [_("⚔️ **{challenger}** is looking for an opponent for {game}!", challenger=name(challenger),
               game=_(TITLE)),
             _("Rules: {rules}", rules=rules_text(rules, say=_)),
             _("Anyone may accept; the challenge expires {when}.", when=timestamp(expires_at))]
    buttons = [Button("accept", _("Accept"), True, "success"), Button("withdraw", _("Withdraw"), True, "secondary")]
    return ButtonSurface(title_line(_("{game} challenge", game=_(TITLE))), clamp("\n".join(lines), say=_), None,
                         buttons)


def declined(challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
    return declined_line(TITLE, challenger, opponent, say)


def withdrawn(challenger: str, opponent: str | None, say: Texts = ENGLISH) -> str:
    return withdrawn_line(TITLE, challenger, opponent, say)


def expired(challenger: str, opponent: str | None, say: Texts = ENGLISH) -> str:
    return expired_line(TITLE, challenger, opponent, say)


def afk(names: Sequence[str], seats: Sequence[int], engagement: int, *, forfeit: Sequence[int] = (),
        say: Texts = ENGLISH) -> str:
    """Time ran out in an engagement: ``seats`` did not lock in an order. Their stacks play as drawn, unless
    it was a second miss in a row for some (``forfeit``): they forfeit (both at once: a draw) and nothing is played.
    Matches the service's ``arrange_timeout`` event (``seats``, ``forfeit``). In ``say``'s language (the server's)."""
    if _many(names):
        return str(render_many.afk(names, seats, engagement, forfeit=forfeit, say=say))
    _ = say
    shown = _names(names)
    late, out = sorted(set(seats)), sorted(set(forfeit))
    if not late and not out:
        raise ValueError("afk needs the seats that ran out of time")
    head = _("⏰ Time's up in engagement {number}:", number=engagement)
    if len(out) == 2:
        return head + " " + _("**{first}** and **{second}** both missed a second deadline in a row: the game is a "
                              "draw.", first=shown[0], second=shown[1])
    if out:
        return head + " " + _("**{loser}** missed a second deadline in a row and forfeits. **{winner}** wins!",
                              loser=shown[out[0]], winner=shown[1 - out[0]])
    if len(late) == 2:
        text = head + " " + _("neither **{first}** nor **{second}** locked in an order, so both stacks play as "
                              "drawn.", first=shown[0], second=shown[1])
    else:
        text = head + " " + _("**{player}** did not lock in an order, so {player}'s stack plays as drawn.",
                              player=shown[late[0]])
    return text + "\n-# " + _("A second missed deadline in a row forfeits the game.")


PANEL_CLOSED = {
    "as_drawn": N_("⏰ **Time's up:** you did not lock in an order, so your stack was played as drawn."),
    "timeout": N_("⏰ **Time's up:** a second missed deadline in a row: you forfeited the game."),
    "over": N_("🏁 **Game over** before this engagement was played."),
}


def panel_closed(ended: str | None, say: Texts = ENGLISH) -> str | None:
    """The line a DM panel shows instead of its instructions once its engagement ended without it (the service's
    ``Panel.ended``): ``as_drawn``, ``timeout``, ``over``; ``None`` (still open, or ``played``: the panel shows
    the order that was locked in)."""
    line = PANEL_CLOSED.get(ended or "")
    return None if line is None else say(line)


def deadline_moved(names: Sequence[str], engagement: int, deadline: When, *, waiting: Sequence[int] = (0, 1),
                   say: Texts = ENGLISH) -> str:
    """The bot was away when engagement ``engagement``'s orders were due: nobody missed them, they are due later.
    ``waiting``: the seats that have not locked in yet (they are named). In ``say``'s language (the server's)."""
    _ = say
    shown = _names(names)
    who = [f"**{shown[seat]}**" for seat in sorted(set(waiting))]
    if who:
        return _("⏳ The bot was away when the orders of engagement {number} were due, so nobody missed the deadline: "
                 "{players}, the deadline is now {when}.", number=engagement, players=join_words(who, _),
                 when=timestamp(deadline))
    return _("⏳ The bot was away when the orders of engagement {number} were due, so nobody missed the deadline; "
             "it is now {when}.", number=engagement, when=timestamp(deadline))


def thread_lost(names: Sequence[str], say: Texts = ENGLISH) -> str:
    """The match's thread is gone (deleted, or the bot may not post there): the match goes on in the channel."""
    _ = say
    players = versus([f"**{who}**" for who in _names(names)], _)
    return _("⚠️ The thread of the {game} match {players} is gone, so the match goes on here.", game=_(TITLE),
             players=players)


def forfeited(names: Sequence[str], seat: int, say: Texts = ENGLISH) -> str:
    """``seat`` forfeited: the other player wins (3 or 4 players: the others play on)."""
    _ = say
    shown = _names(names)
    if _many(names):
        return _("🏳️ **{player}** forfeits and is out; the others play on.", player=shown[seat])
    return _("🏳️ **{player}** forfeits. **{winner}** wins!", player=shown[seat], winner=shown[1 - seat])


__all__ = [
    "afk",
    "board",
    "challenge",
    "declined",
    "dm_panel",
    "draft_after",
    "engagement_summary",
    "expired",
    "flip_count",
    "flips",
    "forfeited",
    "order_buttons",
    "reason_text",
    "result",
    "rules_text",
    "status",
    "withdrawn",
]
