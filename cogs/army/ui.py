"""Army's buttons: dynamic items whose custom id names the match (and the step), so they work after a restart.

* ``army:c:<match>:<accept|decline|withdraw>`` -- the challenge message;
* ``army:p:<match>:<step>:<key>`` -- the DM panel (or its ephemeral copy); ``key`` is the render's button key:
  ``army:<CARD>``, ``undo``, ``reset``, ``dealt``, ``confirm`` (setting the armies), ``play:<CARD>`` (a round),
  ``hint`` against the bot;
* ``army:open:<match>:<step>`` -- **Choose** on the round message (the presser's panel, ephemeral, in the thread)
  and "Open my Army panel" in ``/army status``;
* ``army:ff:<match>:<yes|no>`` -- the ephemeral "really forfeit?" question.

The items parse their custom id and hand the click to the Army cog (:data:`COG_NAME`); ``interaction_check`` turns
away anyone outside the match with an ephemeral "This isn't your match." No rules and no state here.
"""

from __future__ import annotations

import discord

from bot.games.army.render import OPEN_PANEL, PANEL_BUTTON
from cogs.kit.items import MatchButtons

COG_NAME = "Army"
COLOUR = discord.Colour.from_rgb(150, 60, 50)
PANEL_KEY = r"(?:army:[0-9AJQK]{1,2}[CDHS]|play:[0-9]{1,2}[CDHS]|undo|reset|dealt|confirm|hint)"


BUTTONS = MatchButtons("army", cog_name=COG_NAME, title="Army", panel_key=PANEL_KEY,
                       open_label=OPEN_PANEL, board_label=PANEL_BUTTON)  # (N_ marked: each message says them)
