"""High Card, a toy game defined only here: proof that a new game costs its own package and cog, nothing else.

The registry finds it when this package is named to :func:`bot.registry.discover` (or in ``GAME_PACKAGES``)."""

from bot.registry import GamePlugin

from .engine import HighCard
from .flow import HighCardFlow

PLUGIN = GamePlugin(engine=HighCard, flow=HighCardFlow, cog=".cog", order=90)
