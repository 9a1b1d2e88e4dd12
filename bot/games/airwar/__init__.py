"""Air War, the flagship: each player has a deck of their own; every engagement both draw a stack that everyone
sees, arrange it in secret, and the flips are shown card by card."""

from bot.games import GamePlugin
from bot.games.airwar.engine import AirWar

PLUGIN = GamePlugin(engine=AirWar, service="bot.services.matches:MatchService", order=0)
