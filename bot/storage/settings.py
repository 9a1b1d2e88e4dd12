"""Per-server settings and the players' display names.

A server's settings are one ``guild_settings`` row (Air War's arrangement timer and flip pace, War's default pace,
thread per match), its default rules per game (``guild_default_rules``: only the keys the server set) and the
channels where matches may start (``guild_start_channels``; none: anywhere) and the settings each game declares
(``guild_game_settings``: one row per setting changed, whatever the game). A server without rows has the
defaults. Values are checked by the settings service before they get here; the table's CHECKs are the backstop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.storage.sql import Connection, Placeholders, Statement, changed_one

WAR_PACES = ("flip", "auto", "instant")


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings. ``default_rules``: game -> the rule keys the server set (typed values);
    ``start_channels``: where matches may start, sorted (empty: anywhere)."""

    guild_id: int
    arrange_seconds: int = 120
    flip_pace_ms: int = 1500
    war_pace: str = "auto"
    thread_per_match: bool = True
    default_rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    start_channels: tuple[int, ...] = ()
    #: the language of the server's public messages (a code of :data:`bot.i18n.LANGUAGES`)
    language: str = "en"
    #: game -> the settings it declares that the server changed (key -> value; the others have their defaults)
    game_settings: dict[str, dict[str, str]] = field(default_factory=dict)


async def get_settings(conn: Connection, guild_id: int) -> GuildSettings:
    """The server's settings; the defaults when it has never set any (one statement and one round trip: it is read
    inside match transactions, which hold the connection for every round trip)."""
    rows = await conn.execute_fetchall(_GET_SETTINGS.on(conn), (guild_id,))
    row = next(iter(rows), None)
    assert row is not None
    rules = dict(sorted(json.loads(row["rules"])))
    channels = tuple(sorted(json.loads(row["channels"])))
    games: dict[str, dict[str, str]] = {}
    for game, key, value in sorted(json.loads(row["games"])):
        games.setdefault(game, {})[key] = value
    if row["arrange_seconds"] is None:
        return GuildSettings(guild_id, default_rules=rules, start_channels=channels, game_settings=games)
    return GuildSettings(guild_id, row["arrange_seconds"], row["flip_pace_ms"], row["war_pace"],
                         bool(row["thread_per_match"]), rules, channels, row["language"] or "en", games)


# (the server's id three times: SQLite's ?1 and PostgreSQL's $1 are its one parameter)
_GET_SETTINGS = Statement(
    sqlite="""
SELECT s.arrange_seconds, s.flip_pace_ms, s.war_pace, s.thread_per_match, s.language,
       (SELECT json_group_array(json_array(game, json(rules))) FROM guild_default_rules
         WHERE guild_id = ?1) AS rules,
       (SELECT json_group_array(channel_id) FROM guild_start_channels WHERE guild_id = ?1) AS channels,
       (SELECT json_group_array(json_array(game, setting, value)) FROM guild_game_settings
         WHERE guild_id = ?1) AS games
  FROM (SELECT CAST(?1 AS BIGINT) AS guild_id) AS asked LEFT JOIN guild_settings AS s ON s.guild_id = asked.guild_id
""",
    postgresql="""
SELECT s.arrange_seconds, s.flip_pace_ms, s.war_pace, s.thread_per_match, s.language,
       (SELECT COALESCE(json_agg(json_build_array(game, rules::json)), '[]'::json) FROM guild_default_rules
         WHERE guild_id = $1) AS rules,
       (SELECT COALESCE(json_agg(channel_id), '[]'::json) FROM guild_start_channels WHERE guild_id = $1) AS channels,
       (SELECT COALESCE(json_agg(json_build_array(game, setting, value)), '[]'::json) FROM guild_game_settings
         WHERE guild_id = $1) AS games
  FROM (SELECT CAST($1 AS BIGINT) AS guild_id) AS asked LEFT JOIN guild_settings AS s ON s.guild_id = asked.guild_id
""",
)


