"""Speed War's words: the challenge, the live message of a block of rounds (the round being played on top, the
settled rounds under it, each press's reaction time), the status and the result, each in the language of the ``say``
it is given (the server's for the public messages, the player's for a private answer)."""

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
    clamp_line,
    join_words,
    ratings_line,
    timestamp,
    win_title,
)

TITLE = N_("Speed War")
TIE = "tie"

#: why the cards went back to their owners, by how the round was settled
BACK = {"simultaneous": N_("Simultaneous presses: each takes their own card back."),
        "absent": N_("Nobody pressed: each takes their own card back."),
        "": N_("Nobody won it: each takes their own card back.")}
#: why the taker took both cards, by how the round was settled (``{player}``: whose wrong press)
TAKEN = {"right": N_("**{taker}** takes both (the fastest right press)."),
         "wrong": N_("**{taker}** takes both ({player}'s wrong press gives them away)."),
         "simultaneous": N_("**{taker}** takes both (the one right press of two at once)."),
         "absent": N_("**{taker}** takes both (nobody pressed: the higher card).")}
#: how the game ended, by the game over's reason
REASONS = {"all_cards": N_("All the cards won."), "capped": N_("The round limit: the most cards wins."),
           "forfeit": N_("A forfeit."), "timeout": N_("Two rounds missed in a row."),
           "double_timeout": N_("Both missed two rounds in a row.")}


