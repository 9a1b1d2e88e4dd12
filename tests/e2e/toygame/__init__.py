"""High Card, a toy game defined only here: proof that a new game costs its own folder, nothing else: its package,
its cog package (``cog/``), its catalogue (``locales/``) and a server setting of its own (``round_lines``, stored
by the settings service with every game's settings).

The registry finds it when this package is named to :func:`bot.registry.discover` (or in ``GAME_PACKAGES``)."""

from bot.i18n import N_
from bot.registry import GamePlugin, GameSetting

from .engine import HighCard
from .flow import HighCardFlow

#: whether each round gets its line in the match's thread (off: the thread shows the panels' rounds and the result)
ROUND_LINES = GameSetting("round_lines", N_("Round lines in the thread"), ("on", "off"))

PLUGIN = GamePlugin(engine=HighCard, flow=HighCardFlow, cog=".cog", order=90, settings=(ROUND_LINES,))
