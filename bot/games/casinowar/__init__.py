"""Casino War: one to four players against the house, for the server's chips (not rated, not in tournaments)."""

from bot.games import GamePlugin
from bot.games.casinowar.engine import CasinoWar
from bot.games.casinowar.flow import CasinoWarFlow

PLUGIN = GamePlugin(engine=CasinoWar, flow=CasinoWarFlow, order=40)

__all__ = ["PLUGIN"]