_PUT_SETTINGS = Statement(
    sqlite=(
        "INSERT INTO guild_settings (guild_id, arrange_seconds, flip_pace_ms, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET arrange_seconds = excluded.arrange_seconds, flip_pace_ms ="
        " excluded.flip_pace_ms, updated_at = excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO guild_settings (guild_id, arrange_seconds, flip_pace_ms, updated_at) VALUES ($1, $2, $3,"
        " $4) ON CONFLICT (guild_id) DO UPDATE SET arrange_seconds = excluded.arrange_seconds, flip_pace_ms ="
        " excluded.flip_pace_ms, updated_at = excluded.updated_at"
    ),
)


async def put_settings(conn: Connection, settings: GuildSettings, now: float) -> None:
    """Store Air War's timer and flip pace (only those two: the other settings have their own writers below, so a
    caller that builds ``GuildSettings(guild_id, timer, pace)`` never resets them)."""
    await conn.execute(
        _PUT_SETTINGS.on(conn),
        (settings.guild_id, settings.arrange_seconds, settings.flip_pace_ms, now),
    )


_COLUMNS = ("arrange_seconds", "flip_pace_ms", "war_pace", "thread_per_match", "language")


_UPDATE_SETTINGS = Statement(
    sqlite="INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
    postgresql=(
        "INSERT INTO guild_settings (guild_id, updated_at) VALUES ($1, $2) ON CONFLICT (guild_id) DO NOTHING"
    ),
)


async def update_settings(conn: Connection, guild_id: int, now: float, **values: Any) -> None:
    """Set some of the row's settings (``arrange_seconds``, ``flip_pace_ms``, ``war_pace``, ``thread_per_match``,
    ``language``); the others keep their stored (or default) values."""
    unknown = sorted(set(values) - set(_COLUMNS))
    if unknown:
        raise ValueError(f"no setting {unknown[0]!r}")
    await conn.execute(
        _UPDATE_SETTINGS.on(conn),
        (guild_id, now),
    )
    if values:
        marks = Placeholders(conn)
        assignments = ", ".join(f"{column} = {marks(int(value) if isinstance(value, bool) else value)}"
                                for column, value in values.items())
        await conn.execute(
            f"UPDATE guild_settings SET {assignments}, updated_at = {marks(now)} WHERE guild_id = {marks(guild_id)}",
            marks.values,
        )


_DELETE_DEFAULT_RULES = Statement(
    sqlite="DELETE FROM guild_default_rules WHERE guild_id = ? AND game = ?",
    postgresql="DELETE FROM guild_default_rules WHERE guild_id = $1 AND game = $2",
)
_PUT_DEFAULT_RULES = Statement(
    sqlite=(
        "INSERT INTO guild_default_rules (guild_id, game, rules, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT"
        " (guild_id, game) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO guild_default_rules (guild_id, game, rules, updated_at) VALUES ($1, $2, $3, $4) ON"
        " CONFLICT (guild_id, game) DO UPDATE SET rules = excluded.rules, updated_at = excluded.updated_at"
    ),
)


async def put_default_rules(
    conn: Connection, guild_id: int, game: str, rules: Mapping[str, Any], now: float
) -> None:
    """The server's default rules for the game (an empty mapping removes them)."""
    if not rules:
        await conn.execute(_DELETE_DEFAULT_RULES.on(conn), (guild_id, game))
        return
    await conn.execute(
        _PUT_DEFAULT_RULES.on(conn),
        (guild_id, game, json.dumps(dict(rules), sort_keys=True), now),
    )


