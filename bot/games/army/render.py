"""Army's texts and buttons for Discord: the challenge, the public round messages, the DM panels, notes, the result.

Pure functions of public data: the round messages and notes take only the service's queued events (spectator-safe,
see :mod:`bot.games.army.flow`) and the players' names; a panel takes one seat's own panel (its hand, its armies, its
chosen card) and is sent to that seat alone. Names come in as they should appear (mentions or display names).

Every text is built with ``say`` (:class:`~bot.i18n.Texts`, English by default): a public message in the server's
language, a panel or ``/army status`` in its player's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.cards import card_label, is_red, rank_of
from bot.i18n import N_, Texts
from bot.render.common import (
    ENGLISH,
    Button,
    ButtonSurface,
    Surface,
    accepted_line,
    cards_line,
    challenge_surface,
    clamp,
    clamp_line,
    declined_line,
    expired_line,
    ratings_line,
    timestamp,
    two_names,
    win_title,
    withdrawn_line,
)

if TYPE_CHECKING:
    from bot.render.common import Event, When

TITLE = N_("Army")
STAMINA = {"A": 4, "K": 3, "Q": 2, "J": 1}
ARRANGE_STEP = 1
CHOSEN = N_("✅ chosen")
CHOOSING = N_("⏳ choosing")
#: the round message's button that opens a player's panel in the match's thread
PANEL_BUTTON = N_("Choose")
#: the button of ``/army status`` that opens the player's panel
OPEN_PANEL = N_("Open my Army panel")


# --- small pieces -------------------------------------------------------------------------------------------


def card(text: str) -> str:
    """A card as every game's texts show it: ``7♥``, ``K♣`` (:func:`bot.cards.card_label`)."""
    return card_label(text)


def full_stamina(army: str) -> int:
    return STAMINA[rank_of(army)]


def army_line(army: str, stamina: int | None = None, say: Texts = ENGLISH) -> str:
    """``K♣ (3 SP)``, or ``K♣ 2/3 SP`` with the stamina left."""
    _ = say
    if stamina is None:
        return _("{army} ({stamina} SP)", army=card(army), stamina=full_stamina(army))
    return _("{army} {left}/{full} SP", army=card(army), left=stamina, full=full_stamina(army))


def kind(text: str, say: Texts = ENGLISH) -> str:
    """What a fighting card does: a red one attacks, a black one defends."""
    return say.pgettext("fighting card", "attack") if is_red(text) else say.pgettext("fighting card", "defence")


def rules_text(rules: Mapping[str, Any], *, say: Texts = ENGLISH) -> str:
    _ = say
    return _("3 armies each · round limit {limit}", limit=_.number(rules.get("max_rounds", 300)))


def _names(names: Sequence[str]) -> list[str]:
    return two_names(names, TITLE)


def step_title(step: int, say: Texts = ENGLISH) -> str:
    _ = say
    if step == ARRANGE_STEP:
        return _("setting the armies")
    return _("round {number}", number=_.number(step - 1))


def titled(text: str, say: Texts = ENGLISH) -> str:
    """A title: the game's name, then ``text`` (``Army — round 3``)."""
    _ = say
    return _("{game} — {what}", game=_(TITLE), what=text)


def versus(first: str, second: str, say: Texts = ENGLISH) -> str:
    _ = say
    return _("{first} vs {second}", first=first, second=second)


def armies_left(number: int, say: Texts = ENGLISH) -> str:
    return say.ngettext("{count} army left", "{count} armies left", number)


def choosing(chosen: bool, say: Texts = ENGLISH) -> str:
    _ = say
    return _(CHOSEN) if chosen else _(CHOOSING)


# --- the challenge ------------------------------------------------------------------------------------------


def challenge(challenger: str, opponent: str, rules: Mapping[str, Any], *, expires_at: When,
              say: Texts = ENGLISH) -> ButtonSurface:
    """The challenge message; buttons ``accept``, ``decline`` (the opponent), ``withdraw`` (the challenger)."""
    _ = say
    return challenge_surface(_(TITLE), challenger, opponent, rules_text(rules, say=say), expires_at=expires_at,
                             say=say)


