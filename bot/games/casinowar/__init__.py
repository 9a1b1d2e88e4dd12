"""Casino War: one to four players against the house, for the server's chips (not rated, not in tournaments)."""

from bot.games import GamePlugin
from bot.games.casinowar.engine import CasinoWar
from bot.games.casinowar.flow import CasinoWarFlow
from bot.i18n import N_

HELP = N_("`/casinowar table` opens a table for 1-4 players against the house, for this server's chips (not rated); "
          "bet and decide ties in your private panel. `/casinowar status`, `/casinowar chips`, `/casinowar leave`.")

PLUGIN = GamePlugin(help=HELP, engine=CasinoWar, flow=CasinoWarFlow, order=40)

__all__ = ["PLUGIN"]
