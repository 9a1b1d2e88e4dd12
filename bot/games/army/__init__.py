"""Army: armies with stamina, red attack and black defence fighting cards."""

from bot.games import GamePlugin
from bot.games.army.engine import Army
from bot.games.army.flow import ArmyFlow
from bot.i18n import N_

HELP = N_("`/army challenge` a member, or me (pick my `level`: unrated practice, with a Hint button and your "
          "accuracy at the end); set your armies and pick each round's card in a private message. `/army status`, "
          "`/army forfeit`.")

PLUGIN = GamePlugin(help=HELP, opponent="bot.ai.army:decide", levels=("hard", "medium", "easy"), engine=Army,
                    flow=ArmyFlow, order=20)
