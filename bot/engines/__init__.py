"""The rules engines and their registry: a game's name -> its class (presets are subclasses)."""

from __future__ import annotations

from importlib import import_module

from bot.engines.base import Game
from bot.errors import InvalidRules

_REGISTRY = {
    "airwar": ("bot.engines.airwar", "AirWar"),
    "war": ("bot.engines.war", "War"),
    "drunkard": ("bot.engines.war", "Drunkard"),
    "todundleben": ("bot.engines.war", "TodUndLeben"),
    "army": ("bot.engines.army", "Army"),
}

GAME_NAMES = tuple(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The engine class for a game name; raise InvalidRules naming the games there are."""
    try:
        module_name, class_name = _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidRules(f"there is no game {name!r}; the games are: {', '.join(GAME_NAMES)}") from None
    return getattr(import_module(module_name), class_name)
