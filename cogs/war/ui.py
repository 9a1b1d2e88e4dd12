"""War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``war`` prefix, with lobbies and a table,
so buttons in old messages work after a restart.

* ``war:c:<match>:<accept|decline|withdraw>`` -- the challenge;
* ``war:l:<match>:<join|leave|start|cancel>`` -- the lobby (anyone may Join; the rest are for its players);
* ``war:t:<match>:0:<flip|vote:next_war|vote:auto|vote:instant>`` -- the live table (its players only);
* ``war:ff:<match>:<yes|no>`` -- the ephemeral "really give up?" of ``/war forfeit``.

The table's ids name no round (the kit's step part is always :data:`TABLE_STEP`): the table is edited every few
seconds, and a click made on one render must still find its button on the next (Discord fails a click whose button
is gone, and nobody could answer it). Which round a click was meant for is checked by the War cog when it arrives.
Ids of older tables, with a round in that place, are read the same way.

Each item parses its id and hands the click to the War cog (:data:`COG_NAME`); a click by someone outside the match
(except Join) gets an ephemeral "This isn't your match."
"""

from __future__ import annotations

import discord

from bot.i18n import N_
from cogs.kit.items import MatchButtons

COG_NAME = "War"
COLOUR = discord.Colour.from_rgb(160, 60, 50)
TABLE_KEY = r"flip|vote:next_war|vote:auto|vote:instant"
#: the step part of every table id: the same for the whole game
TABLE_STEP = 0
FORFEIT_LABELS = (N_("Yes, give up"), N_("No, keep playing"))

BUTTONS = MatchButtons("war", cog_name=COG_NAME, title="War", forfeit_labels=FORFEIT_LABELS, lobby=True,
                       table_key=TABLE_KEY)
