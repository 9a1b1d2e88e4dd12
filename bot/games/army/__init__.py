"""Army: armies with stamina, red attack and black defence fighting cards."""

from bot.games import GamePlugin
from bot.games.army.engine import Army

PLUGIN = GamePlugin(engine=Army, service="bot.games.army.service:ArmyService", order=20)
