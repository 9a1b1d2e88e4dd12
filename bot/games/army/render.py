"""Army's texts and buttons for Discord: the challenge, the public round messages, the DM panels, notes, the result.

Pure functions of public data: the round messages and notes take only the service's queued events (spectator-safe,
see :mod:`bot.games.army.flow`) and the players' names; a panel takes one seat's own panel (its hand, its armies, its
chosen card) and is sent to that seat alone. Names come in as they should appear (mentions or display names).
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
    challenge_surface,
    clamp,
    clamp_line,
    count,
    declined_line,
    expired_line,
    possessive,
    ratings_line,
    timestamp,
    two_names,
    withdrawn_line,
)

if TYPE_CHECKING:
    from bot.render.common import Event, When

TITLE = N_("Army")
STAMINA = {"A": 4, "K": 3, "Q": 2, "J": 1}
ARRANGE_STEP = 1
CHOSEN = "✅ chosen"
CHOOSING = "⏳ choosing"
#: the round message's button that opens a player's panel in the match's thread
PANEL_BUTTON = "Choose"


# --- small pieces -------------------------------------------------------------------------------------------


def card(text: str) -> str:
    """A card as every game's texts show it: ``7♥``, ``K♣`` (:func:`bot.cards.card_label`)."""
    return card_label(text)


def full_stamina(army: str) -> int:
    return STAMINA[rank_of(army)]


def army_line(army: str, stamina: int | None = None) -> str:
    """``K♣ (3 SP)``, or ``K♣ 2/3 SP`` with the stamina left."""
    if stamina is None:
        return f"{card(army)} ({full_stamina(army)} SP)"
    return f"{card(army)} {stamina}/{full_stamina(army)} SP"


def kind(text: str) -> str:
    return "attack" if is_red(text) else "defence"


def rules_text(rules: Mapping[str, Any]) -> str:
    return f"3 armies each · round limit {rules.get('max_rounds', 300)}"


def _names(names: Sequence[str]) -> list[str]:
    return two_names(names, TITLE)


def step_title(step: int) -> str:
    return "setting the armies" if step == ARRANGE_STEP else f"round {step - 1}"


# --- the challenge ------------------------------------------------------------------------------------------


def challenge(challenger: str, opponent: str, rules: Mapping[str, Any], *, expires_at: When,
              say: Texts = ENGLISH) -> ButtonSurface:
    """The challenge message; buttons ``accept``, ``decline`` (the opponent), ``withdraw`` (the challenger)."""
    return challenge_surface(say(TITLE), challenger, opponent, rules_text(rules), expires_at=expires_at, say=say)


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
                     players=f"{first} vs {second}", rules=rules_text(rules), thread=f"<#{thread_id}>")


# --- the public round message -------------------------------------------------------------------------------


def reveal_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """What a step's public events say happened: the armies set, the round's two cards and the damage, armies
    fallen, a reshuffle."""
    shown = _names(names)
    lines = []
    for event in events:
        kind_ = event.get("type")
        if kind_ == "armies_set":
            fronts = " · ".join(f"{shown[a['seat']]} leads with {army_line(a['army'])}" for a in event["armies"])
            lines.append(f"🛡️ **The armies are set:** {fronts}.")
        elif kind_ == "reveal":
            cards = event["cards"]
            head = (f"**Round {event['round']}:** {shown[0]} {card(cards[0])} ({kind(cards[0])}) vs "
                    f"{shown[1]} {card(cards[1])} ({kind(cards[1])})")
            if event["result"] == "tie":
                tail = "a tie: no damage."
            elif event["result"] == "defence":
                tail = f"{possessive(shown[event['winner']])} {card(cards[event['winner']])} is higher: a black " \
                       "card wins, no damage."
            else:
                target = event["damaged_seat"]
                tail = (f"{possessive(shown[event['winner']])} attack hits: {possessive(shown[target])} "
                        f"{army_line(event['army'], event['stamina'])}.")
            lines.append(f"⚔️ {head} → {tail}")
        elif kind_ == "army_fallen":
            who = shown[event["seat"]]
            if event["next"] is None:
                lines.append(f"💀 {possessive(who)} {card(event['army'])} has fallen: no armies left.")
            else:
                left = count(event["armies_left"], "army", "armies")
                lines.append(f"💀 {possessive(who)} {card(event['army'])} has fallen; "
                             f"{army_line(event['next'])} comes face up ({left} left).")
        elif kind_ == "reshuffle":
            lines.append(f"🔀 The fighting graveyard was shuffled into a new pile ({count(event['cards'], 'card')}).")
    return lines


