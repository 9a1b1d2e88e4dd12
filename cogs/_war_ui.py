"""War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``war`` prefix, with lobbies and a table,
so buttons in old messages work after a restart.

* ``war:c:<match>:<accept|decline|withdraw>`` -- the challenge;
* ``war:l:<match>:<join|leave|start|cancel>`` -- the lobby (anyone may Join; the rest are for its players);
* ``war:t:<match>:<round>:<flip|vote:auto|vote:instant>`` -- the live table (its players only);
* ``war:ff:<match>:<yes|no>`` -- the ephemeral "really give up?" of ``/war forfeit``.

Each item parses its id and hands the click to the War cog (:data:`COG_NAME`); a click by someone outside the match
(except Join) gets an ephemeral "This isn't your match."
"""

from __future__ import annotations

import discord

from cogs.kit.items import MatchButtons

COG_NAME = "War"
COLOUR = discord.Colour.from_rgb(160, 60, 50)
TABLE_KEY = r"flip|vote:auto|vote:instant"

BUTTONS = MatchButtons("war", cog_name=COG_NAME, title="War", forfeit_labels=("Yes, give up", "No, keep playing"),
                       lobby=True, table_key=TABLE_KEY)
