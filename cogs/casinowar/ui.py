"""Casino War's buttons: the kit's :class:`~cogs.kit.items.MatchButtons` for the ``cw`` prefix, with the table's
lobby, so buttons in old messages work after a restart. Their words are English here; the messages that carry them
give them in the reader's language (the cog and the presenter: :data:`OPEN_LABEL`, :data:`FORFEIT_LABELS`,
``render.PANEL_BUTTON``).

* ``cw:l:<match>:<join|leave|start|cancel>`` -- the table before the deal (anyone may Join; Start deals);
* ``cw:p:<match>:<step>:<key>`` -- a seat's panel: ``bet:<amount>``, ``tie:<amount>`` (the bet with the tie bet),
  ``sit``, ``war``, ``surrender``;
* ``cw:open:<match>:<step>`` -- **Bet** on the step's message in the thread (the presser's panel, ephemeral);
* ``cw:ff:<match>:<yes|no>`` -- the ephemeral "really leave the table?" of ``/casinowar leave``.
"""

from __future__ import annotations

import discord

from bot.games.casinowar.render import PANEL_BUTTON, TITLE
from bot.i18n import N_
from cogs.kit.items import MatchButtons

COG_NAME = "CasinoWar"
COLOUR = discord.Colour.from_rgb(20, 110, 60)
PANEL_KEY = r"(?:bet:[0-9]{1,9}|tie:[0-9]{1,9}|sit|war|surrender)"
#: the status command's button that opens the user's panel
OPEN_LABEL = N_("Open my Casino War panel")
#: ``/casinowar leave``'s question: leave, stay
FORFEIT_LABELS = (N_("Leave the table"), N_("Stay"))

BUTTONS = MatchButtons("cw", cog_name=COG_NAME, title=TITLE, panel_key=PANEL_KEY, open_label=OPEN_LABEL,
                       board_label=PANEL_BUTTON, forfeit_labels=FORFEIT_LABELS, lobby=True)
