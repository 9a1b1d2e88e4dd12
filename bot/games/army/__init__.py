"""Army: armies with stamina, red attack and black defence fighting cards."""

from bot.games.army.engine import Army
from bot.games.army.flow import ArmyFlow
from bot.i18n import N_
from bot.registry import ACCURACY, GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {challenge} and pick your opponent: a member of this server, who presses {accept}, or me, for "
       "an unrated practice match ({opt_level}: how well I play)."),
    N_("**Play:** {choose} on the board opens your private panel (or your DM shows it). First tap your armies in "
       "their fighting order ({undo}, {reset} and {as_dealt} help), then {confirm}. Then each round press the card "
       "you fight with: red attacks, black defends."),
    ACCURACY,
    N_("{status} shows your match (only to you); {forfeit} gives up."),
)

PLUGIN = GamePlugin(how_to=HOW_TO, opponent="bot.ai.army:decide", levels=("hard", "medium", "easy"), engine=Army,
                    flow=ArmyFlow, order=20)
