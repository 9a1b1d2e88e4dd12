"""High Card's buttons: the kit's match buttons under the ``hc`` prefix (they keep working after a restart)."""

from __future__ import annotations

from bot.i18n import N_
from cogs.kit.items import MatchButtons

from .. import render

COG_NAME = "HighCard"
BUTTONS = MatchButtons("hc", cog_name=COG_NAME, title=render.TITLE, panel_key=r"pick:[0-9AJQK]{1,2}[CDHS]",
                       open_label=N_("Open my High Card panel"))