def round_board(turn: Event, previous: Sequence[Event], names: Sequence[str], *,
                chosen: Sequence[bool] = (False, False), closed: str | None = None,
                dms_closed: Sequence[int] = ()) -> Surface:
    """A step's public message: what the previous step revealed (``previous``: its events), then the two sides
    (face-up army and its stamina, armies left), who has chosen (``chosen``) and the deadline. ``closed``: the
    step is over (a line saying how; no deadline); ``dms_closed``: seats whose DMs turned out closed (a note tells
    them to use the button)."""
    shown = _names(names)
    step = turn["engagement"]
    lines = reveal_lines(previous, names)
    if step == ARRANGE_STEP:
        lines.append(f"**{shown[0]}** vs **{shown[1]}**: each sets the order of their 3 armies in secret. "
                     "Only each first army is shown, once both are set.")
    else:
        for player in turn["players"]:
            front = player["front"]
            where = army_line(front["army"], front["stamina"]) if front else "no army"
            lines.append(f"**{shown[player['seat']]}** — {where} · {count(player['armies_left'], 'army', 'armies')}"
                         " left")
        graveyard = turn.get("fighting_graveyard") or []
        top = f" · graveyard top {card(graveyard[0])}" if graveyard else ""
        lines.append(f"-# Fighting pile {count(turn['fighting_pile'], 'card')}{top}")
    what = "armies" if step == ARRANGE_STEP else "card"
    if closed is None:
        lines.append("")
        for seat in (0, 1):
            lines.append(f"{shown[seat]}: {CHOSEN if chosen[seat] else CHOOSING}")
        due = "Orders due" if step == ARRANGE_STEP else "Cards due"
        lines.append(f"{due} {timestamp(turn['deadline_at'])}: pick your {what} with **{PANEL_BUTTON}** below or in "
                     "your DMs.")
        for seat in dms_closed:
            if not chosen[seat]:
                lines.append(f"📪 {shown[seat]}'s DMs are closed: {shown[seat]}, use **{PANEL_BUTTON}** below.")
    else:
        lines.append(closed)
    return Surface(f"{TITLE} — {step_title(step)}", clamp("\n".join(lines)))


def afk(names: Sequence[str], event: Event) -> str:
    """The ``turn_timeout`` note: who missed the deadline, what was played for them, who forfeited."""
    shown = _names(names)
    step = event["engagement"]
    arrange = event.get("phase") == "arrange"
    lines = []
    forfeit = list(event.get("forfeit", ()))
    for seat in event["seats"]:
        if seat in forfeit:
            continue
        default = "their armies fight in the order they were dealt" if arrange else "their lowest card is played"
        lines.append(f"⌛ {shown[seat]} missed the deadline of {step_title(step)}: {default}. "
                     "Two misses in a row forfeit the match.")
    if len(forfeit) == 2:
        lines.append("⌛ Both players missed two deadlines in a row: the match ends in a draw.")
    elif forfeit:
        lines.append(f"⌛ {shown[forfeit[0]]} missed two deadlines in a row and forfeits the match.")
    return "\n".join(lines)


def deadline_moved(names: Sequence[str], step: int, deadline: When) -> str:
    return (f"⏰ I was away for a while, so nobody could choose: the deadline of {step_title(step)} is now "
            f"{timestamp(deadline)}.")


# --- the DM panel -------------------------------------------------------------------------------------------


