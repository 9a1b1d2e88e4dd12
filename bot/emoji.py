"""The app's card emoji on Discord: the set of :mod:`bot.render.card_emoji` uploaded as the application's own emoji
at start, and each card's emoji as messages write it.

:meth:`CardEmoji.sync` lists the application's emoji and creates the ones missing, by name, so it is idempotent
across restarts and across the processes of a cluster starting together: a create refused because another process
made that name first is followed by a second listing, which finds it. A set made once is only listed after (one
request a start). Drawing a missing emoji runs off the event loop.

Until the set is known (a start that could not reach Discord's emoji routes), :meth:`CardEmoji.markup` and
:meth:`CardEmoji.partial` give ``None`` and the messages show the card notation alone.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.render.card_emoji import NAMES, card_of, emoji_png

log = logging.getLogger("bot.emoji")


class CardEmoji:
    """Card (``None``: face down) -> the application's emoji of it, once :meth:`sync` ran."""

    def __init__(self) -> None:
        self._by_card: dict[str | None, discord.Emoji] = {}
        #: goes up each time the set is learnt (what was made from it before may be out of date)
        self.version = 0

    @property
    def ready(self) -> bool:
        return len(self._by_card) == len(NAMES)

    async def sync(self, client: discord.Client) -> int:
        """Make sure every card's emoji exists on Discord and learn their ids; returns how many this call created."""
        existing = await self._listed(client)
        created = 0
        taken = False
        for name in NAMES:
            if name in existing:
                continue
            image = await asyncio.to_thread(emoji_png, card_of(name))
            try:
                existing[name] = await client.create_application_emoji(name=name, image=image)
                created += 1
            except discord.HTTPException as error:
                if error.status != 400:
                    raise
                taken = True  # (another process of the cluster made it meanwhile)
                log.info("card emoji %s: %s; listing again", name, error)
        if taken:
            existing = await self._listed(client)
        self._by_card = {card_of(name): existing[name] for name in NAMES if name in existing}
        self.version += 1
        if not self.ready:
            log.warning("card emoji missing after the upload: %s", ", ".join(n for n in NAMES if n not in existing))
        log.info("card emoji: %d known, %d created", len(self._by_card), created)
        return created

    @staticmethod
    async def _listed(client: discord.Client) -> dict[str, discord.Emoji]:
        return {emoji.name: emoji for emoji in await client.fetch_application_emojis()}

    def markup(self, card: str | None) -> str | None:
        """``<:c_QS:id>``, the card's emoji in a message's text; ``None`` while the set is unknown."""
        emoji = self._by_card.get(card)
        return None if emoji is None else f"<:{emoji.name}:{emoji.id}>"

    def component(self, card: str | None) -> dict[str, str] | None:
        """The card's emoji as a button's component names it; ``None`` while the set is unknown."""
        emoji = self._by_card.get(card)
        return None if emoji is None else {"id": str(emoji.id), "name": emoji.name}

    def partial(self, card: str | None) -> discord.PartialEmoji | None:
        """The card's emoji for a button; ``None`` while the set is unknown."""
        emoji = self._by_card.get(card)
        return None if emoji is None else discord.PartialEmoji(name=emoji.name, id=emoji.id)


#: the application's card emoji in this process (one application: its bot syncs it as it starts)
CARD_EMOJI = CardEmoji()
