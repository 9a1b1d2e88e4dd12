"""Bundle War's words: the challenge and lobby, each step's public board, the private panel, the round's lines and
the result, each in the language of the ``say`` it is given (the server's for the public messages, the player's for
a panel or a private answer). Only public facts outside the panel: a card a player looks at is named in their own
panel alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label
from bot.i18n import N_, Texts
from bot.render.common import (
    ENGLISH,
    Button,
    ButtonSurface,
    ChallengeWords,
    Surface,
    clamp,
    clamp_line,
    ratings_line,
    timestamp,
    win_title,
)

TITLE = N_("Bundle War")
#: characters of a round's lines at most (its message holds the step too, and each card grows to an emoji's markup
#: within Discord's 4,000 characters of a message's text)
ROUND_LINES_LIMIT = 1500

#: how the game ended, by the game over's reason
REASONS = {"last_standing": N_("The last player with cards."), "all_out": N_("Nobody has cards left."),
           "capped": N_("The round limit: the most cards wins."), "forfeit": N_("A forfeit."),
           "timeout": N_("Two missed deadlines in a row.")}
#: why a player is out, by the ``out`` event's reason
OUT = {"short_war": N_("🚫 {player} is out: could not fight the war."),
       "no_cards": N_("🚫 {player} is out: has no cards left."),
       "": N_("🚫 {player} is out: gave up.")}


def rules_line(rules: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    return say.ngettext("{pack} cards and two jokers, up to {count} round",
                        "{pack} cards and two jokers, up to {count} rounds", rules["max_rounds"], pack=rules["pack"])


WORDS = ChallengeWords(TITLE, "🎴", rules_line)
declined, withdrawn, expired = WORDS.declined, WORDS.withdrawn, WORDS.expired
accepted, link_line, challenge = WORDS.accepted, WORDS.link_line, WORDS.challenge


def lobby(names: Sequence[str], rules: Mapping[str, Any], *, expires_at: float | None,
          say: Texts = ENGLISH) -> ButtonSurface:
    _ = say
    lines = ["🎴 " + _("A game of **{game}** for 2-4 players: {rules}.", game=_(TITLE), rules=rules_line(rules, say)),
             _("Players ({count}/4): {players}", count=len(names), players=", ".join(names))]
    if expires_at is not None:
        lines.append(_("It closes {when} if it doesn't start.", when=timestamp(expires_at)))
    return ButtonSurface(clamp_line(_("{game} lobby", game=_(TITLE)), 256), clamp("\n".join(lines), say=say), None, [
        Button("join", _("Join"), True, "success"), Button("leave", _("Leave"), True, "secondary"),
        Button("start", _("Start"), True, "primary"), Button("cancel", _("Cancel"), True, "danger")])


def started(names: Sequence[str], say: Texts = ENGLISH) -> str:
    """A lobby's game begun in its channel (no thread)."""
    _ = say
    return "🎴 " + _("{game}: {players} — it's on.", game=say(TITLE), players=", ".join(names))


def piles_line(tops: Sequence[str | None], counts: Sequence[int], names: Sequence[str],
               say: Texts = ENGLISH) -> str:
    _ = say
    parts = [_("{player} **{count}** (pile top {card})", player=names[seat], count=say.number(counts[seat]),
               card=card_label(top) if top else "—") for seat, top in enumerate(tops)]
    return _("Cards: {piles}", piles=" · ".join(parts))


