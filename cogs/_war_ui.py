"""War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``war`` prefix, with lobbies, and the live
table's own buttons, so buttons in old messages work after a restart.

* ``war:c:<match>:<accept|decline|withdraw>`` -- the challenge;
* ``war:l:<match>:<join|leave|start|cancel>`` -- the lobby (anyone may Join; the rest are for its players);
* ``war:t:<match>:<flip|vote:next_war|vote:auto|vote:instant>`` -- the live table (its players only);
* ``war:ff:<match>:<yes|no>`` -- the ephemeral "really give up?" of ``/war forfeit``.

The table's ids name no round: the table is edited every few seconds, and a click made on one render must still
find its button on the next (Discord fails a click whose button is gone, and nobody could answer it). Which round a
click was meant for is checked by the War cog when it arrives. Ids of older tables, with the round in them
(``war:t:<match>:<round>:<key>``), are read the same way.

Each item parses its id and hands the click to the War cog (:data:`COG_NAME`); a click by someone outside the match
(except Join) gets an ephemeral "This isn't your match."
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.render.common import Button
from cogs.kit.items import GameItem, MatchButtons
from cogs.kit.messages import STYLES

COG_NAME = "War"
TITLE = "War"
COLOUR = discord.Colour.from_rgb(160, 60, 50)
TABLE_KEYS = ("flip", "vote:next_war", "vote:auto", "vote:instant")

BUTTONS = MatchButtons("war", cog_name=COG_NAME, title=TITLE, forfeit_labels=("Yes, give up", "No, keep playing"),
                       lobby=True)


class TableButton(GameItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"war:t:(?P<match>[0-9]{{1,19}})(?::[0-9]{{1,7}})?:(?P<key>{'|'.join(TABLE_KEYS)})"):
    """A button of a game's live table, handed to the cog's ``on_table_button(interaction, match, key)``."""

    cog_name = COG_NAME
    title = TITLE

    def __init__(self, match_id: int, key: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or key, style=style, disabled=disabled, row=row,
                                           custom_id=f"war:t:{match_id}:{key}"))
        self.match_id = match_id
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Any:
        return cls(int(match["match"]), match["key"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_table_button", self.key)


def table_view(match_id: int, buttons: Sequence[Button]) -> discord.ui.View | None:
    """The table's buttons (``None`` when there are none: the game is over)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(TableButton(match_id, button.key, label=button.label,
                                  style=STYLES.get(button.style, discord.ButtonStyle.secondary),
                                  disabled=not button.enabled, row=button.row))
    return view


#: every button War's messages carry, for ``bot.add_dynamic_items``
ITEMS = (*BUTTONS.items, TableButton)
