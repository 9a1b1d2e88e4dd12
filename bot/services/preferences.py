"""Players' own preferences, the same on every server: where a player's private panels open, and the language
their Discord client last showed (:class:`PlayerLanguages`).

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

from bot.i18n import N_
from bot.match.errors import ServiceError
from bot.storage.port import Storage
from bot.storage.preferences import DEFAULT_PANELS, PANEL_PLACES

__all__ = ["DEFAULT_PANELS", "PANEL_PLACES", "InvalidPreference", "PlayerLanguages", "PreferencesService"]

#: how long a language read from a database that other processes share is trusted (one process: until it changes)
SHARED_LANGUAGE_SECONDS = 30.0


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
            raise InvalidPreference(f"Panels open in `dm` or `here`, not {place!r}.",
                                    template=N_("Panels open in `dm` or `here`, not {place}."), place=repr(place))
        async with self.db.statement() as conn:  # one write
            await self.db.preferences.set_panel_place(conn, user_id, place, self.clock())
        return place


class PlayerLanguages:
    """The language of each player's Discord client as it last showed it to the bot (``interaction.locale``): what
    the bot sends a player outside an interaction (a DM panel) speaks it. Kept in memory and stored only when it
    changes, so an interaction costs at most a read the first time a process sees the player."""

    def __init__(self, database: Storage, *, clock: Callable[[], float] = time.time) -> None:
        self.db = database
        self.clock = clock
        self._known: dict[int, tuple[str, float]] = {}  # user id -> (language, when it was read or noted)

    def _fresh(self, user_id: int) -> str | None:
        known = self._known.get(user_id)
        if known is None or (self.db.shared and self.clock() - known[1] > SHARED_LANGUAGE_SECONDS):
            return None
        return known[0]

    async def note(self, user_id: int, language: str) -> None:
        """The player's client shows ``language`` (a catalogue's code): stored when it differs from what was."""
        if self._fresh(user_id) == language:
            return
        self._known[user_id] = (language, self.clock())  # known at once to this process, before it is stored
        async with self.db.statement() as conn:
            stored = (await self.db.preferences.languages(conn, [user_id])).get(user_id)
        if stored != language:
            async with self.db.statement() as conn:
                await self.db.preferences.set_language(conn, user_id, language, self.clock())

    async def of(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The known language of each of the players (those never seen are left out)."""
        found: dict[int, str] = {}
        missing = []
        for user_id in user_ids:
            language = self._fresh(user_id)
            if language is None:
                missing.append(user_id)
            else:
                found[user_id] = language
        if missing:
            async with self.db.statement() as conn:
                stored = await self.db.preferences.languages(conn, missing)
            now = self.clock()
            for user_id, language in stored.items():
                self._known[user_id] = (language, now)
            found.update(stored)
        return found
