"""The catalogues: the template holds every string the code marks and every string the slash commands show; each
language's catalogue translates all of them with the same placeholders and within Discord's limits; a localised
command tree stays within Discord's limits for every command."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from babel.messages.pofile import write_po

from bot.i18n import COMMAND_NAME, DEFAULT_LANGUAGE, LANGUAGES, N_, placeholders, texts
from bot.i18n.check import GAME_AFTER_PREPOSITION, every_problem, is_command_name, read
from bot.i18n.commands import SPOKEN_LOCALES, CommandTranslator
from bot.i18n.extract import bot_command_strings, bot_command_tree, marked_strings
from bot.registry import game_names, registry
from bot.render.fonts import BOLD_STACK, STACK, runs
from bot.rules_text import rules_text
from tests.localdiscord import command_characters
from tests.localdiscord.command_limits import MAX_COMMAND_CHARACTERS, check_command_tree

#: the share of Discord's size a command may use in any language (as tests/e2e/test_localdiscord_commands.py)
HEADROOM = 0.75


def keys(strings: Any) -> set[tuple[str, str | None]]:
    return {(s.message if isinstance(s.message, str) else s.message[0], s.context) for s in strings}


async def test_the_template_holds_every_string_of_the_code_and_the_commands():
    template = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read(None) if m.id}
    found = keys(marked_strings()) | keys(await bot_command_strings())
    assert found - template == set(), "strings not in the template: run python -m bot.i18n extract"
    assert template - found == set(), "strings no longer used: run python -m bot.i18n extract"


def test_every_catalogue_translates_every_string_with_its_placeholders():
    assert every_problem() == []


def test_a_missing_translation_or_a_changed_placeholder_is_reported(tmp_path, monkeypatch):
    catalog = read("de")
    catalog.get("Rules: {rules}").string = "Regeln: {regeln}"
    catalog.get("Decline").string = ""
    with (tmp_path / "de.po").open("wb") as file:
        write_po(file, catalog)
    monkeypatch.setattr("bot.i18n.check.catalogue_path", lambda language: tmp_path / f"{language}.po")
    found = every_problem(["de"])
    assert any("'Rules: {rules}'" in problem and "placeholders ['regeln']" in problem for problem in found), found
    assert "de: 'Decline': not translated" in found
    assert len(found) == 2


@pytest.mark.parametrize(("language", "wrong", "right"), [
    ("ru", "Это лобби заполнено: в «{game}» играют не больше {count} игроков.",
     "Это лобби заполнено: в игре «{game}» не больше {count} игроков."),
    ("ru", "{player} вызывает тебя на «{game}»", "{player} вызывает тебя сыграть в игру «{game}»"),
    ("pl", "W {game} nie można teraz grać w turnieju.", "W grze {game} nie można teraz grać w turnieju."),
    ("pl", "Sam nie gram w {game}.", "Sam nie gram w grę {game}."),
    ("ro", "La {game} nu se poate alege ritmul.", "În jocul {game} nu se poate alege ritmul."),
    ("fr", "Tu n'as pas de partie de {game} en cours.", "Tu n'as pas de partie en cours au jeu {game}."),
    ("fr", "{player} t'a défié à {game}.", "{player} te défie dans une partie : {game}."),
])
def test_a_game_name_after_a_preposition_is_caught(language: str, wrong: str, right: str):
    """A name the placeholder cannot inflect: the check catches it where its form would have to change (the
    French "de {game}" would need d' before a vowel: "partie de Armée"), not where a noun carries the case."""
    pattern = GAME_AFTER_PREPOSITION[language]
    assert pattern.search(wrong), wrong
    assert not pattern.search(right), right


def test_languages_of_discords_locales():
    assert [texts(locale).language for locale in ("de", "fr", "es-ES", "es-419", "pt-BR", "ru", "ro", "pl")] == [
        "de", "fr", "es", "es", "pt_BR", "ru", "ro", "pl"]
    assert texts(discord.Locale.german).language == "de"
    assert {texts(locale).language for locale in ("en-US", "en-GB", "ja", "uk", None, "")} == {"en"}
    assert {texts(locale).language for locale in SPOKEN_LOCALES} == set(LANGUAGES) - {DEFAULT_LANGUAGE}


def test_words_fall_back_to_english_and_fill_their_placeholders():
    german = texts("de")
    assert german("Rules: {rules}", rules="x") != "Rules: x" and "x" in german("Rules: {rules}", rules="x")
    assert german("Not a string of the bot: {n}", n=3) == "Not a string of the bot: 3"
    assert texts("en")("Rules: {rules}", rules="x") == "Rules: x"
    assert N_("marked") == "marked"
    assert placeholders("{a} and {b.c} and {{literal}}") == {"a", "b"}


@pytest.mark.parametrize(("language", "counts"), [("en", {1: 0, 2: 1, 5: 1}), ("ru", {1: 0, 2: 1, 5: 2, 21: 0}),
                                                   ("pl", {1: 0, 3: 1, 5: 2, 22: 1}), ("ro", {1: 0, 2: 1, 20: 2})])
def test_counts_take_the_languages_plural_forms(language, counts):
    words = texts(language)
    forms = [words.ngettext("stacks of {count}", "stacks of {count}", n) for n in counts]
    assert all(str(n) in form for n, form in zip(counts, forms, strict=True))
    if language != "en":
        catalogue = {m.id[0]: m.string for m in read(language) if isinstance(m.id, tuple)}
        expected = [catalogue["stacks of {count}"][index].format(count=n) for n, index in counts.items()]
        assert forms == expected


def test_numbers_in_each_languages_form():
    assert texts("en").number(1500.5) == "1,500.5"
    assert texts("de").number(1500.5) == "1.500,5"
    assert texts("fr").number(1500, digits=0).replace("\u202f", " ") == "1 500"


async def test_every_localised_command_is_within_discords_limits():
    async with bot_command_tree() as tree:
        payloads = [await command.get_translated_payload(tree, CommandTranslator())
                    for command in tree.get_commands(guild=None)]
    check_command_tree(payloads)  # names (each localisation too), lengths, sizes: what Discord refuses
    for command in payloads:
        size = command_characters(command)
        assert size <= HEADROOM * MAX_COMMAND_CHARACTERS, (command["name"], size)

    def walk(node: dict, path: str) -> None:
        for key in ("name_localizations", "description_localizations"):
            for locale, text in (node.get(key) or {}).items():
                assert discord.Locale(locale) in SPOKEN_LOCALES, (path, locale)
                if key == "name_localizations":
                    assert is_command_name(text), (path, locale, text)
                else:
                    assert 1 <= len(text) <= 100, (path, locale, text)
        siblings = node.get("options") or []
        for locale in SPOKEN_LOCALES:
            names = [(o.get("name_localizations") or {}).get(str(locale), o["name"]) for o in siblings]
            assert len(names) == len(set(names)), (path, str(locale), names)
        for child in siblings:
            walk(child, f"{path} {child['name']}")
        for choice in node.get("choices") or []:
            for text in (choice.get("name_localizations") or {}).values():
                assert 1 <= len(text) <= 100, (path, text)

    top = [(command.get("name_localizations") or {}) for command in payloads]
    for locale in SPOKEN_LOCALES:
        names = [names.get(str(locale), command["name"]) for names, command in zip(top, payloads, strict=True)]
        assert len(names) == len(set(names)), (str(locale), names)
    for command in payloads:
        walk(command, command["name"])
    airwar = next(command for command in payloads if command["name"] == "airwar")
    assert set(airwar["description_localizations"]) == {str(locale) for locale in SPOKEN_LOCALES}


def test_a_command_name_is_one_lower_case_word():
    assert is_command_name("herausfordern") and is_command_name("вызов") and is_command_name("wyzwij")
    assert not is_command_name("Herausfordern") and not is_command_name("two words") and not is_command_name("x" * 33)
    assert COMMAND_NAME == "command name"


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != DEFAULT_LANGUAGE])
def test_every_translated_string_is_drawn_by_the_picture_fonts_with_no_missing_glyph(language):
    """A label of a picture in any language must not come out as boxes: every character of every translation
    (and of the rules texts' titles) has a font in the regular and the bold stacks."""
    strings = []
    for message in read(language):
        if message.id:
            strings += [message.string] if isinstance(message.string, str) else list(message.string)
    strings += [rules_text(game, language).title for game in game_names()]
    characters = "".join(sorted(set("".join(strings))))
    for stack in (STACK, BOLD_STACK):
        drawn = "".join(run.text for run in runs(characters, stack))
        assert "\ufffd" not in drawn, [char for char in characters if not any(font.has(char) for font in stack)]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_small_counts_are_written_as_babel_writes_them(language):
    from babel.numbers import format_decimal

    words = texts(language)
    for value in (0, 1, 7, 42, 999, 1000, 12345):
        assert words.number(value) == format_decimal(value, locale=language), (language, value)


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != DEFAULT_LANGUAGE])
def test_each_games_name_says_in_its_catalogue_why_it_was_chosen(language):
    titles = {entry.engine.title for entry in registry().entries() if not entry.name.startswith("toy")}
    catalogue = read(language)
    unexplained = [title for title in sorted(titles)
                   if not any(comment.startswith("Name: ") for comment in catalogue.get(title).user_comments)]
    assert not unexplained
