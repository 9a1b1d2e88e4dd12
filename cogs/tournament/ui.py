"""The tournament buttons: dynamic items (custom ids ``tn:join:<id>``, ``tn:leave:<id>``, ``tn:checkin:<id>`` on the
status message, ``tn:ready:<id>:<match key>`` on a round's call) that keep working after a restart, and the views that
hold them."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import N_, Texts
from bot.render.tournament import CallButton
from cogs.kit.items import RoutedButtons
from cogs.kit.messages import SORRY, private_words
from cogs.kit.messages import tell_privately as tell

log = logging.getLogger("cogs.tournament")

COG_NAME = "Tournament"
GONE = N_("Tournaments are restarting; please try again in a moment.")


class ButtonHandlers(Protocol):
    """What the buttons ask of the tournament cog (:class:`cogs.tournament.TournamentCog`, found by its name, so
    this module needs no import of it): whether a click on a match's Ready is its player's, and the handlers
    ``_Item._run`` calls by name (``on_signup_button``, ``on_ready_button``)."""

    async def check_player(self, interaction: discord.Interaction, tournament_id: int, key: str) -> bool: ...


def _cog(interaction: discord.Interaction) -> ButtonHandlers | None:
    return interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined,return-value]


class _Item:
    tournament_id: int

    async def _run(self, interaction: discord.Interaction, handler: str, *args: Any) -> None:
        cog = _cog(interaction)
        if cog is None:
            await tell(interaction, private_words(interaction)(GONE))
            return
        try:
            await getattr(cog, handler)(interaction, self.tournament_id, *args)
        except Exception:
            log.exception("a click on tournament %s (%s) failed", self.tournament_id, handler)
            await tell(interaction, private_words(interaction)(SORRY))


class SignupButton(_Item, discord.ui.DynamicItem[discord.ui.Button],
                   template=r"tn:(?P<action>join|leave|checkin):(?P<tournament>[0-9]{1,19})"):
    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "checkin": (N_("Check in"), discord.ButtonStyle.primary)}

    def __init__(self, tournament_id: int, action: str, say: Texts | None = None) -> None:
        label, style = self.LABELS[action]
        super().__init__(discord.ui.Button(label=say(label) if say is not None else label, style=style,
                                           custom_id=f"tn:{action}:{tournament_id}"))
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> SignupButton:
        return cls(int(match["tournament"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_signup_button", self.action)


class ReadyButton(_Item, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"tn:ready:(?P<tournament>[0-9]{1,19}):(?P<key>[A-Za-z0-9-]{1,20})"):
    """One bracket match's Ready button on its round's call: green while the match waits for its players, grey and
    disabled once its game is under way or the match is over (a click that beats that edit is answered
    privately)."""

    def __init__(self, tournament_id: int, key: str, *, label: str = "Ready", live: bool = True) -> None:
        style = discord.ButtonStyle.success if live else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, style=style, disabled=not live,
                                           custom_id=f"tn:ready:{tournament_id}:{key}"))
        self.tournament_id = tournament_id
        self.key = key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ReadyButton:
        return cls(int(match["tournament"]), match["key"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        cog = _cog(interaction)
        if cog is None:
            await tell(interaction, private_words(interaction)(GONE))
            return False
        return await cog.check_player(interaction, self.tournament_id, self.key)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, "on_ready_button", self.key)


DYNAMIC_ITEMS = (SignupButton, ReadyButton)


def signup_view(tournament_id: int, status: str, say: Texts | None = None) -> discord.ui.View | None:
    """The status message's buttons, labelled in ``say``'s language (the server's: the message is public)."""
    view = RoutedButtons()
    if status == "signup":
        view.add_item(SignupButton(tournament_id, "join", say))
        view.add_item(SignupButton(tournament_id, "leave", say))
    elif status == "check_in":
        view.add_item(SignupButton(tournament_id, "checkin", say))
        view.add_item(SignupButton(tournament_id, "leave", say))
    else:
        return None
    return view


def call_view(tournament_id: int, buttons: Sequence[CallButton]) -> discord.ui.View | None:
    """A round's call: one Ready button per match, five to a row (``None``: no buttons, no ready check)."""
    if not buttons:
        return None
    view = RoutedButtons()
    for button in buttons:
        view.add_item(ReadyButton(tournament_id, button.key, label=button.label, live=button.live))
    return view
