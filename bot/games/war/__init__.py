"""War for 2-4 players with its many variants; Drunkard and Tod und Leben are registered variants."""

from bot.games import GamePlugin
from bot.games.war.engine import Drunkard, TodUndLeben, War
from bot.games.war.flow import DEFAULT_PACE, PACES, WarFlow

PLUGIN = GamePlugin(engine=War, variants=(Drunkard, TodUndLeben), flow=WarFlow, order=10, paces=PACES,
                    default_pace=DEFAULT_PACE)

__all__ = ["DEFAULT_PACE", "PACES", "PLUGIN"]