def declined(challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
    return "❌ " + declined_line(TITLE, challenger, opponent, say)


def withdrawn(challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
    return "↩️ " + withdrawn_line(TITLE, challenger, opponent, say)


def expired(challenger: str, opponent: str, say: Texts = ENGLISH) -> str:
    return "⌛ " + expired_line(TITLE, challenger, opponent, say)


def accepted(challenger: str, opponent: str, thread_id: int | None, say: Texts = ENGLISH) -> str:
    return "⚔️ " + accepted_line(TITLE, challenger, opponent, thread_id, say)


def link_line(names: Sequence[str], rules: Mapping[str, Any], thread_id: int, say: Texts = ENGLISH) -> str:
    _ = say
    first, second = _names(names)
    return "⚔️ " + _("**{game}:** {players} · {rules} — follow the match in {thread}.", game=_(TITLE),
                     players=versus(first, second, _), rules=rules_text(rules, say=_), thread=f"<#{thread_id}>")


# --- the public round message -------------------------------------------------------------------------------


def reveal_lines(events: Sequence[Event], names: Sequence[str], say: Texts = ENGLISH) -> list[str]:
    """What a step's public events say happened: the armies set, the round's two cards and the damage, armies
    fallen, a reshuffle."""
    _ = say
    shown = _names(names)
    lines = []
    for event in events:
        kind_ = event.get("type")
        if kind_ == "armies_set":
            fronts = " · ".join(_("{player} leads with {army}", player=shown[a["seat"]],
                                  army=army_line(a["army"], say=_)) for a in event["armies"])
            lines.append("🛡️ " + _("**The armies are set:** {fronts}.", fronts=fronts))
        elif kind_ == "reveal":
            cards = event["cards"]
            head = _("**Round {round}:** {first} {first_card} ({first_kind}) vs {second} {second_card} "
                     "({second_kind})", round=_.number(event["round"]), first=shown[0], first_card=card(cards[0]),
                     first_kind=kind(cards[0], _), second=shown[1], second_card=card(cards[1]),
                     second_kind=kind(cards[1], _))
            if event["result"] == "tie":
                tail = _("a tie: no damage.")
            elif event["result"] == "defence":
                tail = _("{player}'s {card} is higher: a black card wins, no damage.", player=shown[event["winner"]],
                         card=card(cards[event["winner"]]))
            else:
                tail = _("{attacker}'s attack hits: {target}'s {army}.", attacker=shown[event["winner"]],
                         target=shown[event["damaged_seat"]], army=army_line(event["army"], event["stamina"], _))
            lines.append(f"⚔️ {head} → {tail}")
        elif kind_ == "army_fallen":
            who = shown[event["seat"]]
            if event["next"] is None:
                lines.append("💀 " + _("{player}'s {army} has fallen: no armies left.", player=who,
                                       army=card(event["army"])))
            else:
                left, fallen, following = event["armies_left"], card(event["army"]), army_line(event["next"], say=_)
                lines.append("💀 " + _.ngettext("{player}'s {army} has fallen; {next} comes face up ({count} army "
                                                "left).", "{player}'s {army} has fallen; {next} comes face up "
                                                "({count} armies left).", left, player=who, army=fallen,
                                                next=following))
        elif kind_ == "reshuffle":
            lines.append("🔀 " + _.ngettext("The fighting graveyard was shuffled into a new pile ({count} card).",
                                            "The fighting graveyard was shuffled into a new pile ({count} cards).",
                                            event["cards"]))
    return lines


def round_board(turn: Event, previous: Sequence[Event], names: Sequence[str], *,
                chosen: Sequence[bool] = (False, False), closed: str | None = None,
                dms_closed: Sequence[int] = (), say: Texts = ENGLISH) -> Surface:
    """A step's public message: what the previous step revealed (``previous``: its events), then the two sides
    (face-up army and its stamina, armies left), who has chosen (``chosen``) and the deadline. ``closed``: the
    step is over (a line saying how; no deadline); ``dms_closed``: seats whose DMs turned out closed (a note tells
    them to use the button)."""
    _ = say
    shown = _names(names)
    step = turn["engagement"]
    lines = reveal_lines(previous, names, _)
    if step == ARRANGE_STEP:
        lines.append(_("**{first}** vs **{second}**: each sets the order of their 3 armies in secret. Only each "
                       "first army is shown, once both are set.", first=shown[0], second=shown[1]))
    else:
        for player in turn["players"]:
            front = player["front"]
            where = army_line(front["army"], front["stamina"], _) if front else _("no army")
            lines.append(f"**{shown[player['seat']]}** — {where} · {armies_left(player['armies_left'], _)}")
        graveyard = turn.get("fighting_graveyard") or []
        if graveyard:
            lines.append("-# " + _.ngettext("Fighting pile: {count} card · on top of the graveyard: {card}",
                                            "Fighting pile: {count} cards · on top of the graveyard: {card}",
                                            turn["fighting_pile"], card=card(graveyard[0])))
        else:
            lines.append("-# " + _.ngettext("Fighting pile {count} card", "Fighting pile {count} cards",
                                            turn["fighting_pile"]))
    if closed is None:
        lines.append("")
        for seat in (0, 1):
            lines.append(_("{player}: {state}", player=shown[seat], state=choosing(chosen[seat], _)))
        button = _(PANEL_BUTTON)
        when = timestamp(turn["deadline_at"])
        if step == ARRANGE_STEP:
            lines.append(_("Orders due {when}: pick your armies with **{button}** below or in your DMs.", when=when,
                           button=button))
        else:
            lines.append(_("Cards due {when}: pick your card with **{button}** below or in your DMs.", when=when,
                           button=button))
        for seat in dms_closed:
            if not chosen[seat]:
                lines.append("📪 " + _("{player}'s DMs are closed: {player}, use **{button}** below.",
                                       player=shown[seat], button=button))
    else:
        lines.append(closed)
    return Surface(clamp_line(titled(step_title(step, _), _), 256), clamp("\n".join(lines), say=_))


def afk(names: Sequence[str], event: Event, say: Texts = ENGLISH) -> str:
    """The ``turn_timeout`` note: who missed the deadline, what was played for them, who forfeited."""
    _ = say
    shown = _names(names)
    step = event["engagement"]
    arrange = event.get("phase") == "arrange"
    lines = []
    forfeit = list(event.get("forfeit", ()))
    for seat in event["seats"]:
        if seat in forfeit:
            continue
        if arrange:
            lines.append("⌛ " + _("{player} missed the deadline of setting the armies: their armies fight in the "
                                   "order they were dealt. Two misses in a row forfeit the match.",
                                   player=shown[seat]))
        else:
            lines.append("⌛ " + _("{player} missed the deadline of round {round}: their lowest card is played. Two "
                                   "misses in a row forfeit the match.", player=shown[seat],
                                   round=_.number(step - 1)))
    if len(forfeit) == 2:
        lines.append("⌛ " + _("Both players missed two deadlines in a row: the match ends in a draw."))
    elif forfeit:
        lines.append("⌛ " + _("{player} missed two deadlines in a row and forfeits the match.",
                               player=shown[forfeit[0]]))
    return "\n".join(lines)


def deadline_moved(names: Sequence[str], step: int, deadline: When, say: Texts = ENGLISH) -> str:
    _ = say
    if step == ARRANGE_STEP:
        return "⏰ " + _("I was away for a while, so nobody could choose: the deadline of setting the armies is now "
                        "{when}.", when=timestamp(deadline))
    return "⏰ " + _("I was away for a while, so nobody could choose: the deadline of round {round} is now {when}.",
                    round=_.number(step - 1), when=timestamp(deadline))


def round_closed(say: Texts = ENGLISH) -> str:
    """The closed round message's last line once both choices are in."""
    _ = say
    return "-# " + _("Both choices are in: see the next message.")


def match_over(say: Texts = ENGLISH) -> str:
    """The last round message's last line once the game ended."""
    _ = say
    return "🏁 " + _("**The match is over:** see the result below.")


# --- the DM panel -------------------------------------------------------------------------------------------


def _order_line(order: Sequence[str]) -> str:
    slots = [f"{i + 1} {card(order[i])}" if i < len(order) else f"{i + 1} —" for i in range(3)]
    return " · ".join(slots)


def _panel_title(data: Any, say: Texts) -> str:
    _ = say
    if data.phase == "arrange":
        return titled(_("your armies"), say)
    return titled(_("round {round}: your card", round=_.number(data.round)), say)


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's panel (``data``: the service's ``ArmyPanel``) with its buttons: ``army:<CARD>``, ``undo``,
    ``reset``, ``dealt``, ``confirm`` while the armies are set; ``play:<CARD>`` while a round is fought; none once
    the seat's choice is in or the step ended (``data.ended``). In ``say``'s language: the player's own."""
    _ = say
    shown = _names(names)
    other = shown[1 - data.seat]
    if data.ended is not None:
        return _ended_panel(data, _)
    view = data.view or {}
    lines: list[str] = []
    buttons: list[Button] = []
    title = _panel_title(data, _)
    if data.phase == "arrange":
        lines.append(_("Your armies as dealt: {armies}", armies=" · ".join(army_line(a, say=_) for a in data.dealt)))
        if data.locked:
            lines.append("🔒 " + _("**Your army order is locked in:** {order}.", order=_order_line(data.draft)))
            lines.append(_("Both are set: the fighting begins.") if data.opponent_locked
                         else _("Waiting for **{player}** to set theirs.", player=other))
        else:
            placed = _order_line(data.draft) if data.draft else _("nothing placed yet")
            lines.append(_("Fighting order: {order}", order=placed))
            confirm = _("Confirm")
            lines.append(_("Tap your armies in the order they fight, the first first, then **{button}**. Your "
                           "opponent sees only your first army, once both are set.", button=confirm))
            for army in data.dealt:
                buttons.append(Button(f"army:{army}", _("{army} · {stamina} SP", army=card(army),
                                                        stamina=full_stamina(army)),
                                      army not in data.draft, "primary", 0, card=army))
            complete = len(data.draft) == len(data.dealt)
            buttons += [Button("undo", _("Undo"), bool(data.draft), "secondary", 1),
                        Button("reset", _("Reset"), bool(data.draft), "secondary", 1),
                        Button("dealt", _("As dealt"), True, "secondary", 1),
                        Button("confirm", confirm, complete, "success", 1)]
        lines.append(_("Your fighting cards: {cards}", cards=cards_line(data.hand, say=_)))
        if not data.locked and data.deadline_at is not None:
            lines.append(_("Deadline: {when} (miss it and your armies fight as dealt).",
                           when=timestamp(data.deadline_at)))
    else:
        you = view.get("you", {})
        line = you.get("armies") or []
        if line:
            waiting = ", ".join(army_line(a["army"], say=_) for a in line[1:]) or _.pgettext("no armies", "none")
            lines.append(_("Your front army: {army} · behind it: {waiting}",
                           army=army_line(line[0]["army"], line[0]["stamina"], _), waiting=waiting))
        them = (view.get("players") or [{}, {}])[1 - data.seat]
        front = them.get("front")
        if front:
            lines.append(f"**{other}**: {army_line(front['army'], front['stamina'], _)} · "
                         f"{armies_left(them['armies_left'], _)}")
        if data.locked:
            assert data.chosen is not None
            lines.append("🔒 " + _("**Locked in:** {card} for round {round}.", card=card(data.chosen),
                                   round=_.number(data.round)))
            lines.append(_("Both cards are in: see the reveal in the match.") if data.opponent_locked
                         else _("Waiting for **{player}** to pick.", player=other))
            if data.hand:
                lines.append(_("Left in your hand: {cards}", cards=cards_line(data.hand, say=_)))
        else:
            lines.append(_("Pick your card: red cards attack, black cards defend; the higher number wins the round."))
            for index, fighting in enumerate(data.hand):
                buttons.append(Button(f"play:{fighting}", f"{card(fighting)} {kind(fighting, _)}", True,
                                      "danger" if is_red(fighting) else "secondary", index // 5, card=fighting))
            if data.deadline_at is not None:
                lines.append(_("Deadline: {when} (miss it and your lowest card is played).",
                               when=timestamp(data.deadline_at)))
    return ButtonSurface(clamp_line(title, 256), clamp("\n".join(lines), say=_), None, buttons)


def _ended_panel(data: Any, say: Texts) -> ButtonSurface:
    _ = say
    arrange = data.phase == "arrange"
    if data.ended == "timeout":
        text = "⌛ " + _("You missed a second deadline in a row and forfeited the match.")
    elif data.ended == "over":
        text = "🏁 " + _("The match ended before this was played.")
    elif data.ended == "default":
        if arrange:
            text = "⌛ " + _("You missed the deadline: your armies fight as dealt: {order}.",
                            order=_order_line(data.draft))
        else:
            text = "⌛ " + _("You missed the deadline: your lowest card, {card}, was played.", card=card(data.chosen))
    elif arrange:
        text = "🔒 " + _("Your army order: {order}. Both are set: the fighting begins.", order=_order_line(data.draft))
    else:
        text = "🔒 " + _("Round {round}: you played {card}. Both cards are in: see the reveal.",
                        round=_.number(data.round), card=card(data.chosen))
    return ButtonSurface(clamp_line(_panel_title(data, _), 256), text, None, [])


# --- the end ------------------------------------------------------------------------------------------------


def reason_text(game_over: Event, names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    shown = _names(names)
    reason = game_over.get("reason")
    winner = game_over.get("winner")
    loser = None if winner is None else shown[1 - winner]
    if reason == "no_armies":
        return _("{player} has no armies left.", player=loser)
    if reason == "forfeit":
        return _("{player} gave up.", player=loser)
    if reason == "timeout":
        return _("{player} missed two deadlines in a row.", player=loser)
    if reason == "double_timeout":
        return _("Both players missed two deadlines in a row.")
    if reason == "capped":
        stamina = game_over.get("stamina") or [0, 0]
        lines = [_("The round limit was reached: stamina left {first} {first_stamina} · {second} {second_stamina}.",
                   first=shown[0], first_stamina=stamina[0], second=shown[1], second_stamina=stamina[1])]
        for seat, line in enumerate(game_over.get("armies") or []):
            armies = " · ".join(army_line(a["army"], a["stamina"], _) for a in line) or _.pgettext("no armies",
                                                                                                  "none")
            lines.append(_("{player}'s armies: {armies}", player=shown[seat], armies=armies))
        return "\n".join(lines)
    return str(game_over.get("detail") or reason)


def result_title(game_over: Event, names: Sequence[str], say: Texts = ENGLISH) -> str:
    """The result's title: who won (``names``: plain names, a title shows no mention), or the draw."""
    _ = say
    winner = game_over.get("winner")
    if winner is None:
        return clamp_line(_("{game} — draw", game=_(TITLE)), 256)
    return clamp_line(win_title(_(TITLE), clamp_line(names[winner], 60), _), 256)


def result(game_over: Event, final: Sequence[Event], names: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None = None, rounds: int | None = None,
           say: Texts = ENGLISH) -> Surface:
    """The result: the last step's events (``final``: the last round's reveal), the winner and why, the ratings."""
    _ = say
    shown = _names(names)
    winner = game_over.get("winner")
    lines = reveal_lines(final, names, _)
    if winner is None:
        headline = "🤝 " + _("**It's a draw.**")
    else:
        headline = "🏆 " + _("**{player}** wins!", player=shown[winner])
    lines.append(f"{headline} {reason_text(game_over, names, _)}")
    if rounds is not None:
        lines.append("-# " + _.ngettext("{count} round fought.", "{count} rounds fought.", rounds))
    rated = ratings_line(ratings, shown, say=_)
    if rated:
        lines.append(rated)
    return Surface(result_title(game_over, names, _), clamp("\n".join(lines), say=_))


# --- /army status -------------------------------------------------------------------------------------------


def status(view: Mapping[str, Any], names: Sequence[str], *, deadline: When | None, draft: Sequence[str] = (),
           step: int = ARRANGE_STEP, say: Texts = ENGLISH) -> str:
    """``/army status`` for one seat (ephemeral, in the player's language): the step, both sides' face-up armies
    and stamina, the seat's own armies in order, its hand and its choice."""
    _ = say
    shown = _names(names)
    you = view["you"]
    lines = [_("**{game}: {first} vs {second}** — {step}", game=_(TITLE), first=shown[0], second=shown[1],
               step=step_title(step, _))]
    for player in view["players"]:
        front = player["front"]
        where = army_line(front["army"], front["stamina"], _) if front else _("armies not shown yet")
        lines.append(f"{shown[player['seat']]}: {where} · {armies_left(player['armies_left'], _)} · "
                     f"{choosing(player['chosen'], _)}")
    armies = " · ".join(army_line(a["army"], a["stamina"] if i == 0 and view["phase"] != "arrange" else None, _)
                        for i, a in enumerate(you["armies"]))
    if view["phase"] == "arrange" and not you["arranged"]:
        lines.append(_("Your armies as dealt: {armies}", armies=armies))
        if draft:
            lines.append(_("Your draft: {order}", order=_order_line(draft)))
    else:
        lines.append(_("Your armies in fighting order: {armies}", armies=armies))
    empty = _.pgettext("hand", "empty")
    lines.append(_("Your hand: {cards}", cards=cards_line(you["hand"], empty=empty, say=_)))
    if you.get("chosen"):
        lines.append(_("Your card this round: {card} (locked in)", card=card(you["chosen"])))
    if deadline is not None:
        lines.append(_("Deadline: {when}", when=timestamp(deadline)))
    return clamp("\n".join(lines), say=_)