def board(event: Mapping[str, Any], names: Sequence[str], *, deadline: float | None,
          say: Texts = ENGLISH) -> Surface:
    """The step being played, on top of its round's message: who chooses, the piles' tops, the deadline."""
    _ = say
    who = ", ".join(names[seat] for seat in event["seats"])
    if event["phase"] == "top":
        doing = _("{player} won the round and picks the card for the top of their pile.", player=who)
    else:
        doing = _("{players}: look at your card, then play it or steal a pile whose top matches it.", players=who)
    lines = [doing, piles_line(event["tops"], event["counts"], names, say)]
    if deadline is not None:
        lines.append("-# " + _("Choose {when}; then your card is played (or the highest goes on top).",
                               when=timestamp(deadline)))
    title = _("{game} — round {round}, step {step}", game=_(TITLE), round=say.number(event["round"]),
              step=say.number(event["step"]))
    return Surface(clamp_line(title, 256), clamp("\n".join(lines), say=say))


def round_title(number: int, say: Texts = ENGLISH) -> str:
    _ = say
    return clamp_line(_("{game} — round {number}", game=say(TITLE), number=say.number(number)), 256)


def round_lines(events: Sequence[Mapping[str, Any]], names: Sequence[str], say: Texts = ENGLISH) -> str:
    """What happened in a round so far, in order, one line each: the cards played and the steals, the battles,
    wars, takes (or a pot set aside), players out and missed deadlines (``events``: the round's, of any type)."""
    lines: list[str] = []
    for event in events:
        kind = event["type"]
        if kind == "step_played":
            lines += step_lines(event, names, say)
        elif kind == "battle":
            lines.append(battle_line(event, names, say))
        elif kind == "war":
            lines.append(war_line(event["seats"], names, say))
        elif kind == "take":
            lines.append(take_line(event, names, say))
        elif kind == "pot_aside":  # everyone in the war went out: the pot leaves play
            lines.append(say.ngettext("Nobody is left in the war: {count} card set aside.",
                                      "Nobody is left in the war: {count} cards set aside.", event["cards"]))
        elif kind == "out":
            lines.append(out_line(event, names, say))
        elif kind == "turn_timeout":
            lines.append(timeout_line(event, names, say))
    return clamp("\n".join(line for line in lines if line), ROUND_LINES_LIMIT, say=say)


def round_over(number: int, lines: str, say: Texts = ENGLISH) -> Surface:
    """A round's message once the round is over: what happened in it."""
    return Surface(round_title(number, say), lines)


def ping_note(players: Sequence[str], say: Texts = ENGLISH) -> str:
    """Mentions the players whose choice opens from the round's message when that message was posted before (an
    edit notifies nobody)."""
    _ = say
    return _("{players}: your choice, with **Choose** on the round's message above.", players=", ".join(players))


def panel_title(step: int, say: Texts = ENGLISH) -> str:
    _ = say
    return clamp_line(_("{game} — step {step}", game=say(TITLE), step=say.number(step)), 256)


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """A seat's private panel: the card it looks at and its choices (none: waiting)."""
    _ = say
    view = data.view or {}
    title = panel_title(data.step, say)
    if data.finished or data.ended:
        return ButtonSurface(title, _("This step is over."), None, [])
    if not data.choices:
        return ButtonSurface(title, _("Waiting for the others' choices."), None, [])
    buttons = []
    if view.get("phase") == "top":
        text = _("You won the round: which card goes on top of your pile?")
        # only a pile top's rank matters (a steal matches ranks): the choices are one card per rank, so a big war's
        # pick fits
        for item in data.choices:
            card = item.removeprefix("top:")
            buttons.append(Button(item, clamp_line(_("{card} on top", card=card_label(card)), 80), True, "primary",
                                  card=card))
    else:
        card = view["looking"]
        text = _("You look at **{card}**.", card=card_label(card))
        buttons.append(Button("play", clamp_line(_("Play {card}", card=card_label(card)), 80), True, "primary",
                              card=card))
        for item in data.choices:
            if item.startswith("steal:"):
                # (a label shows no mention: the text says whose pile it is, the button names it by its top card)
                victim = int(item.removeprefix("steal:"))
                top = card_label(view["tops"][victim])
                text += "\n" + _("You can steal {player}'s pile, **{card}** on top.", player=names[victim], card=top)
                buttons.append(Button(item, clamp_line(_("Steal the {card} pile", card=top), 80), True, "danger"))
    deadline = "\n-# " + _("Choose {when}.", when=timestamp(data.deadline_at)) if data.deadline_at else ""
    return ButtonSurface(title, text + deadline, None, buttons)


