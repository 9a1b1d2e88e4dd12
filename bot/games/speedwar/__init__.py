"""Speed War: both cards up at once, the first to press the right button takes them."""

from bot.games.speedwar.engine import SpeedWar
from bot.games.speedwar.flow import SpeedWarFlow
from bot.i18n import N_
from bot.registry import GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {challenge} and pick your opponent, who presses {accept}."),
    N_("**Play:** each round both top cards show at once, with a button for each card and {equal}: press the higher "
       "card's button, or {equal} when the ranks are equal. The first right press takes both cards; a wrong press "
       "gives them away. Your reaction times are in {cmd_stats}."),
    N_("{status} shows your game (only to you); {forfeit} gives up."),
)

PLUGIN = GamePlugin(how_to=HOW_TO, engine=SpeedWar, flow=SpeedWarFlow, order=30)

__all__ = ["PLUGIN"]
