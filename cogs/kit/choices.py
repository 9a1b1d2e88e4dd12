"""Slash command choices (and descriptions naming games) made when a cog loads, from the registry as it stands
then: a game added later (a package named in ``GAME_PACKAGES``) is offered without any module having to be imported
after it, and nothing asks the registry at import time (its first use fixes it for the process)."""

from __future__ import annotations

import dataclasses
from typing import Any

from discord import app_commands

from bot.registry import GamePlugin

Choices = list[app_commands.Choice[Any]]


def set_choices(command: app_commands.Command[Any, ..., Any], **choices: Choices) -> None:
    """Give the options of ``command`` (the loading cog's own copy) their choices; each option is declared as an
    ``app_commands.Choice``. The command's JSON (synced after every cog loaded) and the values it accepts follow."""
    params = command._params
    for name, values in choices.items():
        params[name] = dataclasses.replace(params[name], choices=values)


def set_descriptions(command: app_commands.Command[Any, ..., Any],
                     **descriptions: str | app_commands.locale_str) -> None:
    """Give the options of ``command`` (the loading cog's own copy) their descriptions."""
    params = command._params
    for name, description in descriptions.items():
        params[name] = dataclasses.replace(params[name], description=description)


def set_description(group: app_commands.Group, description: app_commands.locale_str) -> None:
    """Give a command group (the loading cog's own copy) its description, in every language."""
    group.description, group._locale_description = description.message, description


def plugin_choices(plugin: GamePlugin, option: str) -> Choices:
    """The choices a game's plugin declares for ``option`` (:attr:`~bot.registry.GamePlugin.choices`)."""
    return [app_commands.Choice(name=name, value=value) for value, name in plugin.choice_names(option).items()]
