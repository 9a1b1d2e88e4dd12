"""War for 2-4 players with its many variants; Drunkard and Tod und Leben are registered variants."""

from bot.games import GamePlugin
from bot.games.war.engine import Drunkard, TodUndLeben, War

#: how a match's cards are flipped, slowest first (see :mod:`bot.games.war.service`)
PACES = ("flip", "auto", "instant")
DEFAULT_PACE = "auto"

PLUGIN = GamePlugin(engine=War, variants=(Drunkard, TodUndLeben), service="bot.games.war.service:WarService",
                    order=10, paces=PACES, default_pace=DEFAULT_PACE)
