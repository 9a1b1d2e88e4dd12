"""Army's practice hint in plain words, in English, German and the pseudo-language (no English word left)."""

from __future__ import annotations

from bot.games.army import practice
from bot.i18n import texts
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo_language

ATTACK = {"phase": "play", "best": "9H", "reason": {"kind": "attack", "card": "9H", "won": 20, "count": 24,
                                                   "lethal": False}, "alike": ["9D"], "close": None}
DEFEND = {"phase": "play", "best": "2C", "reason": {"kind": "defend", "card": "2C", "stopped": 1, "reds": 1},
          "alike": [], "close": "3S"}
LETHAL = {**ATTACK, "reason": {**ATTACK["reason"], "lethal": True}, "alike": [], "close": None}


def test_the_hint_names_the_card_and_why():
    assert practice.hint(ATTACK) == ("💡 **Hint:** play **9♥**. A red card attacks: it beats 20 of the 24 cards I "
                                     "might have.\nJust as good: **9♦**.")
    assert practice.hint(DEFEND) == ("💡 **Hint:** play **2♣**. A black card defends: it stops 1 of the 1 red card I "
                                     "might have.\nAlmost as good: **3♠**.")
    assert practice.hint(LETHAL) == ("💡 **Hint:** play **9♥**. It can take my last stamina point: it beats 20 of "
                                     "the 24 cards I might have.")
    assert practice.hint({"phase": "arrange"}) == ("💡 **Hint:** any order of your armies works as well: each must "
                                                   "be worn down, whatever the order.")
    assert practice.hint(ATTACK, texts("de")) == (
        "💡 **Tipp:** spiel **9♥**. Eine rote Karte greift an: Sie schlägt 20 der 24 Karten, die ich haben könnte.\n"
        "Genauso gut: **9♦**.")


def test_the_hint_in_the_pseudo_language_keeps_no_english_word():
    with pseudo_language():
        say = texts(PSEUDO)
        for data in (ATTACK, DEFEND, LETHAL, {"phase": "arrange"}):
            assert english_left(practice.hint(data, say)) == [], data
