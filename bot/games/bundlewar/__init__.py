"""Bundle War: War with face-up capture piles that can be stolen (the War / Stealing Bundles hybrid)."""

from bot.games import GamePlugin
from bot.games.bundlewar.engine import BundleWar
from bot.games.bundlewar.flow import BundleWarFlow
from bot.i18n import N_

HELP = N_("`/bundlewar challenge` one player or open a `/bundlewar lobby` for 2-4: look at your card in your private "
          "panel, then play it or steal a pile whose top matches it. `/bundlewar status`, `/bundlewar forfeit`.")

PLUGIN = GamePlugin(help=HELP, engine=BundleWar, flow=BundleWarFlow, order=35)

__all__ = ["PLUGIN"]
