"""Air War, the flagship: each player has a deck of their own; every engagement both draw a stack that everyone
sees, arrange it in secret, and the flips are shown card by card."""

from bot.games.airwar.engine import AirWar
from bot.games.airwar.flow import AirWarFlow
from bot.i18n import N_
from bot.registry import ACCURACY, GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {challenge} and pick your opponent: a member of this server, who presses {accept}, or me, for "
       "an unrated practice match ({opt_level}: how well I play; {hint} helps you). For 3–4 players, {lobby}: the "
       "others press {join}, then the host presses {start}."),
    N_("**Play:** each engagement, {arrange} on the board opens your private panel (or your DM shows it). Tap your "
       "stack's cards in the order you want them flipped ({undo}, {reset}, {random} and {as_drawn} help), then "
       "{lock_in}: your order is final and hidden until everyone has locked in; then the cards are flipped side by "
       "side."),
    ACCURACY,
    N_("{status} shows your match (only to you); {forfeit} gives up."),
)

#: the choices of the commands' options (names as the client shows them, in its language)
CHOICES = (
    ("aces", (("high", N_("high (default): the ace beats the king")), ("low", N_("low: the ace is below the 2")))),
    ("deck", (("standard", N_("standard, 52 cards (default)")), ("jokers", N_("with two jokers, 54 cards")),
              ("tarot", N_("tarot, 78 cards")))),
)

PLUGIN = GamePlugin(how_to=HOW_TO, choices=CHOICES, opponent="bot.ai.players:decide",
                    levels=("expert", "hard", "medium", "easy"), default_level="hard", engine=AirWar, flow=AirWarFlow,
                    order=0)
