"""Players' own preferences (``player_preferences``: one row per player, for every server): where their private
panels open, ``dm`` (the default) or ``here``, and the language their Discord client last showed (for what the bot
sends them outside an interaction). A player without a row has the defaults. Values are checked by the
preferences service before they get here; the table's CHECK is the backstop."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.sql import Connection, Placeholders, Statement

PANEL_PLACES = ("dm", "here")
DEFAULT_PANELS = "dm"


async def panel_places(conn: Connection, user_ids: Iterable[int]) -> dict[int, str]:
    """Where each player's panels open (every user asked for, the default for those without a row); one
    statement."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        f"SELECT user_id, panels FROM player_preferences WHERE user_id IN ({marks.each(wanted)})", marks.values)
    stored = {int(row["user_id"]): str(row["panels"]) for row in rows}
    return {user_id: stored.get(user_id, DEFAULT_PANELS) for user_id in wanted}


def _setting(column: str) -> Statement:
    """The statement that sets one preference of a player (``user_id``, the value, ``updated_at``), adding the
    player's row if it has none."""
    upsert = f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}, updated_at = excluded.updated_at"
    return Statement(
        sqlite=f"INSERT INTO player_preferences (user_id, {column}, updated_at) VALUES (?, ?, ?){upsert}",
        postgresql=f"INSERT INTO player_preferences (user_id, {column}, updated_at) VALUES ($1, $2, $3){upsert}",
    )


_SET_PANEL_PLACE = _setting("panels")


async def set_panel_place(conn: Connection, user_id: int, place: str, now: float) -> None:
    """Where the player's panels open from now on (``dm`` or ``here``)."""
    await conn.execute(
        _SET_PANEL_PLACE.on(conn),
        (user_id, place, now),
    )


async def languages(conn: Connection, user_ids: Iterable[int]) -> dict[int, str]:
    """The language each player's client last showed, for those it is known of; one statement."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = Placeholders(conn)
    rows = await conn.execute_fetchall(
        "SELECT user_id, language FROM player_preferences WHERE language IS NOT NULL"
        f" AND user_id IN ({marks.each(wanted)})", marks.values)
    return {int(row["user_id"]): str(row["language"]) for row in rows}


_SET_LANGUAGE = _setting("language")


async def set_language(conn: Connection, user_id: int, language: str, now: float) -> None:
    """The player's client shows ``language`` (a catalogue's code)."""
    await conn.execute(
        _SET_LANGUAGE.on(conn),
        (user_id, language, now),
    )
