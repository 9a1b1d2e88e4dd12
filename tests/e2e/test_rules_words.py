"""What the rules and the commands say, as the bot synced them to the local Discord: a rules text names an option as
the reader's client shows it, in every language; War's variants are named in full wherever they are listed."""

from __future__ import annotations

import re

import pytest

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, discord_locales, texts
from bot.registry import game_names, registry
from bot.rules_text import rules_text
from tests.localdiscord import Env

pytestmark = pytest.mark.e2e

#: what a rules text's source names an option by
OPTION = re.compile(r"\{\{([a-z_]+)\}\}")


def option_names(env: Env, *groups: str) -> dict[str, dict[str, str]]:
    """Each option of the commands (of every command: none named), by its English name: its name per Discord
    locale (English too)."""
    found: dict[str, dict[str, str]] = {}
    for name in groups or env.commands:
        for option in env.commands[name].get("options", []):
            for inner in option.get("options", []) if option["type"] in (1, 2) else [option]:
                found.setdefault(inner["name"], {"en-US": inner["name"], **inner.get("name_localizations", {})})
    return found


def client_name(names: dict[str, str], language: str) -> str:
    """The option's name as a client in ``language`` shows it (English where Discord was given none)."""
    locale = "en-US" if language == DEFAULT_LANGUAGE else discord_locales(language)[0]
    return names.get(locale, names["en-US"])


def words(span: str) -> list[str]:
    """The words of a backticked span (``/army challenge opponent [timer]``: an option may be in brackets)."""
    return re.split(r"[\s:\[\]]+", span)


def source_of(game: str, language: str) -> str:
    english = registry().entry(game).rules_path
    path = english if language == DEFAULT_LANGUAGE else english.with_name(f"{english.stem}.{language}.md")
    return (path if path.exists() else english).read_text(encoding="utf-8")


async def test_a_rules_text_names_each_option_as_the_readers_client_shows_it(env: Env):
    checked, every_option = 0, option_names(env)
    for game in game_names():
        options = option_names(env, registry().entry(game).family)
        for language in LANGUAGES:
            text = rules_text(game, language).body
            shown = set(re.findall(r"`([^`\n]+)`", text))
            named = set(OPTION.findall(source_of(game, language)))
            for name in named:  # every option the text names: by its client's name
                assert name in every_option, f"{game}: {{{{{name}}}}} is no command's option"
                assert any(client_name(every_option[name], language) in words(span) for span in shown), (game, language,
                                                                                                     name)
                checked += 1
            for name, names in options.items():  # and none of its own options by another language's name
                if client_name(names, language) != name:
                    assert not any(name in words(span) for span in shown), (game, language, name)
    assert checked >= 8 * 6  # (Air War's aces, deck, stack, Casino War's four, Army's three, ... in 8 languages)


def choice_names(env: Env, group: str, option: str) -> dict[str, dict[str, str]]:
    """The choices the group's commands offer for ``option``, by value: each choice's name per Discord locale."""
    for sub in env.commands[group].get("options", []):
        for inner in sub.get("options", []):
            if inner["name"] == option and inner.get("choices"):
                return {choice["value"]: {"en-US": choice["name"], **choice.get("name_localizations", {})}
                        for choice in inner["choices"]}
    raise KeyError(option)


async def test_a_rules_text_names_each_choice_as_the_readers_client_begins_it(env: Env):
    checked = 0
    for game in game_names():
        group = registry().entry(game).family
        for language in LANGUAGES:
            body = rules_text(game, language).body
            for option, value in set(re.findall(r"\{\{([a-z_]+)=([a-z0-9_]+)\}\}", source_of(game, language))):
                shown = client_name(choice_names(env, group, option)[value], language)
                start = re.split(r"\s*[(:,]", shown, maxsplit=1)[0].strip()
                assert start and shown.startswith(start) and start in body, (game, language, option, value, shown)
                checked += 1
    assert checked >= 8 * (5 + 3)  # Air War's aces and decks, War's paces, in 8 languages
    body = rules_text("airwar", "ru").body
    assert "`тузы` старшие|младшие" in body and "high|low" not in body


async def test_russian_air_war_rules_show_the_options_as_the_russian_client_does(env: Env):
    options = option_names(env, "airwar")
    body = rules_text("airwar", "ru").body
    for name in ("aces", "stack", "deck"):
        assert f"`{options[name]['ru']}`" in body
        assert f"`{name}`" not in body
    assert options["aces"]["ru"] == "тузы" and options["stack"]["ru"] == "стопка"


async def test_war_and_its_variant_option_name_every_variant_in_every_language(env: Env):
    war = env.commands["war"]
    titles = [registry().entry(name).title for name in registry().family("war")]
    assert "Double War" in titles
    variant = next(option for sub in war["options"] if sub["name"] == "challenge" for option in sub["options"]
                   if option["name"] == "variant")
    lobby_variant = next(option for sub in war["options"] if sub["name"] == "lobby" for option in sub["options"]
                         if option["name"] == "variant")
    assert [choice["value"] for choice in variant["choices"]] == list(registry().family("war"))
    for described in (war, variant, lobby_variant):
        assert all(title in described["description"] for title in titles)
        for language in LANGUAGES:
            if language == DEFAULT_LANGUAGE:
                continue
            say = texts(language)
            localized = described["description_localizations"][discord_locales(language)[0]]
            assert all(say(title) in localized for title in titles), (language, localized)
            assert len(localized) <= 100


async def test_war_status_without_a_game_names_every_variant_in_the_askers_language(env: Env):
    for user, language in ((env.user("alice"), "en"), (env.user("anna", locale="de"), "de"),
                           (env.user("ivan", locale="ru"), "ru")):
        say = texts(language)
        ix = await env.slash(user, "war status")
        await ix.wait_response()
        assert ix.response.ephemeral
        for name in registry().family("war"):
            assert say(registry().entry(name).title) in ix.message.text, (language, ix.message.text)
