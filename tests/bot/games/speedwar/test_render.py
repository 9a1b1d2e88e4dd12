"""Speed War's words in every language: each surface said in German or Russian is the catalogue's translation
with no English left, and in the pseudo-language (every catalogue string's letters swapped) no plain English word
shows anywhere; English stays as it was."""

from __future__ import annotations

import pytest

from bot.errors import NotYourTurn
from bot.games.speedwar import render
from bot.games.speedwar.engine import SpeedWar
from bot.games.speedwar.flow import AlreadyPressed, StaleRound, buttons_only
from bot.i18n import texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

NAMES = ["<@1>", "<@2>"]
PLAIN = ["Anna", "Ben"]
RULES = {"pack": 52, "max_rounds": 100}
ROUND = {"type": "round", "round": 3, "cards": ["QS", "10C"], "counts": [26, 26]}


def settled(by: str, taker: int | None, presses=None) -> dict:
    presses = presses if presses is not None else [{"choice": "0", "ms": 1250}, {"choice": "1", "ms": 300}]
    return {"type": "settled", "round": 3, "cards": ["QS", "10C"], "right": "0", "presses": presses,
            "taker": taker, "by": by, "deciding": taker, "counts": [27, 25]}


SETTLED = [settled("right", 0), settled("wrong", 0), settled("simultaneous", 0), settled("absent", 0, [None, None]),
           settled("simultaneous", None), settled("absent", None, [None, None])]
GAME_OVERS = [{"winner": 0, "reason": reason} for reason in ("all_cards", "capped", "forfeit", "timeout")] + [
    {"winner": None, "reason": "double_timeout"}]
RATINGS = [{"before": 1500.0, "after": 1583.0, "games": 1}, {"before": 1500.0, "after": 1456.0, "games": 1}]


def every_text(say) -> list[str]:
    """Every text Speed War's render makes, in ``say``'s language."""
    made = [render.rules_line(RULES, say), render.panel(None, NAMES, say).text, render.panel(None, NAMES, say).title,
            render.status({"round": 3, "counts": [26, 1], "cards": ["QS", "10C"]}, NAMES, say),
            render.reaction_line(NAMES[0], [300, 1250, 480], say), render.reaction_line(NAMES[0], [300], say),
            render.reaction_line(NAMES[1], [], say), render.timed_out(NAMES[:1], say), render.timed_out(NAMES, say)]
    surface = render.round_surface(ROUND, NAMES, deadline=1_800_000_000, say=say)
    made += [surface.title, surface.text, *(button.label for button in surface.buttons)]
    made.append(render.block_lines([*SETTLED, {"type": "round_timeout", "forfeit": [0]}], NAMES, say))
    closed = render.closed_block(1, 10, [30, 22], NAMES, say)
    made += [closed.title, closed.text]
    for game_over in GAME_OVERS:
        surface = render.result(game_over, NAMES, PLAIN, ratings=RATINGS, reactions=[], say=say)
        made += [surface.title, surface.text]
    challenge = render.challenge(NAMES[0], NAMES[1], RULES, expires_at=1_800_000_000, say=say)
    made += [challenge.title, challenge.text, *(button.label for button in challenge.buttons)]
    made += [render.declined(*NAMES, say=say), render.withdrawn(*NAMES, say=say), render.expired(*NAMES, say=say),
             render.accepted(*NAMES, 99, say=say), render.link_line(NAMES, RULES, 99, say=say)]
    made += [StaleRound(2, 3).said(say), AlreadyPressed(2).said(say), buttons_only().said(say)]
    return made


def test_english_stays_as_it_was():
    text = render.settled_lines(settled("wrong", 1, [{"choice": "1", "ms": 300}, {"choice": "1", "ms": 350}]),
                                NAMES)
    assert text == ("**3.** Q♠ · 10♣ — **<@2>** takes both (<@1>'s wrong press gives them away).\n"
                    "-# <@1> ❌ **300 ms** · <@2> ❌ **350 ms**")
    assert render.settled_lines(settled("absent", 0, [None, None]), NAMES).endswith(
        "-# <@1>: no press · <@2>: no press")
    later = dict(settled("right", 0), round=4)
    assert render.block_lines([settled("right", 0), {"type": "round", "round": 4}, later], NAMES).startswith(
        "**4.**")  # the newest settled round first
    assert render.closed_block(11, 20, [30, 22], NAMES).title == "Speed War — rounds 11–20"
    surface = render.round_surface(ROUND, NAMES, deadline=None)
    assert surface.title == "Speed War — round 3"
    assert render.reaction_line("<@1>", [300, 500, 400]) == \
        "<@1>: median reaction **400 ms**, best 300 ms over 3 presses."
    assert render.rules_line(RULES) == "52 cards, up to 100 rounds; the fastest right press takes the cards"
    assert str(StaleRound(2, 3)) == "Round 2 is over (round 3 is on): press the buttons of the newest round."


@pytest.mark.parametrize("language", ["de", "fr", "es", "pt_BR", "ru", "ro", "pl"])
def test_every_surface_is_in_the_language(language):
    say = texts(language)
    surface = render.round_surface(ROUND, NAMES, deadline=None, say=say)
    assert surface.text.split("\n")[1] == say(
        "Press the higher card, or **=** if the ranks are equal: first right press takes both!")
    assert surface.title == say("{game} — round {number}", game=say("Speed War"), number=3)
    assert surface.title != "Speed War — round 3"
    for english, text in zip(every_text(texts("en")), every_text(say), strict=True):
        kept_name = english == "Speed War" == say("Speed War")  # (German players say Speed War)
        if english_left(english, NAMES + PLAIN) and not kept_name:  # (a card's label is the same in every language)
            assert text != english
        if language == "ru":  # Cyrillic: no Latin word is left but the names' and the markup's
            assert english_left(text, NAMES + PLAIN) == [], text


def test_german_times_and_words():
    say = texts("de")
    text = render.settled_lines(settled("wrong", 1), NAMES, say)
    assert "**1.250 ms**" in text  # the number in German's form
    assert say("**{taker}** takes both ({player}'s wrong press gives them away).", taker="<@2>",
               player="<@1>") in text
    assert "wrong press" not in text and "takes both" not in text
    assert render.reaction_line("<@1>", [300], say) == say.ngettext(
        "{player}: median reaction **{median}**, best {best} over {count} press.",
        "{player}: median reaction **{median}**, best {best} over {count} presses.", 1, player="<@1>",
        median="300 ms", best="300 ms")


def test_russian_result_and_errors():
    say = texts("ru")
    surface = render.result({"winner": 0, "reason": "all_cards"}, NAMES, PLAIN, ratings=None,
                            reactions=[render.reaction_line(NAMES[0], [300, 420], say)], say=say)
    assert surface.title == say("{game} — {player} wins", game=say("Speed War"), player="Anna")
    assert say("All the cards won.") in surface.text and "мс" in surface.text
    assert english_left(surface.text, NAMES) == []
    game = SpeedWar.new(seed=1)
    game.apply(0, {"type": "press", "choice": "tie", "ms": 300})
    with pytest.raises(NotYourTurn) as raised:
        game.apply(0, {"type": "press", "choice": "tie", "ms": 400})
    assert raised.value.said(say) == say("You have pressed already this round.") != str(raised.value)


def test_no_english_in_the_pseudo_language():
    with pseudo_language():
        say = texts(PSEUDO)
        left = {text: english_left(text, NAMES + PLAIN) for text in every_text(say)}
        assert {text: words for text, words in left.items() if words} == {}
