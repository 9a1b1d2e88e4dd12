"""War for 2-4 players with its many variants; Drunkard, Tod und Leben and Double War are registered variants."""

from bot.games import GamePlugin
from bot.games.war.engine import DoubleWar, Drunkard, TodUndLeben, War
from bot.games.war.flow import DEFAULT_PACE, PACES, WarFlow
from bot.i18n import N_

#: ``/help``'s line (marked for the catalogues: ``say(PLUGIN.help)``)
HELP = N_("`/war challenge` one player or open a `/war lobby` for 2-4; pick the rules and the pace (flip, auto, "
           "instant). `/war status`, `/war forfeit`.")

PLUGIN = GamePlugin(help=HELP, engine=War, variants=(Drunkard, TodUndLeben, DoubleWar), flow=WarFlow, order=10,
                    paces=PACES, default_pace=DEFAULT_PACE)

__all__ = ["DEFAULT_PACE", "PACES", "PLUGIN"]
