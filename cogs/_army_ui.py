"""Army's buttons: dynamic items whose custom id names the match (and the step), so they work after a restart.

* ``army:c:<match>:<accept|decline|withdraw>`` -- the challenge message;
* ``army:p:<match>:<step>:<key>`` -- the DM panel (or its ephemeral copy); ``key`` is the render's button key:
  ``army:<CARD>``, ``undo``, ``reset``, ``dealt``, ``confirm`` (setting the armies), ``play:<CARD>`` (a round);
* ``army:open:<match>:<step>`` -- "Open my Army panel" (a player whose DMs are closed, and ``/army status``);
* ``army:ff:<match>:<yes|no>`` -- the ephemeral "really forfeit?" question.

The items parse their custom id and hand the click to the Army cog (:data:`COG_NAME`); ``interaction_check`` turns
away anyone outside the match with an ephemeral "This isn't your match." No rules and no state here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from bot.render.common import Button, ButtonSurface
from cogs._airwar_ui import STYLES
from cogs._match_common import GameItem

COG_NAME = "Army"
COLOUR = discord.Colour.from_rgb(150, 60, 50)
FINISHED_COLOUR = discord.Colour.from_rgb(110, 110, 110)
CHALLENGE_ACTIONS = ("accept", "decline", "withdraw")
PANEL_KEY = r"(?:army:[0-9AJQK]{1,2}[CDHS]|play:[0-9]{1,2}[CDHS]|undo|reset|dealt|confirm)"


def challenge_view(match_id: int, buttons: Sequence[Button]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        if button.key in CHALLENGE_ACTIONS:
            view.add_item(ChallengeButton(match_id, button.key, label=button.label, style=STYLES[button.style],
                                          disabled=not button.enabled))
    return view


def panel_view(match_id: int, step: int, surface: ButtonSurface) -> discord.ui.View | None:
    """The panel's buttons (``None`` when there are none: chosen, or over)."""
    if not surface.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in surface.buttons:
        view.add_item(PanelButton(match_id, step, button.key, label=button.label,
                                  style=STYLES.get(button.style, discord.ButtonStyle.secondary),
                                  disabled=not button.enabled, row=button.row))
    return view


def open_panel_view(match_id: int, step: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPanelButton(match_id, step))
    return view


def forfeit_view(match_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForfeitButton(match_id, "yes"))
    view.add_item(ForfeitButton(match_id, "no"))
    return view


class _ArmyItem(GameItem):
    cog_name = COG_NAME
    title = "Army"


class ChallengeButton(_ArmyItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"army:c:(?P<match>[0-9]{1,19}):(?P<action>accept|decline|withdraw)"):
    def __init__(self, match_id: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or action.title(), style=style, disabled=disabled,
                                           custom_id=f"army:c:{match_id}:{action}"))
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ChallengeButton:
        return cls(int(match["match"]), match["action"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_challenge_button", self.action)


class PanelButton(_ArmyItem, discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"army:p:(?P<match>[0-9]{{1,19}}):(?P<step>[0-9]{{1,6}}):(?P<key>{PANEL_KEY})"):
    def __init__(self, match_id: int, step: int, key: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or key, style=style, disabled=disabled, row=row,
                                           custom_id=f"army:p:{match_id}:{step}:{key}"))
        self.match_id = match_id
        self.step = step
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PanelButton:
        return cls(int(match["match"]), int(match["step"]), match["key"], label=item.label, style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_panel_button", self.step, self.key)


class OpenPanelButton(_ArmyItem, discord.ui.DynamicItem[discord.ui.Button],
                      template=r"army:open:(?P<match>[0-9]{1,19}):(?P<step>[0-9]{1,6})"):
    def __init__(self, match_id: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Open my Army panel", style=discord.ButtonStyle.primary,
                                           custom_id=f"army:open:{match_id}:{step}"))
        self.match_id = match_id
        self.step = step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> OpenPanelButton:
        return cls(int(match["match"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_open_panel", self.step)


class ForfeitButton(_ArmyItem, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"army:ff:(?P<match>[0-9]{1,19}):(?P<answer>yes|no)"):
    def __init__(self, match_id: int, answer: str) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label="Forfeit" if yes else "Keep playing",
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"army:ff:{match_id}:{answer}",
        ))
        self.match_id = match_id
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ForfeitButton:
        return cls(int(match["match"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_forfeit_button", self.answer)


DYNAMIC_ITEMS = (ChallengeButton, PanelButton, OpenPanelButton, ForfeitButton)
