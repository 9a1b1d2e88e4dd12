"""Army: armies with stamina, red attack and black defence fighting cards."""

from bot.games import GamePlugin
from bot.games.army.engine import Army
from bot.games.army.flow import ArmyFlow

PLUGIN = GamePlugin(engine=Army, flow=ArmyFlow, order=20)
