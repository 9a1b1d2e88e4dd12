"""Per-server settings and the players' display names."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    arrange_seconds: int = 120
    flip_pace_ms: int = 1500


async def get_settings(conn: aiosqlite.Connection, guild_id: int) -> GuildSettings:
    """The server's settings; the defaults when it has never set any."""
    rows = await conn.execute_fetchall(
        "SELECT arrange_seconds, flip_pace_ms FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    if not rows:
        return GuildSettings(guild_id)
    row = next(iter(rows))
    return GuildSettings(guild_id, row["arrange_seconds"], row["flip_pace_ms"])


async def put_settings(conn: aiosqlite.Connection, settings: GuildSettings, now: float) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, arrange_seconds, flip_pace_ms, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET arrange_seconds = excluded.arrange_seconds,"
        " flip_pace_ms = excluded.flip_pace_ms, updated_at = excluded.updated_at",
        (settings.guild_id, settings.arrange_seconds, settings.flip_pace_ms, now),
    )


async def remember_player(
    conn: aiosqlite.Connection, guild_id: int, user_id: int, display_name: str | None, now: float
) -> None:
    """Create the player's row; a given name replaces the stored one, ``None`` keeps it."""
    await conn.execute(
        "INSERT INTO players (guild_id, user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " display_name = COALESCE(excluded.display_name, players.display_name), updated_at = excluded.updated_at",
        (guild_id, user_id, display_name, now, now),
    )


async def display_name(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> str | None:
    rows = await conn.execute_fetchall(
        "SELECT display_name FROM players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return next(iter(rows))["display_name"] if rows else None
