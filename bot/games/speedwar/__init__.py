"""Speed War: both cards up at once, the first to press the right button takes them."""

from bot.games import GamePlugin
from bot.games.speedwar.engine import SpeedWar
from bot.games.speedwar.flow import SpeedWarFlow
from bot.i18n import N_

HELP = N_("`/speedwar challenge` a member: each round both cards show at once; press the higher card (or `=` on equal "
          "ranks) first to take them, a wrong press gives them away. Your reaction times are in `/stats`. "
          "`/speedwar status`, `/speedwar forfeit`.")

PLUGIN = GamePlugin(help=HELP, engine=SpeedWar, flow=SpeedWarFlow, order=30)

__all__ = ["PLUGIN"]
