"""The rules texts as a newcomer reads them: each starts with how to start the game and what its buttons do, in
the reader's language; each reads in pages that fit a phone's screen."""

from __future__ import annotations

import re

import pytest

from bot.games.airwar.render import PANEL_BUTTON as ARRANGE
from bot.games.army.render import PANEL_BUTTON as CHOOSE
from bot.games.casinowar.render import PANEL_BUTTON as BET
from bot.howto import how_to, start_command
from bot.i18n import LANGUAGES, texts
from bot.registry import ACCURACY, game_names, registry
from bot.render.common import ENGLISH
from bot.rules_text import rules_text
from cogs.bundlewar.ui import BUTTONS as BUNDLE_WAR_BUTTONS
from cogs.rules import RULES_PAGE_LIMIT, description_parts, rules_embed, rules_pages

#: the button on each game's board that opens a player's panel, as the game's own code labels it
BOARD_BUTTONS = {"airwar": ARRANGE, "army": CHOOSE, "casinowar": BET, "bundlewar": BUNDLE_WAR_BUTTONS.board_label}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", game_names())
def test_every_rules_text_starts_with_how_to_start_the_game(game: str, language: str):
    say = texts(language)
    body = rules_text(game, language).body
    first_line = body.splitlines()[0]
    assert body.startswith(how_to(game, say) + "\n\n")
    assert start_command(game, say) in first_line  # the exact command, as the reader's client names it
    assert f"**{say('Accept')}**" in first_line or f"**{say('Join')}**" in first_line  # how the others come in
    assert "{" not in how_to(game, say)
    if language != "en":
        assert how_to(game, say) != how_to(game, ENGLISH)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(BOARD_BUTTONS))
def test_the_how_to_names_the_board_button_that_opens_the_panel_as_the_game_labels_it(game: str, language: str):
    say = texts(language)
    assert f"**{say(BOARD_BUTTONS[game])}**" in how_to(game, say)


@pytest.mark.parametrize("language", LANGUAGES)
def test_air_wars_how_to_says_what_arrange_and_lock_in_do_and_what_accuracy_is(language: str):
    say = texts(language)
    text = how_to("airwar", say)
    assert f"**{say('Lock in')}**" in text and f"**{say('Arrange')}**" in text
    assert say(ACCURACY) in text.splitlines()
    assert say(ACCURACY) not in how_to("war", say)


@pytest.mark.parametrize("language", LANGUAGES)
def test_wars_how_to_names_every_variant_the_registry_has(language: str):
    say = texts(language)
    text = how_to("war", say)
    assert all(say(registry().entry(name).title) in text for name in registry().family("war"))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", game_names())
def test_every_rules_text_reads_in_pages_for_a_phone_and_names_nothing_by_a_placeholder(game: str, language: str):
    pages = rules_pages(game, language)
    for page in range(len(pages)):
        embed = rules_embed(game, language, page)
        assert len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "") \
            <= RULES_PAGE_LIMIT
    assert "\n\n".join(pages) == rules_text(game, language).body  # all of it, cut between paragraphs
    assert not re.search(r"\{\{|\}\}", rules_text(game, language).body)


def test_a_paragraph_longer_than_a_page_is_cut_between_its_lines_then_its_words():
    body = "intro\n\n" + "\n".join(["word " * 30] * 3).strip() + "\n\nend"
    parts = description_parts(body, 100)
    assert all(len(part) <= 100 for part in parts)
    assert " ".join(" ".join(parts).split()) == " ".join(body.split())  # every word, in order


def rules_sources() -> list[tuple[str, str, str]]:
    """(game, language, source text) of every rules text file."""
    found = []
    for game in game_names():
        english = registry().entry(game).rules_path
        for language in LANGUAGES:
            path = english if language == "en" else english.with_name(f"{english.stem}.{language}.md")
            found.append((game, language, path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize(("game", "language", "source"), rules_sources(), ids=lambda value: str(value)[:12])
def test_a_button_a_rules_text_names_reads_as_the_readers_button_does(game: str, language: str, source: str):
    say = texts(language)
    body = rules_text(game, language).body
    buttons = set(re.findall(r"\{\{button:([^{}]+)\}\}", source))
    every_button = {name for _, _, text in rules_sources() for name in re.findall(r"\{\{button:([^{}]+)\}\}", text)}
    for label in buttons:
        assert texts("de").has(label)  # a label of the catalogues
        assert f"**{say(label)}**" in body
    for label in every_button:  # and none in English in another language's text
        if say(label) != label:
            assert f"**{label}**" not in body
