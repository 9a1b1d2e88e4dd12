"""Server settings for every game: what ``/settings`` changes and what the game cogs read.

* Air War's arrangement timer (``arrange_seconds``, 30-600 s) and flip pace (``flip_pace_ms``, 1000-5000 ms);
* War's default pace (``war_pace``: ``auto``, the default -- the bot plays runs of rounds and pauses on every
  war; ``flip`` -- every player presses Flip each round; ``instant`` -- the game is played out at once and the
  result shown);
* whether a match gets a thread of its own (``thread_per_match``; off: it is played in the channel);
* default rules per game (``default_rules``): rule keys checked by the game's own options (the same parsing as
  ``python -m bot sim --rule key=value``); a challenge's own rules override them (:meth:`SettingsService.rules_for`);
* the channels where matches may start (``start_channels``; none: anywhere), checked by
  :meth:`SettingsService.check_start`;
* the language of the server's public messages (``language``, a code of :data:`bot.i18n.LANGUAGES`; English until
  set), read through :meth:`SettingsService.language`, which keeps it in memory;
* each game's own settings, as the game declares them (:class:`bot.registry.GameSetting`): set with
  :meth:`SettingsService.set_game_setting` and read with :meth:`SettingsService.game_setting`, stored alike for
  every game (a game's setting needs no column of its own).

Every setter validates first and raises :class:`InvalidSetting` (its text is the user's message) without changing
anything; a setter returns the settings after the change.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable, Mapping
from typing import Any

from bot.errors import GameError
from bot.games.airwar.flow import ARRANGE_SECONDS_RANGE, FLIP_PACE_MS_RANGE
from bot.i18n import LANGUAGES, N_, Phrase, Texts
from bot.match.errors import ServiceError
from bot.registry import game_class, game_names, registry
from bot.storage.port import Storage
from bot.storage.settings import WAR_PACES, GuildSettings
from bot.storage.web import WEB

__all__ = ["WAR_PACES", "GuildSettings", "InvalidSetting", "SettingsService", "StartChannelRefused"]

RESET_WORDS = ("reset", "default", "defaults", "none", "clear")
#: how long a server's language is kept in memory when other processes may change it (one process: until it does)
LANGUAGE_KEPT_SECONDS = 30.0


class InvalidSetting(ServiceError):
    """A setting's value was refused; nothing was changed. Raised as ``InvalidSetting(english, template=N_(...),
    **params)``: a param with a ``said`` of its own (an engine's error) is said in the same language, ``game`` is a
    game's title."""

    def said(self, say: Texts) -> str:
        if self.template is None:
            return self.message
        _ = say
        params = {key: value.said(say) if hasattr(value, "said") else _(value) if key == "game" else value
                  for key, value in self.params.items()}
        return _(self.template, **params)


def _refused(template: str, **params: Any) -> InvalidSetting:
    """An :class:`InvalidSetting` whose English is its template filled in (a game's title as it is)."""
    return InvalidSetting(template.format(**{key: str(value) for key, value in params.items()}), template=template,
                          **params)


class StartChannelRefused(ServiceError):
    """Matches may not start in this channel (the server listed others)."""

    def __init__(self, channel_id: int, allowed: tuple[int, ...]) -> None:
        where = ", ".join(f"<#{channel}>" for channel in allowed)
        super().__init__(f"Matches can't be started in <#{channel_id}> on this server; start one in {where}.",
                         template=N_("Matches can't be started in {channel} on this server; start one in "
                                     "{channels}."), channel=f"<#{channel_id}>", channels=where)
        self.channel_id = channel_id
        self.allowed = allowed


def parse_rules_text(game: str, text: str) -> dict[str, Any]:
    """``"aces=low pack=36"`` -> the game's rule keys with typed values (only the given keys). Raises
    :class:`InvalidSetting` naming what is wrong: not key=value, a key given twice, an unknown game or key, a value
    the rule does not take (the engine's own message)."""
    if game not in game_names():
        raise _no_game(game)
    try:
        tokens = shlex.split(text)
    except ValueError as error:
        raise _refused(N_("Couldn't read the rules: {error}."), error=error) from None
    if not tokens:
        raise _refused(N_("Give the rules as key=value pairs, e.g. `aces=low`."))
    given: dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise _refused(N_("Rules are key=value pairs separated by spaces; {token} isn't one."), token=repr(token))
        if key in given:
            raise _refused(N_("The rule {key} is given twice."), key=repr(key))
        given[key] = value
    return check_rules(game, given)


def _no_game(game: str) -> InvalidSetting:
    return _refused(N_("There is no game {name}; the games are: {games}."), name=repr(game),
                    games=", ".join(game_names()))


def check_rules(game: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The given rule keys checked against the game's options and typed (text values as on a command line)."""
    if game not in game_names():
        raise _no_game(game)
    cls = game_class(game)
    try:
        cls.resolve_rules(given)  # unknown keys, and every value against the game's options
        options = {option.key: option for option in cls.options}
        return {key: options[key].parse(value) for key, value in given.items()}
    except GameError as error:
        raise _refused(N_("Bad rules for {game}: {error}."), game=cls.title, error=error) from None


class SettingsService:
    def __init__(self, database: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.db = database
        self.clock = clock
        #: each server's language as last read, and when (``time.monotonic``)
        self._languages: dict[int, tuple[str, float]] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        async with self.db.statement() as conn:  # one SELECT
            return self._read(await self.db.settings.get_settings(conn, guild_id))

    def _read(self, settings: GuildSettings) -> GuildSettings:
        self._languages[settings.guild_id] = (settings.language, time.monotonic())
        return settings

    async def language(self, guild_id: int | None) -> str:
        """The language of the server's public messages (English outside a server); read once, then kept (for
        :data:`LANGUAGE_KEPT_SECONDS` when other processes share the database)."""
        if guild_id is None:
            return "en"
        kept = self._languages.get(guild_id)
        if kept is not None and (not self.db.shared or time.monotonic() - kept[1] < LANGUAGE_KEPT_SECONDS):
            return kept[0]
        return (await self.get(guild_id)).language

    async def set_language(self, guild_id: int, language: str) -> GuildSettings:
        if language not in LANGUAGES:
            raise _refused(N_("The languages are {languages}, not {language}."), languages=", ".join(LANGUAGES),
                           language=repr(language))
        return await self._update(guild_id, language=language)

    async def check_start(self, guild_id: int, channel_id: int, parent_id: int | None = None) -> None:
        """Raise :class:`StartChannelRefused` when matches may not start in the channel (``parent_id``: the
        channel a thread is in; a thread of a listed channel is allowed)."""
        refusal = self.start_refusal(await self.get(guild_id), channel_id, parent_id)
        if refusal is not None:
            raise refusal

    async def rules_for(self, guild_id: int, game: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The rules a new match of the game starts with: the server's defaults, overridden by ``given`` (the
        challenge's own options). Only keys, not resolved: the service resolves and checks them."""
        return self.rules_from(await self.get(guild_id), game, given)

    @staticmethod
    def start_refusal(settings: GuildSettings, channel_id: int, parent_id: int | None = None,
                      ) -> StartChannelRefused | None:
        """:meth:`check_start`'s refusal from settings already read (``None``: matches may start there)."""
        allowed = settings.start_channels
        if allowed and channel_id not in allowed and (parent_id is None or parent_id not in allowed):
            return StartChannelRefused(channel_id, allowed)
        return None

    @staticmethod
    def rules_from(settings: GuildSettings, game: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """:meth:`rules_for` from settings already read."""
        return {**settings.default_rules.get(game, {}), **dict(given or {})}

    # --- setters ------------------------------------------------------------------------------------------
    @staticmethod
    def _whole(template: str, value: Any, bounds: tuple[int, int]) -> int:
        """``value`` if it is a whole number within ``bounds``, else refused with ``template`` (its ``{low}``,
        ``{high}`` and ``{value}``)."""
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _refused(template, low=low, high=high, value=value)
        return value

    async def _update(self, guild_id: int, **values: Any) -> GuildSettings:
        async with self.db.transaction() as conn:
            await self.db.settings.update_settings(conn, guild_id, self.clock(), **values)
            settings = await self.db.settings.get_settings(conn, guild_id)
        return self._read(settings)

    async def web_public(self, guild_id: int) -> bool:
        """Whether the server's web pages (boards, match reviews, tournament pages) are public
        (``/settings web on``)."""
        async with self.db.statement() as conn:
            return await self.db.web.get_option(conn, guild_id, WEB) == "on"

    async def set_web_public(self, guild_id: int, public: bool) -> None:
        async with self.db.transaction() as conn:
            await self.db.web.set_option(conn, guild_id, WEB, "on" if public else None, self.clock())

    async def set_arrange_seconds(self, guild_id: int, seconds: int) -> GuildSettings:
        self._whole(N_("The arrangement timer must be a whole number from {low} to {high} seconds, not {value}."),
                    seconds, ARRANGE_SECONDS_RANGE)
        return await self._update(guild_id, arrange_seconds=seconds)

    async def set_flip_pace_ms(self, guild_id: int, milliseconds: int) -> GuildSettings:
        self._whole(N_("The flip pace must be a whole number from {low} to {high} milliseconds, not {value}."),
                    milliseconds, FLIP_PACE_MS_RANGE)
        return await self._update(guild_id, flip_pace_ms=milliseconds)

    async def set_war_pace(self, guild_id: int, pace: str) -> GuildSettings:
        if not isinstance(pace, str) or pace.strip().lower() not in WAR_PACES:
            raise _refused(N_("War's pace is one of {paces}, not {pace}."), paces=", ".join(WAR_PACES),
                           pace=repr(pace))
        return await self._update(guild_id, war_pace=pace.strip().lower())

    async def set_thread_per_match(self, guild_id: int, enabled: bool) -> GuildSettings:
        if not isinstance(enabled, bool):
            raise _refused(N_("Thread per match is on or off, not {value}."), value=repr(enabled))
        return await self._update(guild_id, thread_per_match=enabled)

    async def set_default_rules(self, guild_id: int, game: str, rules: str | Mapping[str, Any]) -> GuildSettings:
        """The game's default rules: text (``"aces=low stack=3"``; one of :data:`RESET_WORDS` alone clears them)
        or a mapping (an empty one clears them). Replaces the game's previous defaults as a whole."""
        if game not in game_names():
            raise _no_game(game)
        if isinstance(rules, str):
            parsed = {} if rules.strip().lower() in RESET_WORDS else parse_rules_text(game, rules)
        else:
            parsed = check_rules(game, rules)
        async with self.db.transaction() as conn:
            await self.db.settings.put_default_rules(conn, guild_id, game, parsed, self.clock())
            return await self.db.settings.get_settings(conn, guild_id)

    @staticmethod
    def game_setting(settings: GuildSettings, game: str, key: str) -> str:
        """The server's value of the game's setting ``key`` (its default until set), from settings already read."""
        plugin = registry().entry(game).plugin  # (a variant's settings are its game's)
        declared = plugin.setting(key)
        if declared is None:
            raise KeyError(f"{game} declares no setting {key!r}")
        return settings.game_settings.get(plugin.name, {}).get(key, declared.default)

    async def set_game_setting(self, guild_id: int, game: str, key: str, value: str) -> GuildSettings:
        """Set a setting the game declares to one of its choices (its default removes the stored value)."""
        if game not in game_names():
            raise _no_game(game)
        plugin = registry().entry(game).plugin
        declared = plugin.setting(key)
        if declared is None:
            raise _refused(N_("{game} has no setting {key}."), game=plugin.title, key=repr(key))
        if not isinstance(value, str) or value.strip().lower() not in declared.choices:
            raise _refused(N_("{setting} is one of {choices}, not {value}."), setting=Phrase(declared.label),
                           choices=", ".join(declared.choices), value=repr(value))
        chosen = value.strip().lower()
        async with self.db.transaction() as conn:
            await self.db.settings.put_game_setting(conn, guild_id, plugin.name, key,
                                                    None if chosen == declared.default else chosen, self.clock())
            return self._read(await self.db.settings.get_settings(conn, guild_id))

    async def add_start_channel(self, guild_id: int, channel_id: int) -> GuildSettings:
        async with self.db.transaction() as conn:
            if not await self.db.settings.add_start_channel(conn, guild_id, channel_id, self.clock()):
                raise _refused(N_("{channel} is already one of the channels where matches may start."),
                               channel=f"<#{channel_id}>")
            return await self.db.settings.get_settings(conn, guild_id)

    async def remove_start_channel(self, guild_id: int, channel_id: int) -> GuildSettings:
        async with self.db.transaction() as conn:
            if not await self.db.settings.remove_start_channel(conn, guild_id, channel_id):
                raise _refused(N_("{channel} isn't one of the channels where matches may start."),
                               channel=f"<#{channel_id}>")
            return await self.db.settings.get_settings(conn, guild_id)

    async def clear_start_channels(self, guild_id: int) -> GuildSettings:
        async with self.db.transaction() as conn:
            await self.db.settings.clear_start_channels(conn, guild_id)
            return await self.db.settings.get_settings(conn, guild_id)
