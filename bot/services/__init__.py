"""Services between the Discord cogs and storage that are not a match's: no Discord here, no SQL here.

* :mod:`bot.services.stats` -- stats, history, head to head, leaderboards, seasons, privacy;
* :mod:`bot.services.settings` -- the servers' settings;
* :mod:`bot.services.tournaments` -- tournaments of any game.

A match's life is the match kernel's (:mod:`bot.match`); :data:`USER_ERRORS` are every refusal a user may be shown.
"""

from bot.match.errors import USER_ERRORS, ServiceError

__all__ = ["USER_ERRORS", "ServiceError"]
