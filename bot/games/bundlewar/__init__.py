"""Bundle War: War with face-up capture piles that can be stolen (the War / Stealing Bundles hybrid)."""

from bot.games.bundlewar.engine import BundleWar
from bot.games.bundlewar.flow import BundleWarFlow
from bot.i18n import N_
from bot.registry import GamePlugin

#: how a newcomer starts and plays it (:mod:`bot.howto` fills the placeholders in the reader's language)
HOW_TO = (
    N_("**Start:** {challenge} and pick your opponent, who presses {accept}. For 2–4 players, {lobby}: the others "
       "press {join}, then the host presses {start}."),
    N_("**Play:** each step, {choose} on the board opens your private panel (or your DM shows it) with the card you "
       "look at: {play_card} plays it; {steal_card} takes that pile, when its top card matches yours. After winning "
       "a round, {top_card} picks the card left on top of your pile."),
    N_("{status} shows your game (only to you); {forfeit} gives up."),
)

PLUGIN = GamePlugin(how_to=HOW_TO, engine=BundleWar, flow=BundleWarFlow, order=35)

__all__ = ["PLUGIN"]