def rules_line(rules: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    return say.ngettext("{pack} cards, up to {count} round; the fastest right press takes the cards",
                        "{pack} cards, up to {count} rounds; the fastest right press takes the cards",
                        rules["max_rounds"], pack=rules["pack"])


WORDS = ChallengeWords(TITLE, "⚡", rules_line)
declined, withdrawn, expired = WORDS.declined, WORDS.withdrawn, WORDS.expired
accepted, link_line, challenge = WORDS.accepted, WORDS.link_line, WORDS.challenge


def ms_text(ms: int, say: Texts = ENGLISH) -> str:
    """A reaction time: ``350 ms``, ``1,250 ms`` (the number in the language's form)."""
    _ = say
    return _("{ms} ms", ms=say.number(ms))


def round_title(number: int, say: Texts = ENGLISH) -> str:
    _ = say
    return clamp_line(_("{game} — round {number}", game=say(TITLE), number=say.number(number)), 256)


def panel(data: Any, names: Sequence[str], say: Texts = ENGLISH) -> ButtonSurface:
    """No private panel: the buttons are on the round."""
    _ = say
    return ButtonSurface(say(TITLE), _("Press the buttons of the round in the game's thread."), None, [])


def _cards(names: Sequence[str], cards: Sequence[str]) -> str:
    return f"{names[0]} **{card_label(cards[0])}** · {names[1]} **{card_label(cards[1])}**"


#: rounds one live message of the game shows (then the next round starts a new message)
BLOCK = 10


def block_of(number: int) -> int:
    """The live message (counted from 0) that shows round ``number``."""
    return (number - 1) // BLOCK


def counts_line(counts: Sequence[int], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    return _("Cards: {first} **{first_count}** · {second} **{second_count}**", first=names[0],
             first_count=say.number(counts[0]), second=names[1], second_count=say.number(counts[1]))


def round_surface(event: Mapping[str, Any], names: Sequence[str], *, deadline: float | None,
                  say: Texts = ENGLISH) -> ButtonSurface:
    """The round being played, on top of its live message: both cards, whose is whose, the cards each holds and the
    three buttons."""
    _ = say
    cards = event["cards"]
    lines = [_cards(names, cards),
             _("Press the higher card, or **=** if the ranks are equal: first right press takes both!"),
             counts_line(event["counts"], names, say)]
    if deadline is not None:
        lines.append("-# " + _("Nobody pressed? The higher card takes them {when}.", when=timestamp(deadline)))
    buttons = [Button("0", card_label(cards[0]), True, "primary", card=cards[0]),
               Button("1", card_label(cards[1]), True, "primary", card=cards[1]), Button(TIE, "=", True, "secondary")]
    return ButtonSurface(round_title(event["round"], say), "\n".join(lines), None, buttons)


def press_text(player: str, press: Mapping[str, Any] | None, right: str, say: Texts = ENGLISH) -> str:
    """A player's press of a settled round: right or wrong, and how fast."""
    _ = say
    if press is None:
        return _("{player}: no press", player=player)
    return _("{player} {mark} **{time}**", player=player, mark="✅" if press["choice"] == right else "❌",
             time=ms_text(press["ms"], say))


def settled_lines(event: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    """A settled round, short, under the round being played: its cards and who took them (and why), then each
    player's press and reaction time."""
    _ = say
    cards, taker, by = event["cards"], event["taker"], event["by"]
    outcome = _(BACK.get(by, BACK[""])) if taker is None else _(TAKEN[by], taker=names[taker],
                                                                  player=names[1 - taker])
    presses = " · ".join(press_text(names[seat], press, event["right"], say)
                         for seat, press in enumerate(event["presses"]))
    return (f"**{say.number(event['round'])}.** {card_label(cards[0])} · {card_label(cards[1])} — {outcome}\n"
            f"-# {presses}")


def block_lines(events: Sequence[Mapping[str, Any]], names: Sequence[str], say: Texts = ENGLISH) -> str:
    """The settled rounds (and the players who missed two rounds in a row) among ``events``, newest first."""
    lines = []
    for event in events:
        if event["type"] == "settled":
            lines.append(settled_lines(event, names, say))
        elif event["type"] == "round_timeout" and event.get("forfeit"):
            lines.append(timed_out([names[seat] for seat in event["forfeit"]], say))
    return "\n".join(reversed(lines))


def closed_block(first: int, last: int, counts: Sequence[int], names: Sequence[str],
                 say: Texts = ENGLISH) -> Surface:
    """The top of a live message whose rounds are all settled: which rounds, and the cards each held after them."""
    _ = say
    title = _("{game} — rounds {first}–{last}", game=say(TITLE), first=say.number(first), last=say.number(last))
    return Surface(clamp_line(title, 256), counts_line(counts, names, say))


def status(view: Mapping[str, Any], names: Sequence[str], say: Texts = ENGLISH) -> str:
    _ = say
    counts = view["counts"]
    held = " · ".join(f"{names[seat]} " + _.ngettext("{count} card", "{count} cards", counts[seat])
                      for seat in (0, 1))
    line = _("**{game}**, round {number}: {cards}.", game=_(TITLE), number=say.number(view["round"]), cards=held)
    if view.get("cards"):
        line += " " + _("On the table: {first} and {second}.", first=card_label(view["cards"][0]),
                        second=card_label(view["cards"][1]))
    return line


def reason_text(game_over: Mapping[str, Any], say: Texts = ENGLISH) -> str:
    reason = REASONS.get(game_over.get("reason"))  # type: ignore[arg-type]
    return say(reason) if reason else ""


def result(game_over: Mapping[str, Any], names: Sequence[str], plain: Sequence[str], *,
           ratings: Sequence[Mapping[str, float]] | None, reactions: Sequence[str], say: Texts = ENGLISH) -> Surface:
    _ = say
    winner = game_over.get("winner")
    if winner is None:
        head, title = "🤝 **" + _("It's a draw.") + "**", _("{game} — draw", game=_(TITLE))
    else:
        head = "🏆 " + _("**{player}** wins!", player=names[winner])
        title = win_title(_(TITLE), plain[winner], _)
    lines = [f"{head} {reason_text(game_over, say)}".rstrip(), *reactions]
    rated = ratings_line(ratings, names, say=say)
    if rated:
        lines.append(rated)
    return Surface(clamp_line(title, 256), "\n".join(lines))


def reaction_line(name_: str, times: Sequence[int], say: Texts = ENGLISH) -> str:
    _ = say
    if not times:
        return _("{player}: no press.", player=name_)
    ordered = sorted(times)
    return _.ngettext("{player}: median reaction **{median}**, best {best} over {count} press.",
                      "{player}: median reaction **{median}**, best {best} over {count} presses.", len(times),
                      player=name_, median=ms_text(ordered[len(ordered) // 2], say), best=ms_text(ordered[0], say))


def timed_out(players: Sequence[str], say: Texts = ENGLISH) -> str:
    """Players who missed two rounds in a row (and so forfeited)."""
    return "⌛ " + say.ngettext("{players} missed two rounds in a row.", "{players} missed two rounds in a row.",
                                len(players), players=join_words(list(players), say))
