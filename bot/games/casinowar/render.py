"""Casino War's words: the table (lobby), the panels, each hand's lines and the result (pure), each in ``say``'s
language (English by default). Cards as :func:`bot.cards.card_label` shows them (``10♣``, ``A♦``), the same in
every language; chip amounts in the language's way of writing numbers (:meth:`bot.i18n.Texts.number`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.games.casinowar.odds import main_bet_edge, tie_bet_edge
from bot.i18n import N_, Texts
from bot.render.common import ENGLISH, Button, ButtonSurface, Surface, clamp, name, timestamp

TITLE = N_("Casino War")
#: the step's button in the thread that opens the presser's panel
PANEL_BUTTON = N_("Bet")
#: a seat's line of a deal or a war, by its result
DEALT_LINES = {"win": N_("{player}: **{card}** (bet {bet}) — wins"),
               "lose": N_("{player}: **{card}** (bet {bet}) — loses"),
               "tie": N_("{player}: **{card}** (bet {bet}) — ties")}
WAR_LINES = {"win": N_("{player}: **{card}** — wins"),
             "lose": N_("{player}: **{card}** — loses"),
             "tie": N_("{player}: **{card}** — ties")}
#: why a seat stood up, by the ``stood_up`` event's reason
STOOD_UP = {"chips": N_("🚪 {player} has less than the smallest bet and leaves the table."),
            "timeout": N_("🚪 {player} missed two turns in a row and leaves the table."),
            "double_timeout": N_("🚪 {player} missed two turns in a row and leaves the table."),
            "": N_("🚪 {player} leaves the table.")}
#: why the table closed, by the ``game_over`` event's detail (the engine's English)
CLOSED_DETAILS = {"nobody is seated any more": N_("Nobody is seated any more."),
                  "nobody has the chips for the smallest bet": N_("Nobody has the chips for the smallest bet."),
                  "": N_("The table closed.")}


def signed(amount: int, say: Texts = ENGLISH) -> str:
    """``+20``, ``-10``, ``0`` (in the language's digits)."""
    return f"+{say.number(amount)}" if amount > 0 else say.number(amount)


def chips(amount: int, say: Texts = ENGLISH) -> str:
    """``1 chip``, ``1,500 chips``."""
    return say.ngettext("{count} chip", "{count} chips", amount)


def percent(value: float, say: Texts = ENGLISH) -> str:
    return say.number(value * 100, digits=2) + "%"


def rules_line(rules: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    _ = say
    params = {"low": _.number(rules["min_bet"]), "high": _.number(rules["max_bet"]),
              "hands": _.ngettext("{count} hand", "{count} hands", rules["hands"]),
              "decks": _.ngettext("{count} deck", "{count} decks", rules["decks"]), "cut": _.number(rules["cut_card"])}
    if rules.get("tie_bet"):
        return _("bets {low}–{high}, tie bet {tie} (pays 10:1), {hands}, {decks} (cut card {cut} from the end)",
                 tie=_.number(rules["tie_bet"]), **params)
    return _("bets {low}–{high}, {hands}, {decks} (cut card {cut} from the end)", **params)


def house_edge_line(rules: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    """What the house keeps on average (its edge) for these rules, exact for a full shoe (going to war on every tie,
    or surrendering), in plain words."""
    _ = say
    decks, bonus = int(rules["decks"]), bool(rules["tie_bonus"])
    params = {"war": percent(float(main_bet_edge(decks, bonus=bonus)), say),
              "surrender": percent(float(main_bet_edge(decks, war=False)), say)}
    if rules.get("tie_bet"):
        return _("On average the house keeps {war} of each bet if you go to war on every tie ({surrender} if you "
                 "surrender every tie), and {tie} of each tie bet.", tie=percent(float(tie_bet_edge(decks)), say),
                 **params)
    return _("On average the house keeps {war} of each bet if you go to war on every tie ({surrender} if you "
             "surrender every tie).", **params)


def lobby(players: Sequence[str], rules: Mapping[str, Any], *, expires_at: float | None,
          closed: str | None = None, say: Texts = ENGLISH) -> ButtonSurface:
    _ = say
    game = _(TITLE)
    lines = [_("🎰 **{host}** opens a {game} table against the house (1–4 players, for this server's chips).",
               host=name(players[0]), game=game),
             _("Table: {rules}", rules=rules_line(rules, say)),
             _("Seated ({count}/4): {players}", count=len(players),
               players=", ".join(f"**{name(p)}**" for p in players))]
    buttons: list[Button] = []
    if closed:
        lines.append(closed)
    else:
        join = _("Join")
        if expires_at is not None:
            lines.append(_("Press **{join}** to sit down; the host deals. The table closes {time} if nobody joins or "
                           "leaves before then.", join=join, time=timestamp(expires_at)))
        buttons = [Button("join", join, len(players) < 4, "success"), Button("leave", _("Leave"), True, "secondary"),
                   Button("start", _("Deal"), True, "primary"), Button("cancel", _("Cancel"), True, "danger")]
    return ButtonSurface(_("{game} table", game=game), clamp("\n".join(lines), say=say), None, buttons)


def started(players: Sequence[str], where: str | None, say: Texts = ENGLISH) -> str:
    _ = say
    if where:
        return _("🎰 {game}: {players} against the house — play in {where}.", game=_(TITLE),
                 players=", ".join(players), where=where)
    return _("🎰 {game}: {players} against the house.", game=_(TITLE), players=", ".join(players))


def link_line(players: Sequence[str], rules: Mapping[str, Any], thread_id: int, say: Texts = ENGLISH) -> str:
    _ = say
    return _("🎰 **{game}:** {players} against the house · {rules} — the table: {thread}.", game=_(TITLE),
             players=", ".join(players), rules=rules_line(rules, say), thread=f"<#{thread_id}>")


def closed(host: str, event_type: str, say: Texts = ENGLISH) -> str:
    _ = say
    if event_type == "withdrawn":
        return _("↩️ **{host}** closed the table before the deal.", host=name(host))
    if event_type == "expired":
        return _("⌛ Nobody dealt at this table: it closed.")
    return _("The table closed.")


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's panel: its chips and, while it has one to make, its choice's buttons."""
    _ = say
    head = _("{game} — hand {hand}", game=_(TITLE), hand=data.hand) if data.hand else _(TITLE)
    if data.ended is not None:
        if data.ended == "timeout":
            what = _("You missed two turns in a row: you left the table.")
        elif data.ended == "default":
            what = _("Time ran out: you surrendered.") if data.decision else _("Time ran out: you sat the hand out.")
        elif data.ended == "over":
            what = _("This part of the hand is over.")
        else:
            what = _choice_words(data, say)
        return ButtonSurface(head, what, None, [])
    mine = chips(data.stack, say)
    if data.finished or not data.seated:
        return ButtonSurface(head, _("You have {chips}. You're not playing at this table any more.", chips=mine),
                             None, [])
    due = " " + _("Choose {time}.", time=timestamp(data.deadline_at)) if data.deadline_at else ""
    if data.locked:
        text = _choice_words(data, say) if (data.choice or data.decision) else _("Nothing to choose now.")
        return ButtonSurface(head, text + "\n" + _("You have {chips}. Waiting for the others.", chips=mine), None, [])
    if data.phase == "decide":
        bet = _.number(data.bet)
        text = (_("**Tie!** Your bet of {bet}: surrender (get {half} back) or go to war (raise {bet} more).",
                  bet=bet, half=_.number(data.bet // 2)) + due + "\n" + _("You have {chips}.", chips=mine))
        buttons = [Button("surrender", _("Surrender (−{loss})", loss=_.number(data.bet - data.bet // 2)), True,
                          "secondary"),
                   Button("war", _("War (raise {bet})", bet=bet), data.can_war, "danger")]
        return ButtonSurface(head, text, None, buttons)
    text = _("You have {chips}. Place your bet, or sit this hand out.", chips=mine) + due
    buttons = [Button(f"bet:{amount}", _("Bet {amount}", amount=_.number(amount)), True, "primary", row=0)
               for amount in data.amounts[:5]]
    buttons += [Button(f"tie:{amount}", _("{amount} + tie {tie}", amount=_.number(amount),
                                          tie=_.number(data.tie_bet)), True, "secondary", row=1)
                for amount in data.tie_amounts[:5]]
    buttons.append(Button("sit", _("Sit out"), True, "secondary", row=2))
    return ButtonSurface(head, text, None, buttons)


def _choice_words(data: Any, say: Texts = ENGLISH) -> str:
    _ = say
    if data.decision == "war":
        return _("You went to war.")
    if data.decision == "surrender":
        return _("You surrendered.")
    choice = data.choice or {}
    if choice.get("type") == "bet":
        if choice.get("tie"):
            return _("You bet {amount} with a tie bet of {tie}.", amount=_.number(choice["amount"]),
                     tie=_.number(choice["tie"]))
        return _("You bet {amount}.", amount=_.number(choice["amount"]))
    return _("You sat this hand out.")


def turn(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    who = ", ".join(names[seat] for seat in event["seats"])
    if event["phase"] == "decide":
        return _("⚔️ **Hand {hand}: tie!** {players}: surrender or go to war, {time}.", hand=event["hand"],
                 players=who, time=timestamp(event["deadline_at"]))
    return _("🎰 **Hand {hand}:** place your bets, {players} — {time}.", hand=event["hand"], players=who,
             time=timestamp(event["deadline_at"]))


def bet_words(bet: Mapping[str, int], say: Texts = ENGLISH) -> str:
    """A seat's bets on the table: ``20``, ``20 + tie 10``."""
    _ = say
    if bet["tie"]:
        return _("{amount} + tie {tie}", amount=_.number(bet["main"]), tie=_.number(bet["tie"]))
    return _.number(bet["main"])


def dealt(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    lines = [_("🂠 **Hand {hand}** — the house: **{card}**", hand=event["hand"], card=card_label(event["house"]))]
    for seat, card in enumerate(event["cards"]):
        if card is None:
            continue
        lines.append(_(DEALT_LINES[event["results"][seat]], player=names[seat], card=card_label(card),
                       bet=bet_words(event["bets"][seat], say)))
    if len(lines) == 1:
        lines.append(_("Nobody bet this hand."))
    return "\n".join(lines)


def war(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    lines = [_("{player} surrenders half the bet.", player=names[seat]) for seat in event["surrendered"]]
    if event["warring"]:
        lines.append(_.ngettext("⚔️ **War!** The house burns {count} card and draws **{card}**.",
                                "⚔️ **War!** The house burns {count} cards and draws **{card}**.", event["burned"],
                                card=card_label(event["house"])))
        for seat in event["warring"]:
            lines.append(_(WAR_LINES[event["results"][seat]], player=names[seat],
                           card=card_label(event["cards"][seat])))
    return "\n".join(lines)


def hand_over(event: Mapping[str, Any], names: Sequence[str], moves: Sequence[Mapping[str, Any]],
              say: Texts = ENGLISH) -> str:
    _ = say
    net: dict[int, int] = {}
    for move in moves:
        net[move["seat"]] = net.get(move["seat"], 0) + move["amount"]
    if not net:
        return _("-# Hand {hand}: no chips moved.", hand=event["hand"])
    parts = [f"{names[seat]} {signed(amount, say)} ({_.number(event['stacks'][seat])})"
             for seat, amount in sorted(net.items())]
    return _("-# Hand {hand}: {moves}.", hand=event["hand"], moves=", ".join(parts))


def reshuffle(event: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    return say.ngettext("🔀 The cut card came out: the shoe ({count} card) is reshuffled.",
                        "🔀 The cut card came out: the shoe ({count} cards) is reshuffled.", event["cards"])


def stood_up(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    return say(STOOD_UP.get(event["reason"], STOOD_UP[""]), player=names[event["seat"]])


def afk(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    late = ", ".join(names[seat] for seat in event.get("defaults", []))
    if not late:
        return _("⌛ Time ran out.")
    if event.get("phase") == "decide":
        return _("⌛ Time ran out: {players} surrendered.", players=late)
    return _("⌛ Time ran out: {players} sat the hand out.", players=late)


def closed_why(event: Mapping[str, Any], hands: int | None = None, say: Texts = ENGLISH) -> str:
    """Why the table closed (the ``game_over`` event's)."""
    _ = say
    if event.get("reason") == "hand_limit":
        if hands:
            return _.ngettext("The table's one hand has been played.",
                              "All {count} hands of the table have been played.", hands)
        return _("Every hand of the table was played.")
    return _(CLOSED_DETAILS.get(str(event.get("detail", "")), CLOSED_DETAILS[""]))


def result(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH, *,
           hands: int | None = None) -> Surface:
    """The table's end: why it closed (``hands``: the table's number of hands) and each player's chips."""
    _ = say
    lines = [_.ngettext("{player}: {net} chip (now {stack})", "{player}: {net} chips (now {stack})", abs(net),
                        player=names[seat], net=signed(net, say), stack=_.number(event["stacks"][seat]))
             for seat, net in enumerate(event["net"])]
    return Surface(_("{game} — the table closed", game=_(TITLE)),
                   clamp(closed_why(event, hands, say) + "\n" + "\n".join(lines), say=say))


def status(view: Mapping[str, Any], seat: int, say: Texts = ENGLISH) -> str:
    _ = say
    return _("{game}, hand {hand} of {hands}: you have {chips} ({net} at this table).", game=_(TITLE),
             hand=view["hand"], hands=view["hands"], chips=chips(view["stacks"][seat], say),
             net=signed(view["net"][seat], say))
