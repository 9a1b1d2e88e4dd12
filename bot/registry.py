"""The registry of games: every game package declares itself to it, and everything else asks it.

A game package (``bot/games/<game>/``) declares one :class:`GamePlugin` named ``PLUGIN`` in
its ``__init__``; the registry finds every such package by itself, so nothing else keeps a list of games:
``/rules``, ``/help``, tournaments, export, stats, settings, diagnostics and the simulator all ask the registry.
It sits below the match kernel, storage and rendering (it knows only :mod:`bot.game`), and imports no game
package by name: it finds them by their folder, so the layers below the games reach a game only through it.

Games from elsewhere (a test's own toy game, a game shipped as its own package) are named by module in the
``GAME_PACKAGES`` setting (comma-separated) or passed to :func:`discover`.

A variant (Drunkard, Tod und Leben) is a registered name of its game: its own engine class (a preset subclass),
title and rules text, the game's service and cog. Every name, game or variant, is one :class:`GameEntry`.
"""

from __future__ import annotations

import dataclasses
import os
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import Any

from bot.errors import InvalidRules
from bot.game import Game
from bot.i18n import GAME_LOCALES, N_, add_domain

#: the line of a game's ``how_to`` that says what its accuracy is (a game that measures one: Air War, Army)
ACCURACY = N_("Accuracy: how close your plays came to the best play (100% = the best play every engagement)")

#: The environment variable naming extra game packages (comma-separated module names).
GAME_PACKAGES_VARIABLE = "GAME_PACKAGES"

#: The package the project's own games are in, and its folder (read, not imported: it sits above the registry).
GAMES_PACKAGE = "bot.games"
GAMES_FOLDER = Path(__file__).resolve().parent / "games"


@dataclass(frozen=True)
class GameSetting:
    """A server setting a game declares (``GamePlugin.settings``): the settings service checks a value against it and
    stores it for the game in the one table of every game's settings, so a game's setting needs no column and no
    migration. ``key``: its name in the game's code and on the command line; ``label``: what an admin reads
    (marked with ``N_``); ``choices``: the values it takes, the first its default."""

    key: str
    label: str
    choices: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.choices[0]


@dataclass(frozen=True)
class GamePlugin:
    """One game as its package declares it (``PLUGIN`` in the package's ``__init__``).

    ``engine``: the game's engine class; ``variants``: preset subclasses registered under their own names;
    ``flow``: its :class:`~bot.match.flow.Flow` (the match kernel plays it with that);
    ``cog``: the extension that is its Discord face (default ``cogs.<name>``; ``".cog"``: a module of its own
    package, for a game shipped as one package); ``order``: its place in menus;
    ``paces``: the paces a match of it can be played at (empty: it has none to choose), ``default_pace`` the one
    a match gets when nobody chose; ``how_to``: how a newcomer starts and plays it on Discord, paragraphs with the
    placeholders of :mod:`bot.howto` (``/help`` shows them, and every rules text starts with them);
    ``opponent``: ``"module:function"`` of the bot's own player, ``decide(view, seat, level, key)`` returning the
    action a seat of the bot plays (run in another process: pure, picklable arguments), with its ``levels``,
    strongest first, and the ``default_level`` (``None``: the first); ``None``: nobody can play the bot;
    ``choices``: the choices its slash commands offer for an option, ``(option, ((value, name), ...))``, each name
    marked with ``N_`` (a rules text names a choice as the reader's client shows it); ``settings``: its per-server
    settings (:class:`GameSetting`), stored for it by the settings service."""

    engine: type[Game]
    flow: type[Any]
    variants: tuple[type[Game], ...] = ()
    cog: str | None = None
    order: int = 100
    paces: tuple[str, ...] = ()
    default_pace: str | None = None
    how_to: tuple[str, ...] = ()
    choices: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    opponent: str | None = None
    levels: tuple[str, ...] = ()
    default_level: str | None = None
    settings: tuple[GameSetting, ...] = ()
    package: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def level(self) -> str:
        """The level the bot plays at when none is chosen."""
        return self.default_level or self.levels[0]

    def choice_names(self, option: str) -> dict[str, str]:
        """The choices offered for ``option``: each value's name (English, marked for the catalogues)."""
        return dict(dict(self.choices)[option])

    def setting(self, key: str) -> GameSetting | None:
        """The setting the game declares as ``key`` (``None``: it declares none so)."""
        return next((setting for setting in self.settings if setting.key == key), None)

    @property
    def cog_extension(self) -> str:
        """The cog's module: ``cog`` (``".cog"``: a module of the game's own package), else ``cogs.<name>``."""
        if self.cog and self.cog.startswith("."):
            return self.package + self.cog
        return self.cog or f"cogs.{self.name}"

    @property
    def folder(self) -> Path:
        """The game package's folder (its engine, flow, render, ``rules/`` and ``locales/``)."""
        module = import_module(self.package)
        assert module.__file__ is not None
        return Path(module.__file__).resolve().parent

    @property
    def rules_dir(self) -> Path:
        return self.folder / "rules"


