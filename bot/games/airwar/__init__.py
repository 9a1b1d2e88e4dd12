"""Air War, the flagship: each player has a deck of their own; every engagement both draw a stack that everyone
sees, arrange it in secret, and the flips are shown card by card."""

from bot.games import GamePlugin
from bot.games.airwar.engine import AirWar
from bot.games.airwar.flow import AirWarFlow
from bot.i18n import N_

#: the game's line of `/help` (marked: shown in the reader's language as ``say(PLUGIN.help)``)
HELP = N_("`/airwar challenge` a member of this server, or me (pick my `level`: unrated practice, with a Hint button "
          "and your accuracy at the end), or open a `/airwar lobby` for 3-4 that anyone here joins (with a `level`, I "
          "take a seat). Each player gets a private message to arrange their stack in secret; the flips are shown in a "
          "thread. `/airwar status` (only you see it), `/airwar forfeit` to give up.")

PLUGIN = GamePlugin(help=HELP, opponent="bot.ai.players:decide", levels=("expert", "hard", "medium", "easy"),
                    default_level="hard", engine=AirWar, flow=AirWarFlow, order=0)