def step_lines(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> list[str]:
    _ = say
    lines = []
    for played in event["played"]:
        lines.append(_("{player} plays **{card}**.", player=names[played["seat"]], card=card_label(played["card"])))
    for steal in event["steals"]:
        lines.append("🫳 " + _.ngettext("{player} steals {victim}'s pile with **{card}** ({count} card).",
                                        "{player} steals {victim}'s pile with **{card}** ({count} cards).",
                                        steal["cards"], player=names[steal["seat"]], victim=names[steal["victim"]],
                                        card=card_label(steal["card"])))
    for seat in event["protected"]:
        lines.append("🛡️ " + _("{player}'s pile was protected: they played a card matching its top.",
                               player=names[seat]))
    for seat in event["failed"]:
        lines.append(_("{player}'s steal failed: they choose again.", player=names[seat]))
    return lines


def battle_line(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    shown = " · ".join(f"{names[seat]} {card_label(card)}" for seat, card in enumerate(event["cards"]) if card)
    if event["winner"] is not None:
        return "⚔️ " + _("{cards}: **{player}** wins the round.", cards=shown, player=names[event["winner"]])
    return "⚔️ " + _("{cards}: a tie! War between {players}.", cards=shown,
                     players=", ".join(names[seat] for seat in event["tied"]))


def war_line(seats: Sequence[int], names: Sequence[str], say: Texts = ENGLISH) -> str:
    """The tied players' war: three cards face down each, and one to look at."""
    if not seats:
        return ""
    _ = say
    return "🂠 " + _("{players} lay three cards face down and look at the next.",
                       players=", ".join(names[seat] for seat in seats))


def take_line(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    if event.get("top"):
        return _.ngettext("{player} takes {count} card to their pile, **{card}** on top.",
                          "{player} takes {count} cards to their pile, **{card}** on top.", event["cards"],
                          player=names[event["seat"]], card=card_label(event["top"]))
    return _.ngettext("{player} takes {count} card to their pile.", "{player} takes {count} cards to their pile.",
                      event["cards"], player=names[event["seat"]])


def out_line(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    return say(OUT.get(event["reason"], OUT[""]), player=names[event["seat"]])


def timeout_line(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    late = ", ".join(names[seat] for seat in event["seats"])
    return "⌛ " + _("{players} missed the deadline: the default was played.", players=late)


def status(view: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    line = _("**{game}**, round {round}. {piles}", game=_(TITLE), round=say.number(view["round"]),
             piles=piles_line(view["tops"], view["counts"], names, say))
    if view.get("looking"):
        line += "\n" + _("You look at {card}.", card=card_label(view["looking"]))
    return line


def result(game_over: Mapping[str, Any], names: Sequence[str], plain: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None, places: Sequence[int] | None = None,
           say: Texts = ENGLISH) -> Surface:
    """The result: who won and why, and each player's rating change, first to last when ``places`` (each seat's
    finishing place, a game of three or four) is known."""
    _ = say
    winner = game_over.get("winner")
    reason = REASONS.get(game_over.get("reason"))  # type: ignore[arg-type]
    why = _(reason) if reason else ""
    if winner is None:
        head, title = "🤝 **" + _("It's a draw.") + "**", _("{game} — draw", game=_(TITLE))
    else:
        head = "🏆 " + _("**{player}** wins!", player=names[winner])
        title = win_title(_(TITLE), plain[winner], _)
    lines = [f"{head} {why}".rstrip()]
    rated = ratings_line(ratings, names, places=places, say=say)
    if rated:
        lines.append(rated)
    return Surface(clamp_line(title, 256), "\n".join(lines))
