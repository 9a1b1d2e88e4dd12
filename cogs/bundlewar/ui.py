"""Bundle War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``bw`` prefix: the challenge
(``bw:c:…``), the lobby (``bw:l:…``), the private panel (``bw:p:<match>:<step>:<play|steal:N|top:CARD>``), **Choose**
on each step's board (``bw:open:…``) and the forfeit question (``bw:ff:…``)."""

from __future__ import annotations

import discord

from bot.i18n import N_
from cogs.kit.items import MatchButtons

COG_NAME = "BundleWar"
COLOUR = discord.Colour.from_rgb(120, 80, 160)
PANEL_KEY = r"(?:play|steal:[0-3]|top:[0-9A-Z]{1,3})"
BUTTONS = MatchButtons("bw", cog_name=COG_NAME, title="Bundle War", panel_key=PANEL_KEY, lobby=True,
                       open_label=N_("Open my Bundle War panel"), board_label=N_("Choose"),
                       forfeit_labels=(N_("Yes, give up"), N_("No, keep playing")))