@dataclass(frozen=True)
class GameEntry:
    """One registered name: a game or a variant of one (``plugin.name`` is the game it belongs to)."""

    name: str
    engine: type[Game]
    plugin: GamePlugin

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def family(self) -> str:
        """The game it belongs to: a player is in one open match of a family at a time."""
        return self.plugin.name

    @property
    def is_variant(self) -> bool:
        return self.name != self.plugin.name

    @property
    def rules_path(self) -> Path:
        return self.plugin.rules_dir / f"{self.name}.md"


class Registry:
    """Every game and variant found; see the module docstring."""

    def __init__(self, plugins: Iterable[GamePlugin]) -> None:
        ordered = sorted(plugins, key=lambda plugin: (plugin.order, plugin.name))
        self.plugins: tuple[GamePlugin, ...] = tuple(ordered)
        entries: dict[str, GameEntry] = {}
        # games first, then the variants: the order menus show them in
        for plugin in ordered:
            entries[plugin.name] = GameEntry(plugin.name, plugin.engine, plugin)
        for plugin in ordered:
            for variant in plugin.variants:
                entries[variant.name] = GameEntry(variant.name, variant, plugin)
        self._entries = entries

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def entries(self) -> tuple[GameEntry, ...]:
        return tuple(self._entries.values())

    def entry(self, name: str) -> GameEntry:
        """The registered name's entry; raise InvalidRules naming the games there are."""
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            raise InvalidRules(N_("there is no game {name}; the games are: {games}"), name=repr(name),
                               games=", ".join(self.names)) from None

    def family(self, name: str) -> tuple[str, ...]:
        """Every name of the game ``name`` belongs to (the game and its variants)."""
        plugin = self.entry(name).plugin
        return tuple(entry.name for entry in self._entries.values() if entry.plugin is plugin)


def _plugin_of(module_name: str) -> GamePlugin:
    module = import_module(module_name)
    plugin = getattr(module, "PLUGIN", None)
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"game package {module_name} declares no PLUGIN = GamePlugin(...)")
    plugin = plugin if plugin.package else dataclasses.replace(plugin, package=module_name)
    if plugin.folder.parent != GAMES_FOLDER:
        add_domain(plugin.name, plugin.folder / GAME_LOCALES)  # (the project's games' words are found by folder)
    return plugin


def extra_packages() -> tuple[str, ...]:
    """The game packages named in ``GAME_PACKAGES``."""
    return tuple(name.strip() for name in os.environ.get(GAME_PACKAGES_VARIABLE, "").split(",") if name.strip())


def discover(extra: Iterable[str] = ()) -> Registry:
    """Every game package under ``bot/games/``, plus ``extra`` and ``GAME_PACKAGES``'s."""
    names = [f"{GAMES_PACKAGE}.{module.name}" for module in pkgutil.iter_modules([str(GAMES_FOLDER)])
             if module.ispkg]
    for name in (*extra_packages(), *extra):
        if name not in names:
            names.append(name)
    return Registry(_plugin_of(name) for name in names)


_registry: Registry | None = None


def registry() -> Registry:
    """The registry of this process (discovered on first use)."""
    global _registry
    if _registry is None:
        _registry = discover()
    return _registry


def use_registry(new: Registry | None) -> Registry | None:
    """Make ``new`` this process's registry (``None``: discover again on next use); returns the one before."""
    global _registry
    previous, _registry = _registry, new
    return previous


def game_class(name: str) -> type[Game]:
    """The engine class for a game name; raise InvalidRules naming the games there are."""
    return registry().entry(name).engine


def game_names() -> tuple[str, ...]:
    """Every registered game and variant, in menu order."""
    return registry().names


def seat_ranges() -> dict[str, tuple[int, int]]:
    """Per registered name, the fewest and the most seats a match of it has."""
    return {entry.name: (entry.engine.min_players, entry.engine.max_players) for entry in registry().entries()}
