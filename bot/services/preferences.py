"""Players' own preferences, the same on every server: where a player's private panels open.

* ``dm`` (the default): one DM message per match, edited for each step; the match's board also opens the panel in
  the thread;
* ``here``: no DM at all; the panel opens as an ephemeral message in the match's thread, from its board's button.

A player whose DMs turn out to be closed gets ``here`` for that match by itself (the presenter's doing); the stored
preference is not changed by it. A setter validates first and raises :class:`InvalidPreference` (its text is the
user's message) without changing anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from bot.match.errors import ServiceError
from bot.storage.port import Storage
from bot.storage.preferences import DEFAULT_PANELS, PANEL_PLACES

__all__ = ["DEFAULT_PANELS", "PANEL_PLACES", "InvalidPreference", "PreferencesService"]


class InvalidPreference(ServiceError):
    """A preference's value was refused; nothing was changed."""


class PreferencesService:
    def __init__(self, database: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.db = database
        self.clock = clock

    async def panel_places(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Where each player's panels open (``dm`` or ``here``), every user asked for; one SELECT."""
        async with self.db.statement() as conn:
            return await self.db.preferences.panel_places(conn, user_ids)

    async def panel_place(self, user_id: int) -> str:
        return (await self.panel_places([user_id]))[user_id]

    async def set_panel_place(self, user_id: int, place: str) -> str:
        """Where the player's panels open from now on; returns it."""
        if place not in PANEL_PLACES:
            raise InvalidPreference(f"Panels open in `dm` or `here`, not {place!r}.")
        async with self.db.statement() as conn:  # one write
            await self.db.preferences.set_panel_place(conn, user_id, place, self.clock())
        return place
