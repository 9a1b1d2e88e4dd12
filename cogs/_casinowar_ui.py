"""Casino War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``cw`` prefix, with the table's
lobby, so buttons in old messages work after a restart.

* ``cw:l:<match>:<join|leave|start|cancel>`` -- the table before the deal (anyone may Join; Start deals);
* ``cw:p:<match>:<step>:<key>`` -- a seat's panel: ``bet:<amount>``, ``tie:<amount>`` (the bet with the tie bet),
  ``sit``, ``war``, ``surrender``;
* ``cw:open:<match>:<step>`` -- **Bet** on the step's message in the thread (the presser's panel, ephemeral);
* ``cw:ff:<match>:<yes|no>`` -- the ephemeral "really leave the table?" of ``/casinowar leave``.
"""

from __future__ import annotations

import discord

from bot.games.casinowar.render import PANEL_BUTTON
from cogs.kit.items import MatchButtons

COG_NAME = "CasinoWar"
COLOUR = discord.Colour.from_rgb(20, 110, 60)
PANEL_KEY = r"(?:bet:[0-9]{1,9}|tie:[0-9]{1,9}|sit|war|surrender)"

BUTTONS = MatchButtons("cw", cog_name=COG_NAME, title="Casino War", panel_key=PANEL_KEY,
                       open_label="Open my Casino War panel", board_label=PANEL_BUTTON,
                       forfeit_labels=("Leave the table", "Stay"), lobby=True)
