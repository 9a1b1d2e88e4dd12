"""Air War, the flagship: each player has a deck of their own; every engagement both draw a stack that everyone
sees, arrange it in secret, and the flips are shown card by card."""

from bot.games import GamePlugin
from bot.games.airwar.engine import AirWar
from bot.games.airwar.flow import AirWarFlow

PLUGIN = GamePlugin(engine=AirWar, flow=AirWarFlow, order=0)
