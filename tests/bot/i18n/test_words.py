"""The words every surface shares, in each language: cards named in each language's own way (alt text), the
shared helpers (none, and, ordinals, Player N), refusals and engine errors said in a player's language from the
template and params they were raised with, phrases said later, and the test pseudo-language itself."""

from __future__ import annotations

import pytest

from bot.cards import card_label, describe
from bot.errors import IllegalAction, InvalidRules
from bot.i18n import N_, Phrase, texts
from bot.match import errors
from bot.registry import game_class
from bot.render.common import cards_line, join_words, ordinal, plain_names, words_line
from tests.bot.i18n.pseudo import PSEUDO, english_left, pseudo, pseudo_language

GERMAN, FRENCH, RUSSIAN, POLISH, ENGLISH = texts("de"), texts("fr"), texts("ru"), texts("pl"), texts("en")


@pytest.mark.parametrize(("card", "language", "expected"), [
    ("QS", "en", "queen of spades"), ("10H", "en", "10 of hearts"), ("RJ", "en", "red joker"),
    ("0T", "en", "the Fool"), ("21T", "en", "trump 21"),
    ("QS", "de", "Pik-Dame"), ("10H", "de", "Herz-10"), ("AC", "fr", "as de trèfle"), ("KD", "fr", "roi de carreau"),
    ("QS", "ru", "дама пик"), ("JH", "ru", "валет червей"), ("AH", "pl", "as kier"), ("BJ", "es", "comodín negro"),
    ("NH", "pt_BR", "cavaleiro de copas"), ("QS", "ro", "damă de pică"),
])
def test_a_card_is_named_in_each_languages_own_words(card, language, expected):
    assert describe(card, texts(language)) == expected


def test_the_card_notation_is_the_same_in_every_language():
    assert cards_line(["QS", "10C"], say=GERMAN) == cards_line(["QS", "10C"], say=RUSSIAN) == "Q♠ 10♣"
    assert card_label("AD") == "A♦"
    assert words_line(["QS", "AH"], say=GERMAN) == "Pik-Dame, Herz-Ass"


def test_the_shared_words_follow_the_language():
    assert cards_line([], say=GERMAN) == "keine" and cards_line([]) == "none"
    assert join_words(["a", "b", "c"], GERMAN) == "a, b und c"
    assert join_words(["a", "b"], RUSSIAN) == "a и b" and join_words(["a", "b", "c"]) == "a, b and c"
    assert [ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1st", "2nd", "3rd", "11th", "22nd"]
    assert [ordinal(n, FRENCH) for n in (1, 2)] == ["1er", "2e"]
    assert ordinal(3, GERMAN) == "3." and ordinal(3, RUSSIAN) == "3-й" and ordinal(3, texts("es")) == "3.º"
    assert plain_names(["<@1>", "Zoë"], say=POLISH) == ["Gracz 1", "Zoë"]


def test_an_engine_error_is_english_as_a_string_and_said_in_a_players_language():
    with pytest.raises(InvalidRules) as refused:
        game_class("airwar").resolve_rules({"stack": 9})
    error = refused.value
    assert str(error) == "rule 'stack' must be at most 7, not 9"
    said = error.said(GERMAN)
    assert said == GERMAN("rule {key} must be at most {high}, not {value}", key="'stack'", high=7, value=9)
    assert said != str(error) and "'stack'" in said and "7" in said
    # a phrase param is said in the same language; a template the catalogues lack stays English
    nested = IllegalAction(N_("{game} is for {low} to {high} players, not {players}"), game=Phrase("Air War"),
                           low=2, high=4, players=5)
    assert str(nested) == "Air War is for 2 to 4 players, not 5"
    assert nested.said(GERMAN).startswith(GERMAN("Air War"))
    assert IllegalAction("no such template {x}", x=1).said(GERMAN) == "no such template 1"


def test_a_refusal_is_said_from_its_template_and_params():
    error = errors.LobbyError(N_("Only the host, {host}, can start this game."), host="<@5>")
    assert str(error) == "Only the host, <@5>, can start this game."
    assert error.said(GERMAN) == GERMAN("Only the host, {host}, can start this game.", host="<@5>") != str(error)
    assert error.said(ENGLISH) == str(error)
    out = errors.AlreadyOut(Phrase(N_("there's nothing to give up")))
    assert str(out) == "You're out of this game already, so there's nothing to give up; the others play on without you."
    assert GERMAN("there's nothing to give up") in out.said(GERMAN)
    plain = errors.LobbyError(N_("This lobby is closed."))
    assert plain.said(FRENCH) == FRENCH("This lobby is closed.") != "This lobby is closed."
    assert errors.NotInMatch("Army").said(RUSSIAN) == RUSSIAN("You're not in a match of {game}.", game=RUSSIAN("Army"))


def test_the_pseudo_language_swaps_letters_but_keeps_placeholders_and_discord_markup():
    assert pseudo("Your turn, {player}: <t:5:R>") == "Ýóúŕ ŧúŕñ, {player}: <t:5:R>"
    assert english_left("Ýóúŕ ŧúŕñ <@12> A♠ Bob", allowed=["Bob"]) == []
    assert english_left("**Ann** vs **Bob** 3 cards", allowed=["Ann", "Bob"]) == ["vs", "cards"]
    with pseudo_language():
        said = texts(PSEUDO)("Rules: {rules}", rules="x")
        assert said == pseudo("Rules: ") + "x" and english_left(said) == []
        assert english_left(describe("QS", texts(PSEUDO))) == []
    assert texts(PSEUDO).language == "en"  # outside: a language the bot does not speak is English