_DELETE_GAME_SETTING = Statement(
    sqlite="DELETE FROM guild_game_settings WHERE guild_id = ? AND game = ? AND setting = ?",
    postgresql="DELETE FROM guild_game_settings WHERE guild_id = $1 AND game = $2 AND setting = $3",
)
_PUT_GAME_SETTING = Statement(
    sqlite=(
        "INSERT INTO guild_game_settings (guild_id, game, setting, value, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game, setting) DO UPDATE SET value = excluded.value, updated_at ="
        " excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO guild_game_settings (guild_id, game, setting, value, updated_at) VALUES ($1, $2, $3, $4,"
        " $5) ON CONFLICT (guild_id, game, setting) DO UPDATE SET value = excluded.value, updated_at ="
        " excluded.updated_at"
    ),
)


async def put_game_setting(
    conn: Connection, guild_id: int, game: str, key: str, value: str | None, now: float
) -> None:
    """The server's value of a setting the game declares (``None``: back to its default)."""
    if value is None:
        await conn.execute(_DELETE_GAME_SETTING.on(conn), (guild_id, game, key))
        return
    await conn.execute(_PUT_GAME_SETTING.on(conn), (guild_id, game, key, value, now))


_ADD_START_CHANNEL = Statement(
    sqlite=(
        "INSERT INTO guild_start_channels (guild_id, channel_id, created_at) VALUES (?, ?, ?) ON CONFLICT"
        " (guild_id, channel_id) DO NOTHING"
    ),
    postgresql=(
        "INSERT INTO guild_start_channels (guild_id, channel_id, created_at) VALUES ($1, $2, $3) ON CONFLICT"
        " (guild_id, channel_id) DO NOTHING"
    ),
)


async def add_start_channel(conn: Connection, guild_id: int, channel_id: int, now: float) -> bool:
    """List a channel where matches may start; ``False`` when it was listed already."""
    return await changed_one(conn, _ADD_START_CHANNEL, (guild_id, channel_id, now))


_REMOVE_START_CHANNEL = Statement(
    sqlite="DELETE FROM guild_start_channels WHERE guild_id = ? AND channel_id = ?",
    postgresql="DELETE FROM guild_start_channels WHERE guild_id = $1 AND channel_id = $2",
)


async def remove_start_channel(conn: Connection, guild_id: int, channel_id: int) -> bool:
    """``False`` when the channel was not listed."""
    return await changed_one(conn, _REMOVE_START_CHANNEL, (guild_id, channel_id))


_CLEAR_START_CHANNELS = Statement(
    sqlite="DELETE FROM guild_start_channels WHERE guild_id = ?",
    postgresql="DELETE FROM guild_start_channels WHERE guild_id = $1",
)


async def clear_start_channels(conn: Connection, guild_id: int) -> int:
    """Remove every listed channel (matches may start anywhere again); returns how many were listed."""
    cursor = await conn.execute(_CLEAR_START_CHANNELS.on(conn), (guild_id,))
    return cursor.rowcount


_REMEMBER_PLAYER = Statement(
    sqlite=(
        "INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name = COALESCE(excluded.display_name,"
        " players.display_name), updated_at = excluded.updated_at"
    ),
    postgresql=(
        "INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at) VALUES ($1, $2, $3,"
        " $4, $5) ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name ="
        " COALESCE(excluded.display_name, players.display_name), updated_at = excluded.updated_at"
    ),
)


async def remember_player(
    conn: Connection, guild_id: int, user_id: int, display_name: str | None, now: float
) -> None:
    """Create the player's row; a given name replaces the stored one, ``None`` keeps it."""
    await conn.execute(
        _REMEMBER_PLAYER.on(conn),
        (guild_id, user_id, display_name, now, now),
    )


_DISPLAY_NAME = Statement(
    sqlite="SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?",
    postgresql="SELECT display_name FROM players WHERE guild_id = $1 AND user_id = $2",
)


async def display_name(conn: Connection, guild_id: int, user_id: int) -> str | None:
    rows = await conn.execute_fetchall(
        _DISPLAY_NAME.on(conn), (guild_id, user_id)
    )
    return next(iter(rows))["display_name"] if rows else None
