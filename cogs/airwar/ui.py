"""Air War's buttons (the kit's :class:`~cogs.kit.items.MatchButtons` for the ``aw`` prefix) and colours.

Every button is a :class:`discord.ui.DynamicItem` whose custom id names what it acts on, so a button in a message
sent before a restart still works (nothing about it lives in memory):

* ``aw:c:<match>:<accept|decline|withdraw>`` -- the challenge message;
* ``aw:l:<match>:<join|leave|start|cancel>`` -- a lobby's message (3 or 4 players; anyone may Join);
* ``aw:p:<match>:<engagement>:<key>`` -- the battle-order panel (DM or ephemeral); ``key`` is the render's button
  key: ``card:<CARD>``, ``undo``, ``reset``, ``random``, ``drawn``, ``confirm``, and ``hint`` against the bot;
* ``aw:open:<match>:<engagement>`` -- **Arrange** on the board (the presser's panel, ephemeral, in the thread) and
  "Open my battle-order panel" in ``/airwar status``;
* ``aw:ff:<match>:<yes|no>`` -- the ephemeral "really forfeit?" question.

The items only parse their custom id and hand the click to the Air War cog (``interaction.client.get_cog``);
``interaction_check`` answers a click by someone outside the match with an ephemeral "This isn't your match."
This module holds no game rules and no state.
"""

from __future__ import annotations

import discord

from bot.games.airwar.render import PANEL_BUTTON
from bot.i18n import N_
from cogs.kit.items import MatchButtons

COG_NAME = "AirWar"
COLOUR = discord.Colour.from_rgb(70, 110, 160)

PANEL_KEY = r"(?:card:[0-9A-Z]{1,3}|undo|reset|random|drawn|confirm|hint)"
#: the button of ``/airwar status`` that opens the asker's panel
OPEN_LABEL = N_("Open my battle-order panel")
#: the forfeit question's buttons
FORFEIT_LABELS = (N_("Forfeit"), N_("Keep playing"))

BUTTONS = MatchButtons("aw", cog_name=COG_NAME, title="Air War", panel_key=PANEL_KEY, open_label=OPEN_LABEL,
                       board_label=PANEL_BUTTON, forfeit_labels=FORFEIT_LABELS, lobby=True)