def _order_line(order: Sequence[str]) -> str:
    slots = [f"{i + 1} {card(order[i])}" if i < len(order) else f"{i + 1} —" for i in range(3)]
    return " · ".join(slots)


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's panel (``data``: the service's ``ArmyPanel``) with its buttons: ``army:<CARD>``, ``undo``,
    ``reset``, ``dealt``, ``confirm`` while the armies are set; ``play:<CARD>`` while a round is fought; none once
    the seat's choice is in or the step ended (``data.ended``)."""
    shown = _names(names)
    other = shown[1 - data.seat]
    if data.ended is not None:
        return _ended_panel(data, other)
    view = data.view or {}
    lines: list[str] = []
    buttons: list[Button] = []
    if data.phase == "arrange":
        title = f"{TITLE} — your armies"
        lines.append("Your armies as dealt: " + " · ".join(army_line(a) for a in data.dealt))
        if data.locked:
            lines.append(f"🔒 **Your army order is locked in:** {_order_line(data.draft)}.")
            lines.append("Both are set: the fighting begins." if data.opponent_locked
                         else f"Waiting for **{other}** to set theirs.")
        else:
            placed = _order_line(data.draft) if data.draft else "nothing placed yet"
            lines.append(f"Fighting order: {placed}")
            lines.append("Tap your armies in the order they fight, the first first, then **Confirm**. Your opponent "
                         "sees only your first army, once both are set.")
            for army in data.dealt:
                buttons.append(Button(f"army:{army}", f"{card(army)} · {full_stamina(army)} SP", army not in data.draft,
                                      "primary", 0))
            complete = len(data.draft) == len(data.dealt)
            buttons += [Button("undo", "Undo", bool(data.draft), "secondary", 1),
                        Button("reset", "Reset", bool(data.draft), "secondary", 1),
                        Button("dealt", "As dealt", True, "secondary", 1),
                        Button("confirm", "Confirm", complete, "success", 1)]
        lines.append("Your fighting cards: " + " ".join(card(c) for c in data.hand))
        if not data.locked and data.deadline_at is not None:
            lines.append(f"Deadline: {timestamp(data.deadline_at)} (miss it and your armies fight as dealt).")
    else:
        title = f"{TITLE} — round {data.round}: your card"
        you = view.get("you", {})
        line = you.get("armies") or []
        if line:
            waiting = ", ".join(army_line(a["army"]) for a in line[1:]) or "none"
            lines.append(f"Your front army: {army_line(line[0]['army'], line[0]['stamina'])} · behind it: {waiting}")
        them = (view.get("players") or [{}, {}])[1 - data.seat]
        front = them.get("front")
        if front:
            lines.append(f"**{other}**: {army_line(front['army'], front['stamina'])} · "
                         f"{count(them['armies_left'], 'army', 'armies')} left")
        if data.locked:
            assert data.chosen is not None
            lines.append(f"🔒 **Locked in:** {card(data.chosen)} for round {data.round}.")
            lines.append("Both cards are in: see the reveal in the match." if data.opponent_locked
                         else f"Waiting for **{other}** to pick.")
            if data.hand:
                lines.append("Left in your hand: " + " ".join(card(c) for c in data.hand))
        else:
            lines.append("Pick your card: red cards attack, black cards defend; the higher number wins the round.")
            for index, fighting in enumerate(data.hand):
                buttons.append(Button(f"play:{fighting}", f"{card(fighting)} {kind(fighting)}", True,
                                      "danger" if is_red(fighting) else "secondary", index // 5))
            if data.deadline_at is not None:
                lines.append(f"Deadline: {timestamp(data.deadline_at)} (miss it and your lowest card is played).")
    return ButtonSurface(clamp_line(title, 256), clamp("\n".join(lines)), None, buttons)


def _ended_panel(data: Any, other: str) -> ButtonSurface:
    arrange = data.phase == "arrange"
    title = f"{TITLE} — your armies" if arrange else f"{TITLE} — round {data.round}: your card"
    if data.ended == "timeout":
        text = "⌛ You missed a second deadline in a row and forfeited the match."
    elif data.ended == "over":
        text = "🏁 The match ended before this was played."
    elif data.ended == "default":
        text = ("⌛ You missed the deadline: your armies fight as dealt: " + _order_line(data.draft) + "."
                if arrange else f"⌛ You missed the deadline: your lowest card, {card(data.chosen)}, was played.")
    elif arrange:
        text = f"🔒 Your army order: {_order_line(data.draft)}. Both are set: the fighting begins."
    else:
        text = f"🔒 Round {data.round}: you played {card(data.chosen)}. Both cards are in: see the reveal."
    return ButtonSurface(title, text, None, [])


# --- the end ------------------------------------------------------------------------------------------------


def reason_text(game_over: Event, names: Sequence[str]) -> str:
    shown = _names(names)
    reason = game_over.get("reason")
    winner = game_over.get("winner")
    loser = None if winner is None else shown[1 - winner]
    if reason == "no_armies":
        return f"{loser} has no armies left."
    if reason == "forfeit":
        return f"{loser} gave up."
    if reason == "timeout":
        return f"{loser} missed two deadlines in a row."
    if reason == "double_timeout":
        return "Both players missed two deadlines in a row."
    if reason == "capped":
        stamina = game_over.get("stamina") or [0, 0]
        lines = [f"The round limit was reached: stamina left {shown[0]} {stamina[0]} · {shown[1]} {stamina[1]}."]
        for seat, line in enumerate(game_over.get("armies") or []):
            armies = " · ".join(army_line(a["army"], a["stamina"]) for a in line) or "none"
            lines.append(f"{possessive(shown[seat])} armies: {armies}")
        return "\n".join(lines)
    return str(game_over.get("detail") or reason)


def result(game_over: Event, final: Sequence[Event], names: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None = None, rounds: int | None = None) -> Surface:
    """The result: the last step's events (``final``: the last round's reveal), the winner and why, the ratings."""
    shown = _names(names)
    winner = game_over.get("winner")
    lines = reveal_lines(final, names)
    if winner is None:
        headline, title = "🤝 **It's a draw.**", f"{TITLE} — draw"
    else:
        headline, title = f"🏆 **{shown[winner]}** wins!", f"{TITLE} — {clamp_line(names[winner], 60)} wins"
    lines.append(f"{headline} {reason_text(game_over, names)}")
    if rounds is not None:
        lines.append(f"-# {count(rounds, 'round')} fought.")
    rated = ratings_line(ratings, shown)
    if rated:
        lines.append(rated)
    return Surface(clamp_line(title, 256), clamp("\n".join(lines)))


# --- /army status -------------------------------------------------------------------------------------------


def status(view: Mapping[str, Any], names: Sequence[str], *, deadline: When | None, draft: Sequence[str] = (),
           step: int = ARRANGE_STEP) -> str:
    """``/army status`` for one seat (ephemeral): the step, both sides' face-up armies and stamina, the seat's own
    armies in order, its hand and its choice."""
    shown = _names(names)
    you = view["you"]
    lines = [f"**{TITLE}: {shown[0]} vs {shown[1]}** — {step_title(step)}"]
    for player in view["players"]:
        front = player["front"]
        where = army_line(front["army"], front["stamina"]) if front else "armies not shown yet"
        lines.append(f"{shown[player['seat']]}: {where} · {count(player['armies_left'], 'army', 'armies')} left · "
                     f"{CHOSEN if player['chosen'] else CHOOSING}")
    armies = " · ".join(army_line(a["army"], a["stamina"] if i == 0 and view["phase"] != "arrange" else None)
                        for i, a in enumerate(you["armies"]))
    if view["phase"] == "arrange" and not you["arranged"]:
        lines.append(f"Your armies as dealt: {armies}")
        if draft:
            lines.append(f"Your draft: {_order_line(draft)}")
    else:
        lines.append(f"Your armies in fighting order: {armies}")
    lines.append("Your hand: " + (" ".join(card(c) for c in you["hand"]) or "empty"))
    if you.get("chosen"):
        lines.append(f"Your card this round: {card(you['chosen'])} (locked in)")
    if deadline is not None:
        lines.append(f"Deadline: {timestamp(deadline)}")
    return clamp("\n".join(lines))
