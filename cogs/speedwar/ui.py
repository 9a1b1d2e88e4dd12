"""Speed War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``sw`` prefix.

* ``sw:c:<match>:<accept|decline|withdraw>`` -- the challenge;
* ``sw:t:<match>:<round>:<0|1|tie>`` -- a round's buttons (its players only): seat 0's card, seat 1's card, equal;
* ``sw:ff:<match>:<yes|no>`` -- the ephemeral "really give up?".
"""

from __future__ import annotations

import discord

from bot.i18n import N_
from cogs.kit.items import MatchButtons

COG_NAME = "SpeedWar"
COLOUR = discord.Colour.from_rgb(230, 170, 30)
BUTTONS = MatchButtons("sw", cog_name=COG_NAME, title="Speed War", table_key=r"0|1|tie",
                       forfeit_labels=(N_("Yes, give up"), N_("No, keep playing")))
