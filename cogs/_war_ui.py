"""War's buttons: dynamic items whose custom id names the match, so buttons in old messages work after a restart.

* ``war:c:<match>:<accept|decline|withdraw>`` -- the challenge;
* ``war:l:<match>:<join|leave|start|cancel>`` -- the lobby (anyone may Join; the rest are for its players);
* ``war:t:<match>:<round>:<flip|vote:auto|vote:instant>`` -- the live table (its players only);
* ``war:ff:<match>:<yes|no>`` -- the ephemeral "really give up?" of ``/war forfeit``.

Each item parses its id and hands the click to the War cog; a click by someone outside the match (except Join)
gets an ephemeral "This isn't your match."
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.render.common import Button
from cogs._match_common import GameItem
from cogs.kit.messages import STYLES

COG_NAME = "War"
COLOUR = discord.Colour.from_rgb(160, 60, 50)
FINISHED_COLOUR = discord.Colour.from_rgb(110, 110, 110)
NO_MENTIONS = discord.AllowedMentions.none()


class _WarItem(GameItem):
    cog_name = COG_NAME
    title = "War"


def _button(custom_id: str, label: str, style: discord.ButtonStyle, disabled: bool) -> discord.ui.Button:
    return discord.ui.Button(label=label, style=style, disabled=disabled, custom_id=custom_id)


class ChallengeButton(_WarItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"war:c:(?P<match>[0-9]{1,19}):(?P<action>accept|decline|withdraw)"):
    def __init__(self, match_id: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        super().__init__(_button(f"war:c:{match_id}:{action}", label or action.title(), style, disabled))
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ChallengeButton:
        return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_button", "challenge", self.action)


class LobbyButton(_WarItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"war:l:(?P<match>[0-9]{1,19}):(?P<action>join|leave|start|cancel)"):
    def __init__(self, match_id: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        super().__init__(_button(f"war:l:{match_id}:{action}", label or action.title(), style, disabled))
        self.match_id = match_id
        self.action = action
        self.open_to_all = action == "join"

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_button", "lobby", self.action)


class TableButton(_WarItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"war:t:(?P<match>[0-9]{1,19}):(?P<round>[0-9]{1,7}):(?P<key>flip|vote:auto|vote:instant)"):
    def __init__(self, match_id: int, round_number: int, key: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        super().__init__(_button(f"war:t:{match_id}:{round_number}:{key}", label or key, style, disabled))
        self.match_id = match_id
        self.round = round_number
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> TableButton:
        return cls(int(match["match"]), int(match["round"]), match["key"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_button", "table", self.round, self.key)


class ForfeitButton(_WarItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"war:ff:(?P<match>[0-9]{1,19}):(?P<answer>yes|no)"):
    def __init__(self, match_id: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(_button(f"war:ff:{match_id}:{answer}", "Yes, give up" if yes else "No, keep playing",
                                 discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary, False))
        self.match_id = match_id
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ForfeitButton:
        return cls(int(match["match"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_button", "forfeit", self.answer)


def forfeit_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForfeitButton(match_id, "yes"))
    view.add_item(ForfeitButton(match_id, "no"))
    return view


def view_of(match_id: int, kind: str, buttons: Sequence[Button], round_number: int = 0) -> discord.ui.View | None:
    """The buttons of a challenge (``kind`` ``c``), lobby (``l``) or table (``t``); ``None`` when there are none."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        style = STYLES.get(button.style, discord.ButtonStyle.secondary)
        if kind == "c":
            item: discord.ui.Item = ChallengeButton(match_id, button.key, label=button.label, style=style,
                                                    disabled=not button.enabled)
        elif kind == "l":
            item = LobbyButton(match_id, button.key, label=button.label, style=style, disabled=not button.enabled)
        else:
            item = TableButton(match_id, round_number, button.key, label=button.label, style=style,
                               disabled=not button.enabled)
        view.add_item(item)
    return view


DYNAMIC_ITEMS = (ChallengeButton, LobbyButton, TableButton, ForfeitButton)
