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

The forfeit question's and the Rematch button's labels are in the language of what is being made (:data:`WORDS`:
the asking player's for the question, the server's for a result), set by the cog or the presenter before.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import discord

from bot.i18n import N_, Texts
from bot.render.common import ENGLISH
from cogs.kit.items import MatchButtons

COG_NAME = "War"
COLOUR = discord.Colour.from_rgb(160, 60, 50)
TABLE_KEY = r"flip|vote:next_war|vote:auto|vote:instant"
#: the step part of every table id: the same for the whole game
TABLE_STEP = 0
FORFEIT_LABELS = (N_("Yes, give up"), N_("No, keep playing"))
REMATCH_LABEL = N_("Rematch")

#: the words of the message being made in this task (a private answer: its user's; a public message: the server's)
WORDS: ContextVar[Texts] = ContextVar("war_words", default=ENGLISH)


def _relabelled(view: discord.ui.View, labels: dict[str, str]) -> discord.ui.View:
    """``view`` with its buttons' labels in :data:`WORDS`'s language (``labels``: custom id's end -> English)."""
    say = WORDS.get()
    for child in view.children:
        button: Any = getattr(child, "item", child)
        custom_id = str(getattr(button, "custom_id", "") or "")
        for end, label in labels.items():
            if custom_id.endswith(end):
                button.label = say(label)
    return view


class WarButtons(MatchButtons):
    """The kit's buttons, the forfeit question's and the Rematch labels in :data:`WORDS`'s language."""

    def forfeit_view(self, match_id: int) -> discord.ui.View:
        return _relabelled(super().forfeit_view(match_id), {":yes": FORFEIT_LABELS[0], ":no": FORFEIT_LABELS[1]})

    def rematch_view(self, match_id: int) -> discord.ui.View:
        return _relabelled(super().rematch_view(match_id), {f":rm:{match_id}": REMATCH_LABEL})


BUTTONS = WarButtons("war", cog_name=COG_NAME, title="War", forfeit_labels=FORFEIT_LABELS, lobby=True,
                     table_key=TABLE_KEY)
