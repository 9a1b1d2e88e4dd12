"""Army: armies with stamina, red attack and black defence fighting cards."""

from bot.games import GamePlugin
from bot.games.army.engine import Army
from bot.games.army.flow import ArmyFlow

HELP = ("`/army challenge`; set your armies and pick each round's card in a private message. `/army status`, "
        "`/army forfeit`.")

PLUGIN = GamePlugin(help=HELP, engine=Army, flow=ArmyFlow, order=20)
