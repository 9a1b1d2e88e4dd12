"""The slash commands in every language: discord.py's :class:`~discord.app_commands.Translator` over the
catalogues (names under the ``command name`` context), and the list of every string a command tree asks for, which
``python -m bot.i18n extract`` adds to the catalogues."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.i18n import COMMAND_NAME, DEFAULT_LANGUAGE, LANGUAGES, Texts, discord_locales, language_of, texts

Location = app_commands.TranslationContextLocation
#: where a string is a name: one lower-case word (Discord's rule), looked up under its own context
NAME_LOCATIONS = frozenset({Location.command_name, Location.group_name, Location.parameter_name})
#: the Discord locales the bot has words for (the others see the English commands)
SPOKEN_LOCALES = frozenset(discord.Locale(locale) for language in LANGUAGES if language != DEFAULT_LANGUAGE
                           for locale in discord_locales(language))


class CommandTranslator(app_commands.Translator):
    """A command's, option's or choice's name or description in ``locale``'s language; ``None`` (Discord shows the
    English) where the catalogue has none."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        if locale not in SPOKEN_LOCALES or string.extras.get("verbatim"):
            return None
        words = texts(language_of(locale))
        message = string.message
        if "family" in string.extras:
            return family_text(string.extras, words) if words.has(string.extras["template"]) else None
        if context.location in NAME_LOCATIONS:
            return words.pgettext(COMMAND_NAME, message) if words.has(message, COMMAND_NAME) else None
        return words(message) if words.has(message) else None


def naming_variants(template: str, game: str, *, either: bool = True) -> app_commands.locale_str:
    """A command's text naming ``game`` and all its variants (``{games}`` in ``template``), from the registry: the
    English filled now, another language's when Discord asks for it; the catalogues hold the template. ``either``:
    the titles joined by "or" (a choice), else by "and"."""
    extras = {"template": template, "family": game, "either": either}
    return app_commands.locale_str(family_text(extras, texts(DEFAULT_LANGUAGE)), **extras)


def family_text(extras: dict[str, Any], words: Texts) -> str:
    from bot.howto import variants_line  # (the games' registry, which imports the catalogues itself)

    return words(extras["template"], games=variants_line(extras["family"], words, either=extras["either"]))


@dataclass(frozen=True)
class CommandString:
    """A string a command tree shows: ``context`` is :data:`~bot.i18n.COMMAND_NAME` for a name, else ``None``;
    ``where`` the command it belongs to (``/airwar challenge``); ``module`` the module defining that command (its
    cog's: whose catalogue domain the string is in)."""

    message: str
    context: str | None
    where: str
    limit: int
    module: str | None = None


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.found: list[CommandString] = []

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        if locale is discord.Locale.american_english and not string.extras.get("verbatim"):  # (once per string)
            self.found.append(_described(string.extras.get("template", string.message), context))
        return None


def _described(message: str, context: app_commands.TranslationContext[Any, Any]) -> CommandString:
    data = context.data
    command = data if isinstance(data, app_commands.Command | app_commands.Group) else getattr(data, "command", None)
    where = f"/{command.qualified_name.replace(' ', '/')}" if command is not None else "/"
    module = getattr(command, "module", None)
    if context.location in NAME_LOCATIONS:
        return CommandString(message, COMMAND_NAME, where, 32, module)
    return CommandString(message, None, where, 100, module)


async def command_strings(tree: app_commands.CommandTree[Any]) -> list[CommandString]:
    """Every name, description and choice the tree's commands show, in the order discord.py asks for them."""
    recorder = _Recorder()
    for command in tree.get_commands(guild=None):
        await command.get_translated_payload(tree, recorder)
    return recorder.found
