"""War for 2-4 players with its many variants; Drunkard, Tod und Leben and Double War are registered variants."""

from bot.games.war.engine import DoubleWar, Drunkard, TodUndLeben, War
from bot.games.war.flow import DEFAULT_PACE, PACES, WarFlow
from bot.i18n import N_
from bot.registry import GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {challenge} and pick your opponent, who presses {accept}. For 2–4 players, {lobby}: the others "
       "press {join}, then the host presses {start}. {opt_variant}: {variants}; {opt_pace}: how the rounds are "
       "played."),
    N_("**Play:** at the flip pace everyone presses {flip} each round; at the auto pace the bot plays and pauses on "
       "every war. {next_war}, {auto} and {instant} go faster once everyone still in has pressed them."),
    N_("{status} shows your game (only to you); {forfeit} gives up."),
)

#: the choices of the commands' options (names as the client shows them, in its language)
CHOICES = (
    ("pace", (("auto", N_("auto: the bot plays, pausing on every war (a game takes minutes)")),
              ("flip", N_("flip: everyone presses Flip each round, or all skip to the next war")),
              ("instant", N_("instant: played out at once")))),
)

PLUGIN = GamePlugin(how_to=HOW_TO, choices=CHOICES, engine=War, variants=(Drunkard, TodUndLeben, DoubleWar),
                    flow=WarFlow, order=10, paces=PACES, default_pace=DEFAULT_PACE)

__all__ = ["DEFAULT_PACE", "PACES", "PLUGIN"]
